import { ClusterOwnerEnvSchema, parseEnv } from '@artemis-studio/platform';
import { z } from 'zod';

export const NotifierEnvSchema = ClusterOwnerEnvSchema.extend({
  /** Events waiting for NATS; past this they are dropped and counted per cluster. */
  NOTIFIER_BUFFER_SIZE: z.coerce.number().int().min(1).default(10_000),
  /** AMQP credit per subscription: how much a broker may push before we grant more (less when many share the buffer: CreditGate.window). */
  NOTIFIER_CREDIT_WINDOW: z.coerce.number().int().min(1).max(10_000).default(500),
  /**
   * The longest the brokers are made to hold notifications while the buffer is too full (NATS away
   * or slow); past it they are taken and what does not fit is dropped and counted. 0 holds nothing.
   * A node read through Studio's ring is held for as long as it takes: the ring is its bound, and
   * counts what it discards (ADR-0015).
   */
  NOTIFIER_HOLD_LIMIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
  /**
   * At shutdown, how long the notifier keeps its subscriptions after giving its leases back,
   * waiting for the replica that takes each cluster over to be subscribed (0: it does not wait).
   * Keep it under the pod's termination grace period, less the publisher's 5 s flush.
   */
  NOTIFIER_HANDOVER_SECONDS: z.coerce.number().int().min(0).max(300).default(15),
});

export interface NotifierConfig {
  secretKey: string;
  leaseTtlMs: number;
  bufferSize: number;
  creditWindow: number;
  holdLimitMs: number;
  handoverMs: number;
}

export const NOTIFIER_CONFIG = Symbol('NOTIFIER_CONFIG');

export function loadNotifierConfig(env: NodeJS.ProcessEnv): NotifierConfig {
  const parsed = parseEnv(NotifierEnvSchema, env);
  return {
    secretKey: parsed.STUDIO_SECRET_KEY,
    leaseTtlMs: parsed.LEASE_TTL_MS,
    bufferSize: parsed.NOTIFIER_BUFFER_SIZE,
    creditWindow: parsed.NOTIFIER_CREDIT_WINDOW,
    holdLimitMs: parsed.NOTIFIER_HOLD_LIMIT_SECONDS * 1000,
    handoverMs: parsed.NOTIFIER_HANDOVER_SECONDS * 1000,
  };
}
