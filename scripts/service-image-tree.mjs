// The files one service runs with, and nothing else: what the Dockerfile copies into that service's
// image (ADR-0030). Run after `npm ci` and `npm run build` in the repository:
//   node scripts/service-image-tree.mjs <scraper|notifier|event-store|gateway> <out>
// <out> then holds services/<name>/{package.json,node-flags,dist}, the gateway's web/dist, and a
// node_modules with exactly the packages the service needs at run time (read from
// package-lock.json: its dependencies, theirs, and so on; the workspace's own libraries as their
// built dist). Left out of every package: sources, type declarations, source maps, docs, and the
// builds Node.js never loads (a browser build, ES-module copies of a CommonJS package).
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { lockOf, runtimeClosure } from './lib/runtime-closure.mjs';

const SERVICES = ['scraper', 'notifier', 'event-store', 'gateway'];
const [service, out] = process.argv.slice(2);
if (!SERVICES.includes(service) || !out) {
  console.error(`usage: node scripts/service-image-tree.mjs <${SERVICES.join('|')}> <out>`);
  process.exit(2);
}
const root = join(import.meta.dirname, '..');
const lock = lockOf(root);

/** Where a lockfile location goes in the image: a workspace library becomes a plain package. */
function target(location) {
  for (const [loc, entry] of Object.entries(lock))
    if (entry.link && (location === entry.resolved || location.startsWith(`${entry.resolved}/`)))
      return entry.resolved.startsWith('services/')
        ? location
        : `${loc}${location.slice(entry.resolved.length)}`;
  return location;
}

const needed = runtimeClosure(lock, `services/${service}`);

/** Directories of a package that Node.js never loads from a CommonJS service. */
const NEVER_LOADED = {
  typeorm: ['browser'],
  rxjs: ['src', 'dist/esm', 'dist/esm5', 'dist/bundles', 'dist/types'],
};
const leftOut = (file) =>
  /\.(map|d\.ts|d\.mts|d\.cts|tsbuildinfo|md|markdown)$/i.test(file) ||
  /^tsconfig.*\.json$/.test(file) ||
  (/\.(ts|mts|cts|tsx)$/.test(file) && !file.endsWith('.d.ts'));

let files = 0;
let bytes = 0;
function copyPackage(location) {
  const from = join(root, location);
  const to = join(out, target(location));
  const name = location.split('node_modules/').pop();
  const skipDirs = new Set((NEVER_LOADED[name] ?? []).map((d) => join(from, d)));
  // A workspace package is its built output and its package.json; nothing of its sources.
  const workspace = !location.includes('node_modules/');
  const walk = (dir) => {
    for (const item of readdirSync(dir)) {
      const path = join(dir, item);
      if (item === 'node_modules' || skipDirs.has(path)) continue;
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (!leftOut(item)) {
        const rel = relative(from, path);
        if (workspace && !(rel === 'package.json' || rel === 'node-flags' || rel.startsWith('dist/')))
          continue;
        mkdirSync(join(to, dirname(rel)), { recursive: true });
        cpSync(path, join(to, rel));
        files++;
        bytes += stat.size;
      }
    }
  };
  walk(from);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const location of needed) copyPackage(location);
if (service === 'gateway') {
  const web = join(root, 'web', 'dist');
  if (!existsSync(join(web, 'index.html'))) throw new Error('web/dist is not built: npm run build first');
  cpSync(web, join(out, 'web', 'dist'), { recursive: true });
}
console.log(
  `${service}: ${needed.size - 1} packages, ${files} files, ${(bytes / 1e6).toFixed(1)} MB (web/dist aside) in ${out}`,
);
