// `npm test`, after the lint: the project's own lint rules must be able to fail. Each planted case
// below breaks one of them (ADR-0001); linted as if it stood at its path, it must be refused by
// the rule named, and its clean twin accepted. A rule that stops firing (a moved folder, a changed
// selector) fails here instead of letting the layout drift unseen.
import { ESLint } from 'eslint';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

const PLANTED = [
  {
    rule: 'no-restricted-syntax',
    what: 'SQL outside a *Repository or *Queries file',
    path: 'services/gateway/src/queues/planted-queue-lookup.ts',
    code: "export const lookup = (db: { query(t: string): unknown }) => db.query('SELECT 1');\n",
    clean: 'services/gateway/src/queues/planted-queue-lookup.queries.ts',
  },
  {
    rule: 'no-restricted-syntax',
    what: 'a SQL statement in a template outside a *Repository or *Queries file',
    path: 'services/scraper/src/alerting/evaluation/planted-facts.ts',
    code: 'export const statement = `SELECT id FROM alert WHERE cluster_id = $1`;\n',
    clean: 'services/scraper/src/alerting/evaluation/planted-facts.repository.ts',
  },
  {
    rule: 'no-restricted-syntax',
    what: 'a transaction opened in a controller',
    path: 'services/gateway/src/settings/planted.controller.ts',
    code: 'export const change = (db: { transaction(w: () => void): void }) => db.transaction(() => undefined);\n',
    clean: 'services/gateway/src/settings/planted-changes.service.ts',
  },
  {
    rule: 'import-x/no-restricted-paths',
    what: 'one console feature importing another',
    path: 'web/src/features/alerts/components/planted.tsx',
    code: "import { QueuesPage } from '../../queues/components/queues-page';\nexport const page = QueuesPage;\n",
    clean: 'web/src/features/queues/components/planted.tsx',
  },
  {
    rule: 'import-x/no-restricted-paths',
    what: 'a scraper folder importing one above it',
    path: 'services/scraper/src/polling/planted.ts',
    code: "import { AlertingPart } from '../alerting/alerting.part';\nexport const part = AlertingPart;\n",
    clean: 'services/scraper/src/ownership/planted.ts',
    cleanCode:
      "import { CLUSTER_PARTS } from '../cluster-parts/cluster-part';\nexport const token = CLUSTER_PARTS;\n",
  },
  {
    rule: 'import-x/no-restricted-paths',
    what: 'ownership importing a feature',
    path: 'services/scraper/src/ownership/planted.ts',
    code: "import { PollingPart } from '../polling/polling.part';\nexport const part = PollingPart;\n",
  },
];

let failed = false;
const messagesOf = async (code, path) =>
  (await eslint.lintText(code, { filePath: join(root, path) })).flatMap((r) => r.messages);
for (const planted of PLANTED) {
  const refused = (await messagesOf(planted.code, planted.path)).some((m) => m.ruleId === planted.rule);
  if (!refused) {
    failed = true;
    console.error(`lint rules: ${planted.what} (${planted.path}) was not refused by ${planted.rule}`);
  }
  if (planted.clean) {
    const accepted = !(await messagesOf(planted.cleanCode ?? planted.code, planted.clean)).some(
      (m) => m.ruleId === planted.rule,
    );
    if (!accepted) {
      failed = true;
      console.error(`lint rules: ${planted.clean} was refused by ${planted.rule}, where it belongs`);
    }
  }
}
console.log(`lint rules: ${PLANTED.length} planted cases, ${failed ? 'FAILED' : 'each refused'}`);
process.exit(failed ? 1 : 0);
