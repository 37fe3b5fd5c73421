import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { seeded } from './seeded';

/** One answer of a Jolokia bulk request as the broker sent it, every field of its envelope kept. */
export interface RecordedAnswer {
  status: number;
  value?: unknown;
  [key: string]: unknown;
}

/**
 * What the real broker answered to the scraper's reads (issue 32, item 5), recorded by
 * services/scraper/src/jolokia/jolokia-simulator.int-spec.ts with RECORD_JOLOKIA=1 against the
 * broker scripts/artemis.sh runs: a simulator is honest only if its bodies are the broker's.
 * Each read is cut to one entry (one queue, one address), the templates the simulator copies.
 */
export interface JolokiaRecording {
  artemisVersion: string;
  /** `broker=*` with the tier-A attributes. */
  broker: RecordedAnswer;
  /** Every queue (`address=*,…,queue=*`) with the tier-B attributes: one queue. */
  queues: RecordedAnswer;
  /** Every address with its paging attributes: one address. */
  addresses: RecordedAnswer;
  /** A wildcard read that matches nothing (no ring on the notification address): 404. */
  noMatch: RecordedAnswer;
}

// Beside src/ and dist/ alike, so tests (from sources) and benchmarks (built) find it.
export const JOLOKIA_RECORDING_PATH = join(__dirname, '..', 'fixtures', 'jolokia-artemis-2.40.json');

export function jolokiaRecording(path = JOLOKIA_RECORDING_PATH): JolokiaRecording {
  return JSON.parse(readFileSync(path, 'utf8')) as JolokiaRecording;
}

/** One simulated cluster: its live node and how many queues it holds (each on its own address). */
interface SimulatedCluster {
  queues: number;
}

export interface SimulatorOptions {
  clusters: SimulatedCluster[];
  /** The share of a node's queues whose figures change between two reads of them (0..1). */
  changeShare: number;
  /** Seeded, so two runs change the same queues. */
  seed?: number;
}

interface SimQueue {
  name: string;
  messageCount: number;
  messagesAdded: number;
  messagesAcknowledged: number;
  consumerCount: number;
  /** This queue's entry of the queue read, and of the address read, as JSON: rebuilt when it changes. */
  queueJson: string;
  addressJson: string;
}

interface SimNode {
  brokerName: string;
  nodeId: string;
  startedAt: number;
  queues: SimQueue[];
}

type Attributes = Record<string, unknown>;

/** The single entry of a recorded wildcard read: its MBean name and attributes. */
function onlyEntry(answer: RecordedAnswer, what: string): [string, Attributes] {
  const entries = Object.entries((answer.value ?? {}) as Record<string, Attributes>);
  if (entries.length !== 1)
    throw new Error(`the recording's ${what} read holds ${entries.length} entries, not 1`);
  return entries[0];
}

/** An MBean name with one key's quoted value replaced (`address="x"` → `address="y"`). */
const withKey = (mbean: string, key: string, value: string) =>
  mbean.replace(new RegExp(`([:,]${key}=)"[^"]*"`), `$1${JSON.stringify(value)}`);

/**
 * A fleet of Artemis nodes as the scraper sees them over Jolokia, on one HTTP port: cluster `c`'s
 * node answers on `/c/<c>/console/jolokia`. It answers the scraper's tier-A and tier-B reads with
 * the recorded broker's bodies, copied per queue, and any other request as the broker answers an
 * MBean it does not have (404, counted in `unknown`). Between two queue reads of a node, a share
 * of its queues change (messages added, acknowledged, depth), the rest stay as they were.
 */
export class JolokiaSimulator {
  /** Requests it could not answer as a broker would, by MBean and operation: the bench says so. */
  readonly unknown = new Map<string, number>();
  /** Reads of every queue of a node answered: tier-B ticks. */
  queueReads = 0;
  /** The share of a node's queues whose figures change between two reads of them: set at will. */
  changeShare: number;
  private readonly nodes: SimNode[];
  private readonly random: () => number;
  /** The recorded entries each simulated one is copied from: MBean name and attributes. */
  private readonly templates: Record<'broker' | 'queue' | 'address', [string, Attributes]>;

  private constructor(
    private readonly recording: JolokiaRecording,
    options: SimulatorOptions,
    private readonly server: Server,
  ) {
    this.templates = {
      broker: onlyEntry(recording.broker, 'broker'),
      queue: onlyEntry(recording.queues, 'queue'),
      address: onlyEntry(recording.addresses, 'address'),
    };
    this.random = seeded(options.seed ?? 32);
    this.changeShare = options.changeShare;
    this.nodes = options.clusters.map((cluster, c) => this.node(c, cluster.queues));
    server.on('request', (req, res) => this.serve(req, res));
  }

