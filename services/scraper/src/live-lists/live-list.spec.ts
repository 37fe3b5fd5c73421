import { liveListRequest, mergePage, parseNodeList } from './live-list';

describe('live lists', () => {
  const list = (node: string, n: number, count = n) => ({
    node,
    count,
    items: Array.from({ length: n }, (_, i) => ({ id: `${node}${i}`, node })),
  });

  it('asks each node for enough items to cut the requested page', () => {
    expect(liveListRequest('b1', 'consumers', 3, 20)).toEqual({
      type: 'exec',
      mbean: 'org.apache.activemq.artemis:broker="b1"',
      operation: 'listConsumers(java.lang.String,int,int)',
      arguments: ['', 1, 60],
    });
  });

  it('parses the JSON string inside value and tags every item with its node', () => {
    const answer = { status: 200, value: JSON.stringify({ data: [{ consumerID: '1' }], count: 1 }) };
    expect(parseNodeList('a', answer)).toEqual({
      node: 'a',
      count: 1,
      items: [{ consumerID: '1', node: 'a' }],
    });
    expect(() => parseNodeList('a', { status: 400, error: 'no such operation' })).toThrow(
      'no such operation',
    );
  });

  it('pages across nodes in node order', () => {
    const lists = [list('a', 3), list('b', 4)];
    expect(mergePage(lists, [], 1, 2).items.map((i) => i.id)).toEqual(['a0', 'a1']);
    expect(mergePage(lists, [], 2, 2).items.map((i) => i.id)).toEqual(['a2', 'b0']);
    expect(mergePage(lists, [], 4, 2).items.map((i) => i.id)).toEqual(['b3']);
    expect(mergePage(lists, [], 5, 2)).toMatchObject({ items: [], total: 7, partial: false });
  });

  it('flags a partial result with each failed node and its reason', () => {
    const page = mergePage([list('a', 1)], [{ node: 'b', reason: 'ECONNREFUSED' }], 1, 10);
    expect(page).toMatchObject({
      total: 1,
      partial: true,
      nodeErrors: [{ node: 'b', reason: 'ECONNREFUSED' }],
    });
  });
});
