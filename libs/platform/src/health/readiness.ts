import { withTimeout } from '@artemis-studio/timing';
/** One dependency's answer to "can this service do its work now?". */
export interface ReadinessCheck {
  readonly name: string;
  check(): Promise<{ ok: boolean; detail: string }>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, { ok: boolean; detail: string }>;
}

/** Runs every check at once, each bounded, so one hung dependency cannot hang the probe. */
export async function assessReadiness(
  checks: readonly ReadinessCheck[],
  timeoutMs = 2000,
): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(async (c) => {
      try {
        const result = await withTimeout(c.check(), timeoutMs, () => ({
          ok: false,
          detail: `no answer within ${timeoutMs} ms`,
        }));
        return [c.name, result] as const;
      } catch (err) {
        return [c.name, { ok: false, detail: (err as Error).message }] as const;
      }
    }),
  );
  const report = Object.fromEntries(results);
  return { ready: results.every(([, r]) => r.ok), checks: report };
}
