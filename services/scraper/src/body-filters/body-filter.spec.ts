import { compileBodyFilter, type BodyVerdict, type ReadMessage } from './body-filter';

const json = (value: unknown): ReadMessage => ({ body: JSON.stringify(value) });
const verdict = (match: 'cel' | 'text' | 'regex', expression: string, message: ReadMessage): BodyVerdict =>
  compileBodyFilter({ match, expression })(message);

describe('compileBodyFilter', () => {
  const order = json({ status: 'REJECTED', amount: 150, lines: [{ sku: 'A-1' }, { sku: 'B-2' }] });

  it('reads a JSON body as a CEL map, fields, numbers and lists included', () => {
    expect(verdict('cel', 'body.status == "REJECTED"', order)).toBe(true);
    expect(verdict('cel', 'body.status == "ACCEPTED"', order)).toBe(false);
    expect(verdict('cel', 'body.amount > 100 && body.amount == 150', order)).toBe(true);
    expect(verdict('cel', 'body.lines.exists(l, l.sku.startsWith("B-"))', order)).toBe(true);
  });

  it('reads the application properties beside the body', () => {
    const message = { body: '{}', application_properties: { region: 'eu', attempts: 3 } };
    expect(verdict('cel', 'properties.region == "eu" && properties.attempts >= 3', message)).toBe(true);
  });

  it('gives CEL the text of a body that is not JSON, and the bytes of a data section as UTF-8', () => {
    expect(verdict('cel', 'body.contains("timeout")', { body: 'connect timeout after 30s' })).toBe(true);
    const section = { typecode: 0x75, content: Buffer.from('{"status":"REJECTED"}') };
    expect(verdict('cel', 'body.status == "REJECTED"', { body: section })).toBe(true);
  });

  it('says why a message could not be read rather than matching it', () => {
    expect(verdict('cel', 'body.missing == 1', order)).toEqual({ failed: expect.stringMatching(/missing/) });
    expect(verdict('cel', 'body.amount', order)).toEqual({
      failed: expect.stringMatching(/not true or false/),
    });
    expect(verdict('cel', 'has(body.missing) && body.missing == 1', order)).toBe(false);
  });

  it('refuses an expression that does not parse, with where it stopped', () => {
    expect(() => compileBodyFilter({ match: 'cel', expression: 'body.status ==' })).toThrow(
      /body filter:.*1:/,
    );
    expect(() => compileBodyFilter({ match: 'regex', expression: '(unclosed' })).toThrow(/body filter/);
  });

  it('matches text as a substring and a regex as RE2, case as written', () => {
    expect(verdict('text', 'REJECTED', order)).toBe(true);
    expect(verdict('text', 'rejected', order)).toBe(false);
    expect(verdict('regex', '"sku":"B-\\d"', order)).toBe(true);
    expect(verdict('regex', '(?i)rejected', order)).toBe(true);
  });

  it('reads each message as the masking rules let the person asking see it', () => {
    const masking = { properties: ['email'], bodyPaths: ['$.card'] };
    const message = {
      body: '{"card":"4111 1111","status":"OK"}',
      application_properties: { email: 'a@b.c' },
    };
    const sees = (match: 'cel' | 'text', expression: string, m: ReadMessage = message) =>
      compileBodyFilter({ match, expression }, masking)(m);
    expect(sees('cel', 'body.card.startsWith("4")')).toBe(false);
    expect(sees('cel', 'body.card == "***" && body.status == "OK"')).toBe(true);
    expect(sees('cel', 'properties.email == "a@b.c"')).toBe(false);
    expect(sees('text', '4111')).toBe(false);
    // A body the paths cannot be applied to is withheld, as a browse withholds it.
    expect(sees('text', 'secret', { body: 'not json: secret' })).toBe(false);
    expect(compileBodyFilter({ match: 'text', expression: '4111' })(message)).toBe(true);
  });

  it('reads a catastrophic pattern in linear time (RE2: no backtracking)', () => {
    const started = Date.now();
    expect(verdict('regex', '^(a+)+$', { body: `${'a'.repeat(50_000)}!` })).toBe(false);
    // A backtracking engine takes longer than the age of the universe here; RE2 is linear.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
