import { Filters, pageBefore, type Sql } from './typed-rows';

/** Records the statement it is given and answers with the rows it was told to. */
const sqlAnswering = (rows: { seq: string }[]) => {
  const seen: { text: string; params: unknown[] }[] = [];
  const sql: Sql = {
    query: (async (text: string, params: unknown[]) => {
      seen.push({ text, params });
      return rows;
    }) as Sql['query'],
  };
  return { sql, seen };
};

describe('Filters', () => {
  it('numbers each given condition in turn and leaves out those without a value', () => {
    const sut = new Filters().add('a = ?', 1).add('b = ?', undefined).add('c = ?', '').add('d < ?', 'x');
    expect(sut.where).toBe('WHERE a = $1 AND d < $2');
    expect(sut.params).toEqual([1, 'x']);
    expect(sut.param(10)).toBe('$3');
  });

  it('is no clause at all when nothing filters', () => {
    expect(new Filters().add('a = ?', null).where).toBe('');
  });
});

describe('pageBefore', () => {
  it('reads one row more than the page to know whether another follows, below the cursor', async () => {
    const { sql, seen } = sqlAnswering([{ seq: '9' }, { seq: '8' }, { seq: '7' }]);
    const page = await pageBefore(sql, 'audit_event', new Filters().add('action = ?', 'x'), {
      before: 10,
      limit: 2,
    });
    expect(seen[0]).toEqual({
      text: 'SELECT * FROM audit_event WHERE action = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3',
      params: ['x', 10, 3],
    });
    expect(page).toEqual({ rows: [{ seq: '9' }, { seq: '8' }], nextBefore: 8 });
  });

  it('has no next page when the table gave no more than asked', async () => {
    const { sql } = sqlAnswering([{ seq: '3' }]);
    expect(await pageBefore(sql, 'broker_event', new Filters(), { limit: 2 })).toEqual({
      rows: [{ seq: '3' }],
      nextBefore: null,
    });
  });
});
