/**
 * Tier A and tier B read many attributes in one request with Jolokia's `ignoreErrors`, so an
 * attribute the broker could not give comes back as the exception's text in place of its value:
 * "ERROR: java.lang.IllegalStateException: Broker is not started…" from a broker starting or
 * shutting down. Taken as it came, that text read as "active" (a non-empty string) and then failed
 * the `node_state` write (`uptime_ms` is a bigint), and with it the poll of every node of the
 * cluster, once a second for as long as the broker took to stop (the fault suite: 10 s); as a
 * queue depth it read as 0. Each value is checked for its type; an error's text is kept to say why.
 */
export const attributeError = (v: unknown): string | null =>
  typeof v === 'string' && v.startsWith('ERROR') ? v : null;
export const flag = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
export const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const text = (v: unknown): string | null => (typeof v === 'string' && !attributeError(v) ? v : null);

/** A value in an MBean name, quoted as JMX's `ObjectName.quote` does: `*` and `?` stay literal. */
export function quoted(value: string): string {
  return `"${value.replace(/[\\"*?\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))}"`;
}

/** The broker's own MBean, where its operations and node-wide attributes are. */
export const brokerMbean = (broker: string): string => `org.apache.activemq.artemis:broker=${quoted(broker)}`;

/** An address's MBean on a broker. */
export const addressMbean = (broker: string, address: string): string =>
  `${brokerMbean(broker)},component=addresses,address=${quoted(address)}`;

/**
 * The value of a quoted key of an MBean name (`queue="orders"`): Artemis quotes queue and address
 * names (ObjectName.quote), so a queue or address whose name attribute failed is still known by
 * its MBean.
 */
export function quotedKey(mbean: string, key: string): string | null {
  const at = mbean.search(new RegExp(`[:,]${key}="`));
  if (at < 0) return null;
  let value = '';
  for (let i = at + key.length + 3; i < mbean.length; i++) {
    const c = mbean[i];
    if (c === '"') return value;
    if (c === '\\') {
      const next = mbean[++i];
      value += next === 'n' ? '\n' : next;
    } else value += c;
  }
  return null;
}
