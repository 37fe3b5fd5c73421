import { OperationTimeoutError } from 'rhea-promise';
import { isLibraryCloseTimeout } from './library-close-timeouts';

describe('isLibraryCloseTimeout', () => {
  it("recognises rhea-promise's own close timeouts, as it words them", () => {
    for (const message of [
      'Unable to close the amqp session local-0_remote-0_connection-174 due to operation timeout.',
      "Unable to close the receiver 'r1' on amqp session 'local-0_remote-0_connection-3' due to operation timeout.",
    ])
      expect(isLibraryCloseTimeout(new OperationTimeoutError(message))).toBe(true);
  });

  it('leaves every other rejection to end the process', () => {
    expect(isLibraryCloseTimeout(new OperationTimeoutError('Unable to create the amqp receiver'))).toBe(
      false,
    );
    expect(isLibraryCloseTimeout(new Error('Unable to close the amqp session x'))).toBe(false);
    expect(isLibraryCloseTimeout('Unable to close the amqp session x')).toBe(false);
  });
});
