import type { CapabilityVerdict, LiveNode } from '@artemis-studio/contracts';
import { ACCEPTOR_SNIPPET, PLUGIN_SNIPPET, ringAccessSnippet, securitySnippet } from './snippets';

export type FailureKind = 'permission' | 'login' | 'unreachable' | 'other';

export type SubscriptionState =
  | { node: string; state: 'subscribed' }
  | { node: string; state: 'connecting' }
  | { node: string; state: 'failed'; kind: FailureKind; message: string };

export interface ClusterNotificationState {
  /** Live nodes as the scraper last said (with their rings), or null when it has said nothing yet. */
  liveNodes: Pick<LiveNode, 'name' | 'amqpUrl' | 'ring' | 'noRing'>[] | null;
  /** The scraper's Jolokia user, named in the snippet that lets it make the rings. */
  jolokiaUser: string | null;
  subscriptions: SubscriptionState[];
  /** Whether every wanted subscription has had its first outcome. */
  reconciled: boolean;
  user: string | null;
}

/** The notification capability of a cluster, from what the notifier holds (ADR-0026: never a live probe). */
export function assessNotifications(state: ClusterNotificationState, asOf: Date): CapabilityVerdict {
  const at = asOf.toISOString();
  if (!state.reconciled || state.liveNodes === null) {
    return {
      status: 'UNKNOWN',
      reason: 'waiting for the first reconcile of live nodes and subscriptions',
      asOf: at,
    };
  }
  const subscribed = state.subscriptions.filter((s) => s.state === 'subscribed').map((s) => s.node);
  if (subscribed.length > 0) return available(state, subscribed, at);
  if (state.liveNodes.length === 0) {
    return {
      status: 'UNAVAILABLE',
      reason: 'no live node is observed, so there is nothing to subscribe to',
      asOf: at,
    };
  }
  if (state.liveNodes.every((n) => !n.amqpUrl)) {
    return {
      status: 'UNAVAILABLE',
      reason: 'no live node has an AMQP URL: register one for each node, on an acceptor that speaks AMQP',
      asOf: at,
      snippet: ACCEPTOR_SNIPPET,
    };
  }
  const failures = state.subscriptions.filter(
    (s): s is Extract<SubscriptionState, { state: 'failed' }> => s.state === 'failed',
  );
  const permission = failures.find((f) => f.kind === 'permission');
  if (permission) {
    return {
      status: 'UNAVAILABLE',
      reason: `the broker refused the subscription on ${permission.node}: ${permission.message}`,
      asOf: at,
      snippet: securitySnippet(state.user ? `<role of ${state.user}>` : 'amq'),
    };
  }
  const first = failures[0];
  if (first) {
    return { status: 'UNAVAILABLE', reason: `cannot subscribe on ${first.node}: ${first.message}`, asOf: at };
  }
  return { status: 'UNAVAILABLE', reason: 'connecting to the live nodes', asOf: at };
}

const PLUGIN_NOTE =
  'An idle broker and a broker without NotificationActiveMQServerPlugin look the same: without the plugin, ' +
  'connection, address, delivery and expiry events never arrive.';

/**
 * Durable when every live node is read from Studio's ring (ADR-0015); otherwise what the rings'
 * absence costs, why they are absent, and, when the broker refused them, what grants them.
 */
function available(state: ClusterNotificationState, subscribed: string[], at: string): CapabilityVerdict {
  const live = state.liveNodes ?? [];
  const count = `${subscribed.length} of ${live.length} live`;
  const withoutRing = live.filter((n) => n.amqpUrl && !n.ring);
  if (withoutRing.length === 0) {
    const size = Math.min(...live.filter((n) => n.ring).map((n) => n.ring!.size));
    return {
      status: 'AVAILABLE',
      mode: 'durable',
      reason:
        `reading Studio's durable ring of notifications on ${subscribed.join(', ')} (${count}): each keeps up to ` +
        `${size.toLocaleString('en')} notifications while no notifier reads it, so a notifier restart or crash loses none. ${PLUGIN_NOTE}`,
      asOf: at,
      snippet: PLUGIN_SNIPPET,
    };
  }
  const why = withoutRing.map((n) => `${n.name}: ${n.noRing ?? 'not made yet'}`).join('; ');
  const refused = withoutRing.some((n) => n.noRing?.startsWith('the broker refused'));
  return {
    status: 'AVAILABLE',
    mode: 'non-durable',
    reason:
      `subscribed to activemq.notifications on ${subscribed.join(', ')} (${count}), not durably: what a node sends while ` +
      `no notifier reads it (a crash, a restart) is lost, and stated as an unobserved period. No ring on ${why}.` +
      (refused ? " Let the cluster's Jolokia user make Studio's ring (the snippet) to keep them." : '') +
      ` ${PLUGIN_NOTE}`,
    asOf: at,
    snippet: refused
      ? ringAccessSnippet(state.jolokiaUser ? `<role of ${state.jolokiaUser}>` : 'amq')
      : PLUGIN_SNIPPET,
  };
}

/** Whether two verdicts say the same thing (asOf aside): only a change is written. */
export function sameVerdict(a: CapabilityVerdict | undefined, b: CapabilityVerdict): boolean {
  return (
    !!a && a.status === b.status && a.reason === b.reason && a.snippet === b.snippet && a.mode === b.mode
  );
}

/** Sorts a subscription failure by what the operator has to fix. */
export function classifyFailure(error: unknown): { kind: FailureKind; message: string } {
  const message = describe(error);
  if (/AMQ229213|AMQ119016|not authorized|does not have permission/i.test(message))
    return { kind: 'permission', message };
  if (/authenticat|SASL|AMQ229031/i.test(message))
    return { kind: 'login', message: `the broker refused the AMQP login (${message})` };
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|disconnected|socket/i.test(message)) {
    return { kind: 'unreachable', message };
  }
  return { kind: 'other', message };
}

function describe(error: unknown): string {
  if (!error) return 'unknown error';
  if (error instanceof Error) return error.message;
  const e = error as { description?: string; condition?: string; value?: { value?: unknown }[] };
  if (e.description) return `${e.condition ?? 'error'}: ${e.description}`;
  // rhea hands some remote errors over still encoded: [condition, description, info].
  if (Array.isArray(e.value))
    return e.value
      .map((v) => String(v?.value ?? ''))
      .filter(Boolean)
      .join(': ');
  return typeof error === 'string' ? error : JSON.stringify(error);
}
