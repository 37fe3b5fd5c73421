// Lists what is inside one service's image and refuses what only another part of the project
// needs: TypeScript sources, the test harness (libs/testing) and the libraries only it uses, and
// the console's libraries (outside the gateway, which serves the built console).
//   podman run --rm --entrypoint find <image> /app -xdev -not -type d | node scripts/containers/image-files.mjs <service>
import { join } from 'node:path';
import { lockOf, nameAt, runtimeClosure } from '../lib/runtime-closure.mjs';

const service = process.argv[2];
const lock = lockOf(join(import.meta.dirname, '..', '..'));
const namesIn = (workspace) => new Set([...runtimeClosure(lock, workspace)].map((l) => nameAt(lock, l)));
const own = namesIn(`services/${service}`);
// What the console and the test harness bring that this service does not run (zod, say, is
// shared with the console, rhea with the harness: they stay).
const consoleOnly = [...namesIn('web')].filter((name) => !own.has(name));
const testingOnly = [...namesIn('libs/testing')].filter((name) => !own.has(name));

const files = (await new Response(process.stdin).text()).split('\n').filter(Boolean);
const packageDir = (name) => new RegExp(`/node_modules/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/|$)`);
const problems = [];
const source = files.filter(
  (f) => /\.(ts|tsx|mts|cts)$/.test(f) || f.endsWith('tsconfig.json') || f.endsWith('.tsbuildinfo'),
);
if (source.length) problems.push(`TypeScript sources or build files: ${source.slice(0, 5).join(', ')}…`);
if (files.some((f) => f.includes('/libs/testing'))) problems.push('the test harness (libs/testing)');
for (const name of testingOnly)
  if (files.some((f) => packageDir(name).test(f))) problems.push(`the test harness's library ${name}`);
for (const name of consoleOnly)
  if (files.some((f) => packageDir(name).test(f))) problems.push(`the console's library ${name}`);
if (service !== 'gateway') {
  if (files.some((f) => f.startsWith('/app/web/'))) problems.push('the built console (web/dist)');
} else if (!files.includes('/app/web/dist/index.html'))
  problems.push('no built console (web/dist/index.html)');
if (!files.includes(`/app/services/${service}/dist/main.js`))
  problems.push(`no services/${service}/dist/main.js`);

if (problems.length) {
  console.error(`image-files: the ${service} image holds what it must not:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
const packages = new Set(files.map((f) => /\/node_modules\/((@[^/]+\/)?[^/]+)/.exec(f)?.[1]).filter(Boolean));
console.log(
  `image-files: ${service}: ${files.length} files, ${packages.size} packages; no sources, test harness or ` +
    `console libraries (${consoleOnly.length + testingOnly.length} names checked)`,
);
