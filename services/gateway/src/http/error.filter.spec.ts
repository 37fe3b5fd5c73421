import { describeFailure } from './error.filter';

describe('describeFailure', () => {
  it.each([
    ['connect ECONNREFUSED 127.0.0.1:5432'],
    ['read ECONNRESET'],
    ['Connection terminated unexpectedly'],
    ['timeout exceeded when trying to connect'],
  ])('tells a client PostgreSQL is away (503, retry) when it says "%s"', (message) => {
    expect(describeFailure(new Error(message))).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
  });

  it('keeps anything else a 500 that says nothing of the cause', () => {
    expect(describeFailure(new Error('Cannot read properties of undefined'))).toEqual({
      status: 500,
      code: 'INTERNAL',
      message: 'internal error',
    });
  });
});
