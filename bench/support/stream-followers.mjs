// Followers for the fault suite: N clients each following one cluster's `events` stream as the
// console does. On every end or error a client reconnects after the stream's `retry` (1 s) with
// Last-Event-ID, so what a replica's death, a restart or an outage costs shows here: duplicates
// (a seq received twice), gaps (a stored seq never received), announced gaps (`replay-gap`),
// silence (the longest time without any frame, pings included), and events received after a
// later one (out of order).
//
// argv: url, count, JSON headers. Parent messages:
//   {type:'phase', name}  a new phase: silences and duplicates are counted afresh for it
//   {type:'mark', at}     recovery is timed from `at` (epoch ms) to each client's first event caused after it
//   {type:'status'}       -> {type:'status', open, lastIds:{min,max}, recovered, recoveryMs, refusals}
//   {type:'check', phases:[{name, seqs}]} -> {type:'check', phases:[...]} (see check() below)
import http from 'node:http';

const [url, countArg, headersArg = '{}'] = process.argv.slice(2);
const headers = JSON.parse(headersArg);
const count = Number(countArg);
const RETRY_MS = 1000;
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

let phase = 'start';
let mark = null;

class Follower {
  /** Received seqs as sorted, disjoint [lo, hi] runs: a stream is in order, so this stays short. */
  runs = [];
  lastId = null;
  open = false;
  lastFrameAt = Date.now();
  /** Per phase: longest silence, duplicates, announced gaps. */
  phases = new Map();
  firstAfterMark = null;
  refusals = 0;
  /** The seqs the stream said it would not send ([from, to]; `to` null until the next event). */
  told = [];

  stats() {
    let s = this.phases.get(phase);
    if (!s)
      this.phases.set(phase, (s = { silenceMs: 0, duplicates: 0, gaps: [], reconnects: 0, outOfOrder: 0 }));
    return s;
  }

  heard() {
    const now = Date.now();
    const s = this.stats();
    s.silenceMs = Math.max(s.silenceMs, now - this.lastFrameAt);
    this.lastFrameAt = now;
  }

  has(seq) {
    let lo = 0;
    let hi = this.runs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [a, b] = this.runs[mid];
      if (seq < a) hi = mid - 1;
      else if (seq > b) lo = mid + 1;
      else return true;
    }
    return false;
  }

  add(seq) {
    const last = this.runs.at(-1);
    if (last && seq === last[1] + 1) last[1] = seq;
    else if (!last || seq > last[1]) this.runs.push([seq, seq]);
    else {
      // Out of order: only after a replay-cap gap or a bug; kept exact all the same.
      this.runs.push([seq, seq]);
      this.runs.sort((x, y) => x[0] - y[0]);
    }
  }

  onEvent(seq, block) {
    const open = this.told.at(-1);
    if (open && open[1] === null) open[1] = seq - 1;
    if (this.has(seq)) this.stats().duplicates++;
    else {
      if (this.lastId !== null && seq < this.lastId) this.stats().outOfOrder++;
      this.add(seq);
    }
    this.lastId = Math.max(this.lastId ?? 0, seq);
    if (mark !== null && this.firstAfterMark === null) {
      const at = block.indexOf('"brokerTs":"');
      if (at >= 0 && Date.parse(block.slice(at + 12, at + 36)) >= mark) this.firstAfterMark = Date.now();
    }
  }

  connect() {
    const h = { ...headers, Accept: 'text/event-stream' };
    if (this.lastId !== null) h['Last-Event-ID'] = String(this.lastId);
    const req = http.get(url, { agent, headers: h }, (res) => {
      if (res.statusCode !== 200) {
        this.refusals++;
        res.resume();
        res.on('end', () => this.again());
        return;
      }
      this.open = true;
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        this.heard();
        pending += chunk;
        let cut;
        while ((cut = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          if (block.startsWith('id: ')) {
            this.onEvent(Number(block.slice(4, block.indexOf('\n'))), block);
          } else if (block.includes('event: replay-gap\n')) {
            const data = JSON.parse(block.slice(block.indexOf('data: ') + 6));
            this.stats().gaps.push({ reason: data.reason, missed: data.missed });
            // What it covers: from after the cursor to before the first event sent after it.
            this.told.push([data.lastEventId + 1, data.replayFrom === null ? null : data.replayFrom - 1]);
          }
        }
      });
      res.on('close', () => this.again());
      res.on('error', () => undefined);
    });
    req.on('error', () => this.again());
  }

  again() {
    if (this.retrying) return;
    this.retrying = true;
    this.open = false;
    this.stats().reconnects++;
    setTimeout(() => {
      this.retrying = false;
      this.connect();
    }, RETRY_MS);
  }

  /** Which of `seqs` (sorted) this follower never received. */
  missing(seqs) {
    const missed = [];
    let r = 0;
    for (const seq of seqs) {
      while (r < this.runs.length && this.runs[r][1] < seq) r++;
      if (r >= this.runs.length || this.runs[r][0] > seq) missed.push(seq);
    }
    return missed;
  }

  /** Whether a gap frame covered `seq`. */
  wasTold(seq) {
    return this.told.some(([from, to]) => seq >= from && (to === null || seq <= to));
  }
}

