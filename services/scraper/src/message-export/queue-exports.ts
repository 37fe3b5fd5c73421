import { RpcError } from '@artemis-studio/bus';
import {
  bodyFilterOf,
  OWNER_FAILURES,
  type ExportedMessage,
  type QueueExportCall,
  type QueueExportPart,
} from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import type { ActionJolokia } from '../broker-actions/queue-actions';
import { chosenHolder, queueHolders, type QueueHolder } from '../broker-actions/queue-holders';
import type { AmqpEndpoint, ClusterNodes } from '../cluster-parts/owned-cluster';
import { requiredAmqpEndpoint } from '../broker-actions/amqp-send';
import { BrowsingReceiver } from '../body-filters/browsing-receiver';
import { exportedMessage } from './exported-message';
import { compileBodyFilter, type BodyVerdict, type ReadMessage } from '../body-filters/body-filter';

/** How many messages one read asks the broker for. */
const READ_MESSAGES = 100;
/**
 * The lines one part answers with, in bytes (UTF-8, as NATS carries them), before the message that
 * passes it: a NATS message holds 1 MB, and one line holds at most a 256 kB body (as base64, a
 * third more).
 */
const PART_BYTES = 384 * 1024;
/**
 * How long one part may read: a body filter that matches little reads on without adding lines,
 * and the gateway's request for the part must be answered well within its timeout.
 */
const PART_MS = 15_000;
/** An export nobody asked the next part of for this long is closed (the download was abandoned). */
const IDLE_MS = 60_000;
/** Exports one cluster's owner reads at once: each holds an AMQP connection to a node. */
const EXPORTS_MAX = 4;

/** One export under way: the nodes still to read, the one being read, what was read and not sent. */
interface ExportSession {
  id: string;
  queue: string;
  selector: string;
  /** The body filter's test, when the export has one: a message it does not match is read, not exported. */
  matches: ((message: ReadMessage) => BodyVerdict) | null;
  nodes: { holder: QueueHolder; endpoint: AmqpEndpoint }[];
  reading: { holder: QueueHolder; receiver: BrowsingReceiver } | null;
  pending: ExportedMessage[];
  finished: boolean;
  idle?: NodeJS.Timeout;
}

/**
 * A cluster's exports (issue 60), each read once from the queue's head to its end on every node
 * holding it (or the one asked for), over AMQP (BrowsingReceiver), and handed to the gateway a part
 * at a time: the gateway asks for the next part once it has written the last, so a slow download
 * holds the broker's reading back instead of filling this replica's memory.
 */
export class QueueExports {
  private readonly sessions = new Map<string, ExportSession>();

  constructor(
    private readonly jolokia: ActionJolokia,
    private readonly cluster: ClusterNodes,
  ) {}

  async part(call: QueueExportCall): Promise<QueueExportPart> {
    const session = call.session ? this.resumed(call.session) : await this.opened(call);
    clearTimeout(session.idle);
    try {
      const messages: ExportedMessage[] = [];
      let bytes = 0;
      const deadline = Date.now() + PART_MS;
      while (bytes < PART_BYTES) {
        if (session.pending.length === 0 && !(await this.read(session, deadline))) break;
        const message = session.pending.shift();
        // The part's time ran out while a body filter matched nothing: an empty part, more to come.
        if (!message) break;
        bytes += Buffer.byteLength(JSON.stringify(message));
        messages.push(message);
      }
      const done = session.finished && session.pending.length === 0;
      if (done) await this.close(session.id);
      else session.idle = setTimeout(() => void this.close(session.id), IDLE_MS).unref();
      return { session: session.id, messages, done };
    } catch (err) {
      await this.close(session.id);
      throw err instanceof RpcError
        ? err
        : new RpcError(
            OWNER_FAILURES.unreachable,
            `the export of ${session.queue} broke: ${(err as Error).message}`,
          );
    }
  }

  /** Every export ends: the replica lets the cluster go. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private resumed(id: string): ExportSession {
    const session = this.sessions.get(id);
    if (!session)
      throw new RpcError(
        OWNER_FAILURES.notFound,
        'this export is not under way here (it ended, sat idle, or the cluster changed owner): start it again',
      );
    return session;
  }

  private async opened(call: QueueExportCall): Promise<ExportSession> {
    if (this.sessions.size >= EXPORTS_MAX)
      throw new RpcError(
        OWNER_FAILURES.refused,
        `${EXPORTS_MAX} exports of this cluster are under way: wait for one to end`,
      );
    const body = bodyFilterOf(call);
    const matches = body ? compileBodyFilter(body, call.masking) : null;
    const all = await queueHolders(this.jolokia, this.cluster, call.queue);
    const holders = call.node ? [chosenHolder(all, call.queue, call.node)] : all;
    chosenHolder(holders, call.queue);
    const session: ExportSession = {
      id: randomUUID(),
      queue: call.queue,
      selector: call.filter ?? '',
      matches,
      nodes: holders.map((holder) => ({
        holder,
        endpoint: requiredAmqpEndpoint(this.cluster, holder.node, 'an export reads the queue'),
      })),
      reading: null,
      pending: [],
      finished: false,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  /**
   * Reads the next messages into `pending`; false once every node was read to its end. Past the
   * deadline it stops with nothing pending.
   */
  private async read(session: ExportSession, deadline: number): Promise<boolean> {
    while (session.pending.length === 0) {
      if (Date.now() > deadline) return true;
      if (!session.reading) {
        const next = session.nodes.shift();
        if (!next) {
          session.finished = true;
          return false;
        }
        const { holder, endpoint } = next;
        const fqqn = `${holder.found.address ?? session.queue}::${session.queue}`;
        const receiver = await BrowsingReceiver.open(endpoint, fqqn, session.selector);
        session.reading = { holder, receiver };
      }
      const { holder, receiver } = session.reading;
      const messages = await receiver.next(READ_MESSAGES);
      const source = { clusterId: this.cluster.target.id, node: holder.node.name, queue: session.queue };
      const kept = session.matches ? messages.filter((m) => session.matches!(m) === true) : messages;
      session.pending.push(...kept.map((m) => exportedMessage(m, source)));
      if (messages.length < READ_MESSAGES) {
        await receiver.close();
        session.reading = null;
      }
    }
    return true;
  }

  private async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    clearTimeout(session.idle);
    await session.reading?.receiver.close();
  }
}