  static async start(options: SimulatorOptions, recording = jolokiaRecording()): Promise<JolokiaSimulator> {
    const server = createServer();
    // Many clusters on one port: the scraper keeps a connection per node.
    server.maxConnections = 100_000;
    const sim = new JolokiaSimulator(recording, options, server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return sim;
  }

  /** The Jolokia URL of cluster `c`'s node. */
  jolokiaUrl(c: number): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/c/${c}/console/jolokia`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private node(c: number, queues: number): SimNode {
    const node: SimNode = {
      brokerName: `sim-${c}`,
      nodeId: `00000000-0000-4000-8000-${String(c).padStart(12, '0')}`,
      startedAt: Date.now(),
      queues: [],
    };
    for (let q = 0; q < queues; q++) {
      const queue: SimQueue = {
        name: `sim.c${c}.q${q}`,
        messageCount: Math.floor(this.random() * 100),
        messagesAdded: 1000 + q,
        messagesAcknowledged: 1000 + q,
        consumerCount: q % 3,
        queueJson: '',
        addressJson: '',
      };
      this.render(node, queue);
      node.queues.push(queue);
    }
    return node;
  }

  private render(node: SimNode, q: SimQueue): void {
    const [queueMbean, queueAttrs] = this.templates.queue;
    const [addressMbean, addressAttrs] = this.templates.address;
    const named = (mbean: string) => withKey(withKey(mbean, 'broker', node.brokerName), 'address', q.name);
    const queue: Attributes = {
      ...queueAttrs,
      Name: q.name,
      Address: q.name,
      MessageCount: q.messageCount,
      ConsumerCount: q.consumerCount,
      DeliveringCount: Math.min(q.messageCount, q.consumerCount * 10),
      MessagesAdded: q.messagesAdded,
      MessagesAcknowledged: q.messagesAcknowledged,
    };
    q.queueJson = `${JSON.stringify(withKey(named(queueMbean), 'queue', q.name))}:${JSON.stringify(queue)}`;
    const address: Attributes = { ...addressAttrs, Address: q.name, AddressSize: q.messageCount * 1024 };
    q.addressJson = `${JSON.stringify(named(addressMbean))}:${JSON.stringify(address)}`;
  }

  /** The figures a tick changes: messages came and went, and the depth moved. */
  private change(node: SimNode): void {
    const count = node.queues.length;
    const changing = Math.round(count * this.changeShare);
    // A run of distinct queues from a random start: exactly the share, a different part each time.
    const start = Math.floor(this.random() * count);
    for (let i = 0; i < changing; i++) {
      const q = node.queues[(start + i) % count];
      const added = 1 + Math.floor(this.random() * 50);
      q.messagesAdded += added;
      const acked = Math.min(q.messageCount + added, Math.floor(this.random() * 60));
      q.messagesAcknowledged += acked;
      q.messageCount += added - acked;
      this.render(node, q);
    }
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const match = /^\/c\/(\d+)\/console\/jolokia/.exec(req.url ?? '');
    const node = match ? this.nodes[Number(match[1])] : undefined;
    if (!node || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let requests: Attributes[];
      let bulk: boolean;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Attributes | Attributes[];
        bulk = Array.isArray(body);
        requests = Array.isArray(body) ? body : [body];
      } catch {
        res.writeHead(400).end();
        return;
      }
      const answers = requests.map((r) => this.answer(node, r));
      res.writeHead(200, { 'Content-Type': 'text/plain;charset=utf-8' });
      res.end(bulk ? `[${answers.join(',')}]` : answers[0]);
    });
  }

  /** One answer, as JSON: the envelope as the broker sends it, around the simulated value. */
  private answer(node: SimNode, request: Attributes): string {
    const mbean = String(request.mbean ?? '');
    // The recorded envelope as it was (its request echo is this request, as the broker wrote it
    // back), with the value spliced in.
    const envelope = (recorded: RecordedAnswer, value: string) => {
      const { value: _value, ...rest } = recorded;
      return `{"value":${value},${JSON.stringify(rest).slice(1)}`;
    };
    if (request.type === 'read' && mbean === 'org.apache.activemq.artemis:broker=*') {
      const [brokerMbean, attrs] = this.templates.broker;
      const broker = {
        ...attrs,
        Name: node.brokerName,
        NodeID: node.nodeId,
        UptimeMillis: Date.now() - node.startedAt,
      };
      const key = withKey(brokerMbean, 'broker', node.brokerName);
      return envelope(this.recording.broker, `{${JSON.stringify(key)}:${JSON.stringify(broker)}}`);
    }
    const everyQueue =
      'org.apache.activemq.artemis:broker=*,component=addresses,address=*,subcomponent=queues,routing-type=*,queue=*';
    if (request.type === 'read' && mbean === everyQueue) {
      this.queueReads++;
      this.change(node);
      return envelope(this.recording.queues, `{${node.queues.map((q) => q.queueJson).join(',')}}`);
    }
    if (
      request.type === 'read' &&
      mbean === 'org.apache.activemq.artemis:broker=*,component=addresses,address=*'
    )
      return envelope(this.recording.addresses, `{${node.queues.map((q) => q.addressJson).join(',')}}`);
    // The queues of one other address (the ring's read: the rig runs without rings) are none, as
    // on the broker; anything else is not found here, and counted, since the broker has it. The
    // request is echoed as sent: the recording holds no echo of it.
    const what = `${String(request.type)} ${mbean}${request.operation ? ` ${String(request.operation)}` : ''}`;
    if (!(request.type === 'read' && /,address="[^"]*",subcomponent=queues,.*queue=\*$/.test(mbean)))
      this.unknown.set(what, (this.unknown.get(what) ?? 0) + 1);
    return JSON.stringify({ ...this.recording.noMatch, request });
  }
}
