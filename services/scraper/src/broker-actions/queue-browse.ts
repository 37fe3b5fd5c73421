import { RpcError } from '@artemis-studio/bus';
import {
  MESSAGE_TYPES,
  OWNER_FAILURES,
  type BrowsedMessage,
  type BrowsedPropertyType,
  type QueueBrowseCall,
  type QueueMessagesPage,
} from '@artemis-studio/contracts';
import { brokerMbean, count, text } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { MANAGEMENT_CALL, type BrokerLanes } from '../jolokia/broker-lanes';
import { readState, type QueueState } from './queue-action-calls';
import { chosenHolder, RememberedHolders, type QueueHolder, readOf } from './queue-holders';
import type { ActionJolokia } from './queue-actions';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import { browsedBody, DEFAULT_ATTRIBUTE_SIZE_LIMIT } from './browsed-body';

/** Artemis' message types (`Message.*_TYPE`) by number. */
const TYPE_NAMES: Record<number, BrowsedMessage['type']> = {
  0: 'default',
  2: 'object',
  3: 'text',
  4: 'bytes',
  5: 'map',
  6: 'stream',
};

/** The typed property maps of a browsed message, merged into one, each with its type. */
const PROPERTY_MAPS: [string, BrowsedPropertyType][] = [
  ['StringProperties', 'string'],
  ['LongProperties', 'long'],
  ['IntProperties', 'int'],
  ['ShortProperties', 'short'],
  ['ByteProperties', 'byte'],
  ['BooleanProperties', 'boolean'],
  ['DoubleProperties', 'double'],
  ['FloatProperties', 'float'],
];

/** Artemis' `Message.BYTES_TYPE`. */
const BYTES_TYPE = 4;

const instantOf = (ms: unknown): string | null =>
  typeof ms === 'number' && ms > 0 && Number.isFinite(ms) ? new Date(ms).toISOString() : null;

/**
 * One message as `browse` gives it (a CompositeData, as Jolokia renders it), in the API's shape;
 * `attributeSizeLimit` is how much of a body the broker shows (its address setting).
 */
export function browsedMessage(
  raw: Record<string, unknown>,
  attributeSizeLimit = DEFAULT_ATTRIBUTE_SIZE_LIMIT,
): BrowsedMessage {
  const properties: BrowsedMessage['properties'] = {};
  const propertyTypes: BrowsedMessage['propertyTypes'] = {};
  for (const [map, type] of PROPERTY_MAPS) {
    const values = raw[map];
    if (values && typeof values === 'object')
      for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
        properties[name] =
          typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
        propertyTypes[name] = type;
      }
  }
  const typeNumber = count(raw.type);
  return {
    messageId: String(raw.messageID ?? ''),
    userId: text(raw.userID) || null,
    type:
      typeNumber !== null && TYPE_NAMES[typeNumber]
        ? TYPE_NAMES[typeNumber]
        : MESSAGE_TYPES[MESSAGE_TYPES.length - 1],
    protocol: text(raw.protocol),
    address: text(raw.address),
    durable: raw.durable === true,
    priority: count(raw.priority) ?? 4,
    redelivered: raw.redelivered === true,
    largeMessage: raw.largeMessage === true,
    persistentSize: count(raw.persistentSize),
    timestamp: instantOf(raw.timestamp),
    expiration: instantOf(raw.expiration),
    properties,
    propertyTypes,
    body: browsedBody(raw, typeNumber === BYTES_TYPE, attributeSizeLimit),
  };
}

/**
 * The calls one page needs, in one bulk request: the page, the filtered count, the browse limit,
 * and the queue's depth now (its MBean may have been looked up a while ago).
 */
export function browseCalls(broker: string, found: QueueState, call: QueueBrowseCall): JolokiaRequest[] {
  const filter = call.filter?.trim() || '';
  return [
    {
      type: 'exec',
      mbean: found.mbean,
      operation: 'browse(int,int,java.lang.String)',
      arguments: [call.page, call.pageSize, filter],
    },
    ...(filter
      ? [
          {
            type: 'exec' as const,
            mbean: found.mbean,
            operation: 'countMessages(java.lang.String)',
            arguments: [filter],
          },
        ]
      : []),
    addressSettings(broker, found.address ?? call.queue),
    readState(found),
  ];
}

