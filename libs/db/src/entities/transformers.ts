import type { ValueTransformer } from 'typeorm';

/** pg returns bigint as a string; our values (counts, seq, ms) stay well inside 2^53. */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
