import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';

/** The broker's answer for an address's settings as applied (its address-setting matches merged). */
export function addressSettingsRequest(brokerName: string, address: string): JolokiaRequest {
  return {
    type: 'exec',
    mbean: `org.apache.activemq.artemis:broker="${brokerName.replace(/["\\]/g, (c) => `\\${c}`)}"`,
    operation: 'getAddressSettingsAsJSON',
    arguments: [address],
  };
}

/**
 * The redistribution delay an address has, in ms: -1 (off) when the broker leaves it out, as it
 * does at its default (checked on 2.40); undefined when the read failed.
 */
export function redistributionDelayOf(answer: JolokiaResponse | undefined): number | undefined {
  if (!answer || answer.status !== 200 || typeof answer.value !== 'string') return undefined;
  try {
    const settings = JSON.parse(answer.value) as { redistributionDelay?: unknown };
    const delay = settings.redistributionDelay;
    if (delay === undefined) return -1;
    return typeof delay === 'number' && Number.isFinite(delay) ? delay : undefined;
  } catch {
    return undefined;
  }
}
