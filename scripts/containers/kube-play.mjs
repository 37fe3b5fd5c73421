// Turns a rendered kustomization into what `podman kube play` (4.3, Debian 12) runs, and says what
// it leaves to a real cluster:
//   - Deployments and ConfigMaps go in as rendered;
//   - each Secret becomes a podman secret holding what kube play reads from one (a JSON map of
//     key to base64 value; given the Secret itself, podman 4.3 stores its YAML and then cannot
//     read it), with the values the check passes for its keys (KEY=VALUE arguments);
//   - Services, the Ingress, the autoscaler, disruption budgets and network policies have no
//     equivalent in kube play: they are validated against the Kubernetes schemas only
//     (scripts/check-deploy.mjs), and listed here.
//   node scripts/containers/kube-play.mjs <kustomization dir> <out dir> [KEY=VALUE…]
// Writes <out>/play.yaml and <out>/secrets/<name>.json; prints the Deployments' readiness probes
// as "<deployment> <port> <path>" lines for the check to poll, as the kubelet would.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { render } from '../lib/kustomize.mjs';

const [dir, out, ...assignments] = process.argv.slice(2);
const values = Object.fromEntries(
  assignments.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]),
);
const objects = render(dir);
const PLAYED = new Set(['Deployment', 'ConfigMap']);
const base64 = (text) => Buffer.from(text).toString('base64');

mkdirSync(join(out, 'secrets'), { recursive: true });
const secretNames = new Set();
for (const secret of objects.filter((o) => o.kind === 'Secret')) {
  const keys = [...Object.keys(secret.stringData ?? {}), ...Object.keys(secret.data ?? {})];
  const missing = keys.filter((k) => values[k] === undefined);
  if (missing.length)
    throw new Error(`secret ${secret.metadata.name}: no value given for ${missing.join(', ')}`);
  writeFileSync(
    join(out, 'secrets', `${secret.metadata.name}.json`),
    JSON.stringify(Object.fromEntries(keys.map((k) => [k, base64(values[k])]))),
  );
  secretNames.add(secret.metadata.name);
}
// Secrets the Deployments name but the manifests leave to the operator (the gateway's own).
for (const deployment of objects.filter((o) => o.kind === 'Deployment'))
  for (const from of deployment.spec.template.spec.containers.flatMap((c) => c.envFrom ?? []))
    if (from.secretRef && !secretNames.has(from.secretRef.name)) {
      const own = Object.entries(values).filter(([k]) => k.startsWith(`${from.secretRef.name}:`));
      writeFileSync(
        join(out, 'secrets', `${from.secretRef.name}.json`),
        JSON.stringify(Object.fromEntries(own.map(([k, v]) => [k.split(':')[1], base64(v)]))),
      );
      secretNames.add(from.secretRef.name);
    }

writeFileSync(
  join(out, 'play.yaml'),
  objects
    .filter((o) => PLAYED.has(o.kind))
    .map((o) => stringify(o))
    .join('---\n'),
);
const validatedOnly = objects.filter((o) => !PLAYED.has(o.kind) && o.kind !== 'Secret');
console.error(
  `kube-play: runs ${objects.filter((o) => PLAYED.has(o.kind)).length} objects (Deployments, ConfigMaps) and ` +
    `${secretNames.size} secrets; validated only: ${[...new Set(validatedOnly.map((o) => o.kind))].join(', ')}`,
);
for (const deployment of objects.filter((o) => o.kind === 'Deployment')) {
  const { httpGet } = deployment.spec.template.spec.containers[0].readinessProbe;
  console.log(`${deployment.metadata.name} ${httpGet.port} ${httpGet.path}`);
}
