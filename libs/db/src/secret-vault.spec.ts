import { randomBytes, randomUUID } from 'node:crypto';
import { SecretVault, SecretVaultError } from './secret-vault';

describe('SecretVault', () => {
  const clusterId = randomUUID();
  const sut = new SecretVault(randomBytes(32));

  it('round-trips a secret and never stores it in the clear', () => {
    const sealed = sut.seal('s3cr3t-password', clusterId, 'JOLOKIA');
    expect(sealed.includes(Buffer.from('s3cr3t-password'))).toBe(false);
    expect(sut.open(sealed, clusterId, 'JOLOKIA')).toBe('s3cr3t-password');
  });

  it('seals the same secret differently each time', () => {
    expect(sut.seal('x', clusterId, 'AMQP').equals(sut.seal('x', clusterId, 'AMQP'))).toBe(false);
  });

  it('fails loudly with another key', () => {
    const sealed = sut.seal('secret', clusterId, 'JOLOKIA');
    expect(() => new SecretVault(randomBytes(32)).open(sealed, clusterId, 'JOLOKIA')).toThrow(
      SecretVaultError,
    );
  });

  it('fails loudly when opened for another cluster or kind (AAD)', () => {
    const sealed = sut.seal('secret', clusterId, 'JOLOKIA');
    expect(() => sut.open(sealed, randomUUID(), 'JOLOKIA')).toThrow(/sealed for another cluster or kind/);
    expect(() => sut.open(sealed, clusterId, 'AMQP')).toThrow(SecretVaultError);
  });

  it('fails loudly on a tampered ciphertext, tag or version', () => {
    const sealed = sut.seal('secret', clusterId, 'JOLOKIA');
    for (const index of [sealed.length - 1, 1 + 12, 0]) {
      const tampered = Buffer.from(sealed);
      tampered[index] ^= 0x01;
      expect(() => sut.open(tampered, clusterId, 'JOLOKIA')).toThrow(SecretVaultError);
    }
  });

  it('rejects a key of the wrong size and a missing key', () => {
    expect(() => new SecretVault(randomBytes(16))).toThrow(/32 bytes/);
    expect(() => SecretVault.fromBase64(undefined)).toThrow(/STUDIO_SECRET_KEY/);
  });
});
