/**
 * An INSERT of `$1` events into `table` (broker_event, or a copy of it) as a store holds them:
 * received evenly from `$2` (epoch ms) over `$3` seconds in order, each id led by its time as the
 * notifier makes them (ADR-0025: so each lands in its day's partition), of the cluster `cluster`:
 * a column expression over the series index `i` and `$4`, such as `($4::uuid[])[1 + i % 20]`.
 */
export const insertEventsSql = (table: string, cluster: string) => `
  INSERT INTO ${table} (broker_ts, received_at, cluster_id, event_id, type, node, address, queue,
                        consumer, session, connection, remote_address, "user", props)
  SELECT t, t, ${cluster},
         (lpad(to_hex((extract(epoch FROM t) * 1000)::bigint), 12, '0') ||
          substr(replace(gen_random_uuid()::text, '-', ''), 13))::uuid,
         'CONSUMER_CREATED', 'n', 'orders', 'orders.in', 'consumer-' || i, 'session-' || i,
         'connection-' || i, '127.0.0.1:' || (40000 + i % 20000), 'app',
         jsonb_build_object('_AMQ_ConsumerCount', i, '_AMQ_RoutingName', 'orders.in')
    FROM generate_series(1, $1) i,
         LATERAL (SELECT to_timestamp($2::float8 / 1000) + make_interval(secs => $3 * (i - 1)::float8 / $1) AS t) at`;
