/**
 * What bench/support/stream-followers.mjs answers to `check`, per phase: clients with every stored
 * seq, clients missing only seqs a replay-gap frame covered (told), clients missing some untold, the
 * seqs missed in all, duplicates delivered, the longest silence, reconnects, events delivered after
 * a later one, and the replay-gap frames received.
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
}
