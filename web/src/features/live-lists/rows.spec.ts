import { describe, expect, it } from 'vitest';
import { linkOf, searchRows, sortRows } from './rows';

const rows = [
  { id: 10, queue: 'orders', session: 's-1' },
  { id: 9, queue: 'Prices', session: 's-2' },
  { id: 100, queue: null, session: 's-3' },
];

describe('live list rows', () => {
  it('finds a row by any field, ignoring case', () => {
    expect(searchRows(rows, 'prices').map((r) => r.id)).toEqual([9]);
    expect(searchRows(rows, 's-3').map((r) => r.id)).toEqual([100]);
    expect(searchRows(rows, '  ')).toHaveLength(3);
  });

  it('sorts numbers as numbers and puts missing values last', () => {
    expect(sortRows(rows, 'id').map((r) => r.id)).toEqual([9, 10, 100]);
    expect(sortRows(rows, 'id', 'desc').map((r) => r.id)).toEqual([100, 10, 9]);
    expect(sortRows(rows, 'queue').map((r) => r.queue)).toEqual(['orders', 'Prices', null]);
  });

  it('links a consumer to its session and queue, a session to its connection', () => {
    expect(linkOf('consumers', 'session', 's-1')).toEqual({ kind: 'sessions', search: 's-1' });
    expect(linkOf('consumers', 'queue', 'orders')).toEqual({ kind: 'queue', search: 'orders' });
    expect(linkOf('sessions', 'connectionID', 'c-1')).toEqual({ kind: 'connections', search: 'c-1' });
    expect(linkOf('consumers', 'user', 'studio')).toBeNull();
  });
});
