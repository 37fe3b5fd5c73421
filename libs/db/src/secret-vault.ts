import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CredentialKind } from './entities';

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** What a sealed value is: a cluster's broker credential, or an alert receiver's secret. */
export type SealedKind = CredentialKind | 'RECEIVER';

export class SecretVaultError extends Error {
  override name = 'SecretVaultError';
}

/**
 * Seals cluster credentials (and alert receivers' secrets) with AES-256-GCM. The additional
 * authenticated data binds a sealed value to its row ("clusterId|KIND", "receiverId|RECEIVER"), so a credential copied onto another cluster or kind fails
 * to open instead of quietly authenticating somewhere else.
 *
 * Layout: version (1) | iv (12) | tag (16) | ciphertext.
 */
export class SecretVault {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES)
      throw new SecretVaultError(`the vault key must be ${KEY_BYTES} bytes, got ${key.length}`);
    this.key = key;
  }

  /** Reads a base64 key (32 bytes once decoded), as set in STUDIO_SECRET_KEY. */
  static fromBase64(encoded: string | undefined): SecretVault {
    if (!encoded) throw new SecretVaultError('STUDIO_SECRET_KEY is not set (32 random bytes, base64)');
    return new SecretVault(Buffer.from(encoded, 'base64'));
  }

  seal(plaintext: string, clusterId: string, kind: SealedKind): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(clusterId, kind));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.of(FORMAT_VERSION), iv, cipher.getAuthTag(), ciphertext]);
  }

  open(sealed: Buffer, clusterId: string, kind: SealedKind): string {
    if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== FORMAT_VERSION) {
      throw new SecretVaultError(
        `sealed ${kind} credential of cluster ${clusterId} is not in a known format`,
      );
    }
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(aad(clusterId, kind));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([
        decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretVaultError(
        `cannot open the ${kind} credential of cluster ${clusterId}: wrong key, or sealed for another cluster or kind`,
      );
    }
  }
}

function aad(clusterId: string, kind: SealedKind): Buffer {
  return Buffer.from(`${clusterId}|${kind}`, 'utf8');
}
