import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { killOnExit } from '@artemis-studio/testing';
import { once } from './sse-load-process';

/** What bench/support/stream-followers.mjs answers to `status`. */
export interface FollowerStatus {
  open: number;
  lastIds: { min: number; max: number };
  recovered: number;
  recoveryMs: number | null;
  refusals: number;
}

/**
 * What bench/support/stream-followers.mjs answers to `check`, per phase: clients with every stored
 * seq, clients missing only seqs a replay-gap frame covered (told), clients missing some untold, the
 * seqs missed in all, duplicates delivered, the longest silence, reconnects, events delivered after
 * a later one, and the replay-gap frames received (with their reasons).
 */
export interface PhaseCheck {
  name: string;
  complete: number;
  toldOfGap: number;
  untold: number;
  missed: number;
  duplicates: number;
  silenceMs: number;
  reconnects: number;
  outOfOrder: number;
  gapFrames: number;
  /** The gap frames by the reason they gave. */
  gapReasons: Record<string, number>;
  /** The first follower missing seqs untold: how many, the first and last, the gaps it was told of. */
  untoldSample: {
    count: number;
    first: number[];
    last: number;
    told: [number, number | null][];
    reconnects: number;
  } | null;
}

/** `count` followers of `streamUrl` in a process of their own (stream-followers.mjs), once all are open. */
export async function openFollowers(streamUrl: string, count: number, headers: Record<string, string>) {
  const process: ChildProcess = killOnExit(
    fork(join(__dirname, 'stream-followers.mjs'), [streamUrl, String(count), JSON.stringify(headers)], {
      stdio: 'inherit',
    }),
  );
  await once(process, 'ready');
  const status = async () => {
    process.send({ type: 'status' });
    return once<FollowerStatus>(process, 'status');
  };
  while ((await status()).open < count) await new Promise((r) => setTimeout(r, 500));
  return {
    process,
    status,
    /** Each phase's stored seqs against what every follower received. */
    check: async (phases: { name: string; seqs: number[] }[]) => {
      process.send({ type: 'check', phases });
      return (await once<{ phases: PhaseCheck[] }>(process, 'check')).phases;
    },
  };
}
