// `npm test` (after the build): the machine-readable contracts are generated from the code and
// checked. The gateway's OpenAPI document is rebuilt from the routes it serves and the contracts'
// schemas, linted with Redocly's recommended rules (an error fails the run), and compared with the
// committed docs/openapi.json, which must be regenerated (`--write`) when the API changes.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const gateway = (path) => require(join(root, 'services', 'gateway', 'dist', path));
require('reflect-metadata');
const { GatewayModule } = gateway('app.module.js');
const { declaredRoutes } = gateway('access/route-catalog.js');
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
process.exit(failed ? 1 : 0);
