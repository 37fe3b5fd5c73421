import { EXPORT_FORMAT, IMPORT_LINE_MAX_BYTES, importLineProblem } from './message-export';

const line = (body: object, over: object = {}) =>
  JSON.stringify({
    format: EXPORT_FORMAT,
    source: { clusterId: '00000000-0000-4000-8000-000000000001', node: 'a', queue: 'orders' },
    durable: true,
    priority: 4,
    messageId: null,
    correlationId: null,
    subject: null,
    replyTo: null,
    contentType: null,
    groupId: null,
    createdAt: null,
    expiresAt: null,
    properties: [{ name: 'n', type: 'int', value: '3' }],
    annotations: {},
    body: { encoding: 'text', data: 'hello', truncated: false, masked: null, ...body },
    ...over,
  });

describe("an import's line", () => {
  it('is taken when it is an exported message with its whole body', () => {
    expect(importLineProblem(line({}))).toEqual({ message: JSON.parse(line({})) });
  });

  it.each([
    ['{"not json', 'not JSON'],
    [line({}, { format: 'something else' }), 'not an exported message (format:'],
    [line({ truncated: true }), 'its body was cut at export'],
    [line({ masked: 'masked' }), 'its body was masked at export'],
    [line({ data: null, masked: 'withheld' }), 'its body was withheld by masking'],
    [line({ data: 'x'.repeat(IMPORT_LINE_MAX_BYTES) }), 'larger than 640 kB'],
  ])('is refused, saying why: %#', (text, problem) => {
    const checked = importLineProblem(text);
    expect('problem' in checked && checked.problem).toContain(problem);
  });
});
