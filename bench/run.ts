/**
 * `npm run bench -- <name>`: runs bench/<name>.bench.ts; without a name, lists them.
 * Each benchmark prints its figures and the ratio to a baseline measured in the same run.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const available = readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace('.bench.ts', ''));
const name = process.argv[2];
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}>`);
  process.exit(2);
}
/** An error's message on one line (a compile error's spans several), bounded. */
const oneLine = (err: unknown) =>
  String((err as Error)?.message ?? err)
    .replace(/\s*\n\s*/g, ' ')
    .slice(0, 300);

// A benchmark that cannot even load (a compile error) fails with its cause in one line too.
import(join(__dirname, `${name}.bench.ts`)).catch((err: unknown) => {
  console.error(`bench ${name} failed: ${oneLine(err)}`);
  console.error(err);
  process.exit(1);
});
