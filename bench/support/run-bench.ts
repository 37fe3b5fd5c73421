import { basename } from 'node:path';

/**
 * Runs a benchmark's `main`, and when it fails, exits non-zero with the cause in one line first
 * (`bench console-queues failed: JolokiaError: unexpected answer …`), then the stack for whoever
 * digs further: a loop over every benchmark reads the first line.
 */
export function runBench(file: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    const cause = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    console.error(
      `bench ${basename(file, '.bench.ts')} failed: ${cause.replace(/\s*\n\s*/g, ' ').slice(0, 300)}`,
    );
    console.error(err);
    process.exit(1);
  });
}