/** The address settings that apply to the queue's address (its browse limit among them). */
export const addressSettings = (broker: string, address: string): JolokiaRequest => ({
  type: 'exec',
  mbean: brokerMbean(broker),
  operation: 'getAddressSettingsAsJSON(java.lang.String)',
  arguments: [address],
});

/**
 * One page of a queue's messages on one node. Browsing takes the broker's management lock like an
 * action, so it waits its turn in the broker's lane: behind a long purge it waits (or is told the
 * broker is busy), never fails for it.
 */
export class QueueBrowser {
  private readonly remembered = new RememberedHolders();

  constructor(
    private readonly jolokia: ActionJolokia,
    private readonly lanes: BrokerLanes,
  ) {}

  async page(cluster: ClusterNodes, call: QueueBrowseCall): Promise<QueueMessagesPage> {
    const first = await this.read(cluster, call);
    if (first.answers[0].status !== 404) return pageOf(call, first);
    // The queue was deleted (or made again) since it was looked up: look again, once.
    this.remembered.forget(cluster, call.queue);
    return pageOf(call, await this.read(cluster, call));
  }

  private async read(cluster: ClusterNodes, call: QueueBrowseCall) {
    const holders = await this.remembered.holders(this.jolokia, cluster, call.queue);
    const chosen = chosenHolder(holders, call.queue, call.node);
    const answers = await this.lanes.run(chosen.target.nodeKey, () =>
      this.jolokia.bulk(chosen.target, browseCalls(chosen.broker, chosen.found, call), MANAGEMENT_CALL),
    );
    return { holders, chosen, answers };
  }
}

/** The page from the answers to `browseCalls`. */
export function pageOf(
  call: QueueBrowseCall,
  { holders, chosen, answers }: { holders: QueueHolder[]; chosen: QueueHolder; answers: JolokiaResponse[] },
): QueueMessagesPage {
  const [browsed, ...rest] = answers;
  if (browsed.status !== 200) throw managementRefusal(browsed.error, 'the browse');
  const counted = call.filter?.trim() ? rest.shift() : undefined;
  const settings = rest.shift();
  const state = rest.shift();
  const browseLimit = settingsLimit(settings);
  const attributeSizeLimit = settingsOf(settings)?.managementMessageAttributeSizeLimit;
  const matchedCount = counted?.status === 200 ? count(counted.value) : null;
  const depth =
    state?.status === 200
      ? count((state.value as { MessageCount?: unknown }).MessageCount)
      : chosen.found.depth;
  return {
    ...readOf(call, chosen, holders),
    page: call.page,
    pageSize: call.pageSize,
    filter: call.filter?.trim() || null,
    messages: ((browsed.value ?? []) as Record<string, unknown>[]).map((raw) =>
      browsedMessage(raw, count(attributeSizeLimit) ?? DEFAULT_ATTRIBUTE_SIZE_LIMIT),
    ),
    depth,
    // countMessages(filter) looks at the first `browseLimit` messages only, however many match.
    matched:
      matchedCount === null
        ? null
        : { count: matchedCount, atLeast: browseLimit === null || depth === null || depth > browseLimit },
    browseLimit,
    bodyFilter: null,
    bodyScan: null,
  };
}

/** The broker's refusal of a call: an invalid filter is the caller's to fix, busy is retryable. */
export function managementRefusal(error: string | undefined, what: string): RpcError {
  const said = error ?? `the broker refused ${what}`;
  if (/AMQ229245|controller is busy/i.test(said)) return new RpcError(OWNER_FAILURES.busy, said);
  if (/AMQ229020|Invalid filter/i.test(said))
    return new RpcError(OWNER_FAILURES.invalid, said.replace(/^.*?(AMQ229020)/, '$1'));
  return new RpcError(OWNER_FAILURES.refused, said);
}

/**
 * The address settings' JSON, or null when unknown. The broker leaves a setting at its default
 * out (checked on 2.40).
 */
function settingsOf(answer: JolokiaResponse | undefined): Record<string, unknown> | null {
  if (answer?.status !== 200 || typeof answer.value !== 'string') return null;
  try {
    return JSON.parse(answer.value) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** `managementBrowsePageSize` from the address settings' JSON, or null when unknown. */
export const settingsLimit = (answer: JolokiaResponse | undefined): number | null =>
  count(settingsOf(answer)?.managementBrowsePageSize);
