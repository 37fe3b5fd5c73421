// The packages a workspace needs at run time, read from package-lock.json: its dependencies,
// theirs, and so on, as npm laid them out (Node.js's resolution, nearest node_modules first).
// Used by the image build (scripts/service-image-tree.mjs) and the image check
// (scripts/containers/image-files.mjs), so both mean the same by "what a service runs with".
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** package-lock.json's packages, by location ("" is the root, "services/gateway" a workspace). */
export const lockOf = (root) => JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;

/** The package name at a lockfile location. */
export const nameAt = (lock, location) =>
  location.includes('node_modules/') ? location.split('node_modules/').pop() : lock[location].name;

/** Node's resolution of `name` from the package at `location`, as the lockfile laid it out. */
function resolve(lock, location, name) {
  for (let dir = location; ; dir = parentOf(dir)) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    const entry = lock[candidate];
    if (entry) return entry.link ? entry.resolved : candidate;
    if (!dir) return null;
  }
}
/** The package directory a location is nested in ("" at the top). */
function parentOf(location) {
  const at = location.lastIndexOf('/node_modules/');
  if (at >= 0) return location.slice(0, at);
  return location.startsWith('node_modules/') || !location.includes('/') ? '' : dirname(location);
}

/** Every lockfile location `workspace` (e.g. "services/scraper") needs at run time, itself included. */
export function runtimeClosure(lock, workspace) {
  const needed = new Set();
  const queue = [workspace];
  while (queue.length) {
    const location = queue.pop();
    if (needed.has(location)) continue;
    needed.add(location);
    const entry = lock[location];
    const peers = Object.keys(entry.peerDependencies ?? {}).filter(
      (p) => !entry.peerDependenciesMeta?.[p]?.optional,
    );
    for (const name of [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...peers,
    ]) {
      const found = resolve(lock, location, name);
      if (found) queue.push(found);
      else if (!entry.optionalDependencies?.[name] && !peers.includes(name))
        throw new Error(`${location} needs ${name}, which the lockfile does not hold`);
    }
  }
  return needed;
}