const followers = Array.from({ length: count }, () => new Follower());
for (let i = 0; i < followers.length; i += 50) {
  for (const f of followers.slice(i, i + 50)) f.connect();
  await new Promise((r) => setTimeout(r, 100));
}

function status() {
  const lastIds = followers.map((f) => f.lastId ?? 0);
  const recovered = followers.filter((f) => f.firstAfterMark !== null);
  return {
    type: 'status',
    open: followers.filter((f) => f.open).length,
    lastIds: { min: Math.min(...lastIds), max: Math.max(...lastIds) },
    recovered: recovered.length,
    recoveryMs:
      mark === null || recovered.length === 0
        ? null
        : Math.max(...recovered.map((f) => f.firstAfterMark - mark)),
    refusals: followers.reduce((n, f) => n + f.refusals, 0),
  };
}

/**
 * For each phase and its stored seqs: clients with every seq, clients missing only seqs a
 * replay-gap frame covered (told, in whichever phase the frame came), clients missing some untold, the seqs missed in all,
 * duplicates delivered, the longest silence, reconnects, events out of order and gap frames (with
 * their reasons).
 */
function check(phases) {
  return phases.map(({ name, seqs }) => {
    let complete = 0;
    let toldOfGap = 0;
    let untold = 0;
    let missed = 0;
    let duplicates = 0;
    let silenceMs = 0;
    let reconnects = 0;
    let outOfOrder = 0;
    let gapFrames = 0;
    /** The gap frames by the reason they gave (`replay-cap`, `history-unavailable`). */
    const gapReasons = {};
    /** What the first follower missing seqs untold missed: where to look in the services' logs. */
    let untoldSample = null;
    for (const f of followers) {
      const s = f.phases.get(name) ?? { silenceMs: 0, duplicates: 0, gaps: [], reconnects: 0, outOfOrder: 0 };
      const lacking = f.missing(seqs);
      const m = lacking.length;
      missed += m;
      duplicates += s.duplicates;
      silenceMs = Math.max(silenceMs, s.silenceMs);
      reconnects += s.reconnects;
      outOfOrder += s.outOfOrder;
      gapFrames += s.gaps.length;
      for (const gap of s.gaps) gapReasons[gap.reason] = (gapReasons[gap.reason] ?? 0) + 1;
      if (m === 0) complete++;
      else if (lacking.every((seq) => f.wasTold(seq))) toldOfGap++;
      else {
        untold++;
        const untoldSeqs = lacking.filter((seq) => !f.wasTold(seq));
        untoldSample ??= {
          count: untoldSeqs.length,
          first: untoldSeqs.slice(0, 10),
          last: untoldSeqs.at(-1),
          told: f.told,
          reconnects: s.reconnects,
        };
      }
    }
    return {
      name,
      complete,
      toldOfGap,
      untold,
      missed,
      duplicates,
      silenceMs,
      reconnects,
      outOfOrder,
      gapFrames,
      gapReasons,
      untoldSample,
    };
  });
}

process.on('message', (message) => {
  if (message.type === 'phase') {
    for (const f of followers) f.heard();
    phase = message.name;
  } else if (message.type === 'mark') {
    mark = message.at;
    for (const f of followers) f.firstAfterMark = null;
  } else if (message.type === 'status') {
    process.send(status());
  } else if (message.type === 'check') {
    for (const f of followers) f.heard();
    process.send({ type: 'check', phases: check(message.phases) });
  }
});
process.send({ type: 'ready' });
