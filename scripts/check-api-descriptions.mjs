// `npm test` (after the build): the machine-readable contracts are generated from the code and
// checked. The gateway's OpenAPI document is rebuilt from the routes it serves and the contracts'
// schemas, linted with Redocly's recommended rules (an error fails the run), and compared with the
// committed docs/openapi.json; the NATS contract's AsyncAPI document is rebuilt from
// libs/contracts, validated with @asyncapi/parser and compared with docs/asyncapi.yaml. Both
// committed copies are regenerated with `--write` when the contracts change.
import { Parser } from '@asyncapi/parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { asyncApiDocument } from './asyncapi-document.mjs';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const gateway = (path) => require(join(root, 'services', 'gateway', 'dist', path));
require('reflect-metadata');
const { GatewayModule } = gateway('app.module.js');
const { declaredRoutes } = gateway('http/route-catalog.js');
const { openApiDocument, API_VERSION } = gateway('openapi/openapi-document.js');

const config = await createConfig({ extends: ['recommended'] });
const errorsIn = async (document) =>
  (await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config })).filter(
    (p) => p.severity === 'error',
  );

const document = openApiDocument(declaredRoutes(GatewayModule), API_VERSION);
let failed = false;
for (const problem of await errorsIn(document)) {
  failed = true;
  console.error(`openapi: ${problem.ruleId}: ${problem.message} at ${problem.location?.[0]?.pointer ?? '?'}`);
}
// The linter must be able to fail: a document with a broken reference is refused.
const broken = structuredClone(document);
broken.components.schemas = {};
if ((await errorsIn(broken)).length === 0) {
  console.error('openapi: the linter accepted a broken document; the check itself is broken');
  failed = true;
}

const committed = join(root, 'docs', 'openapi.json');
const generated = `${JSON.stringify(document, null, 2)}\n`;
if (process.argv.includes('--write')) writeFileSync(committed, generated);
else if (readFileSync(committed, 'utf8') !== generated) {
  console.error(
    'openapi: docs/openapi.json is out of date: run node scripts/check-api-descriptions.mjs --write',
  );
  failed = true;
}
console.log(
  `openapi: ${Object.keys(document.paths).length} paths, ${failed ? 'FAILED' : 'valid and up to date'}`,
);
// ---- AsyncAPI.
const parser = new Parser();
const asyncErrors = async (doc) => (await parser.validate(doc)).filter((d) => d.severity === 0);
const asyncDocument = asyncApiDocument();
let asyncFailed = false;
for (const d of await asyncErrors(asyncDocument)) {
  asyncFailed = true;
  console.error(`asyncapi: ${d.message} at /${d.path.join('/')}`);
}
const brokenAsync = structuredClone(asyncDocument);
brokenAsync.operations.signal.channel = { $ref: '#/channels/nowhere' };
if ((await asyncErrors(brokenAsync)).length === 0) {
  console.error('asyncapi: the parser accepted a broken document; the check itself is broken');
  asyncFailed = true;
}
const committedAsync = join(root, 'docs', 'asyncapi.yaml');
const generatedAsync = `# Generated from libs/contracts by scripts/check-api-descriptions.mjs --write: do not edit.\n${stringify(asyncDocument, { lineWidth: 0 })}`;
if (process.argv.includes('--write')) writeFileSync(committedAsync, generatedAsync);
else if (readFileSync(committedAsync, 'utf8') !== generatedAsync) {
  console.error(
    'asyncapi: docs/asyncapi.yaml is out of date: run node scripts/check-api-descriptions.mjs --write',
  );
  asyncFailed = true;
}
console.log(
  `asyncapi: ${Object.keys(asyncDocument.channels).length} channels, ${asyncFailed ? 'FAILED' : 'valid and up to date'}`,
);
process.exit(failed || asyncFailed ? 1 : 0);
