// The kustomize features the manifests use (resources, namespace, images, JSON 6902 patches),
// rendered in plain JavaScript: no kubectl is needed to read what an overlay makes. Used by
// scripts/check-deploy.mjs (which checks it renders as `kubectl kustomize` does, where kubectl is
// installed) and by the kube play check (scripts/containers/check-kube-play.sh).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

function applyJsonPatch(object, operations) {
  for (const { op, path, value } of operations) {
    const keys = path
      .split('/')
      .slice(1)
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop();
    let parent = object;
    for (const key of keys) parent = parent[Array.isArray(parent) ? Number(key) : key];
    if (op === 'remove' && Array.isArray(parent)) parent.splice(Number(last), 1);
    else if (op === 'remove') delete parent[last];
    else if (Array.isArray(parent) && last === '-') parent.push(value);
    else if (Array.isArray(parent) && op === 'add') parent.splice(Number(last), 0, value);
    else if (op === 'add' || op === 'replace') parent[Array.isArray(parent) ? Number(last) : last] = value;
    else throw new Error(`patch op ${op} is not supported by this renderer`);
  }
}

function podSpecs(object) {
  const spec = object.spec?.template?.spec;
  return spec ? [spec] : [];
}

/** The objects the kustomization in `dir` makes. */
export function render(dir) {
  const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'));
  const objects = kustomization.resources.flatMap((resource) => {
    const path = join(dir, resource);
    if (statSync(path).isDirectory()) return render(path);
    return parseAllDocuments(readFileSync(path, 'utf8')).map((d) => {
      if (d.errors.length) throw new Error(`${path}: ${d.errors[0].message}`);
      return d.toJSON();
    });
  });
  for (const object of objects) {
    if (kustomization.namespace) object.metadata.namespace = kustomization.namespace;
    for (const image of kustomization.images ?? [])
      for (const spec of podSpecs(object))
        for (const container of spec.containers ?? [])
          if (container.image.split(':')[0] === image.name)
            container.image = `${image.newName ?? image.name}:${image.newTag ?? container.image.split(':')[1]}`;
    for (const { target, patch } of kustomization.patches ?? [])
      if (object.kind === target.kind && object.metadata.name === target.name)
        applyJsonPatch(object, parse(patch));
  }
  return objects;
}
