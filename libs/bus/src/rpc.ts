import { subjects, type ReplyOf, type RequestOf, type RpcDef } from '@artemis-studio/contracts';
import {
  ErrorCode,
  ServiceError,
  type Msg,
  type NatsConnection,
  type NatsError,
  type Service,
  type ServiceMsg,
} from 'nats';
import { RpcError, type Unsubscribe } from './bus';
import { decode, encode, encodeUnchecked } from './codec';
import type { BusReporter } from './reporter';

/** An RPC's subject; with a key, the subject only that key's owner serves (a cluster's scraper). */
function rpcSubject(rpc: RpcDef, key?: string): string {
  // The contract says which RPCs are keyed (docs/asyncapi.yaml is generated from it): a keyed one
  // without its key would reach nobody, an unkeyed one with a key a subject nobody serves.
  if (Boolean(rpc.keyedBy) !== (key !== undefined))
    throw new Error(`rpc ${rpc.name} ${rpc.keyedBy ? `needs its ${rpc.keyedBy}` : 'takes no key'}`);
  return key ? `${subjects.rpc(rpc.name)}.${key}` : subjects.rpc(rpc.name);
}

/** Sends a request and validates the reply; every failure is an RpcError with an HTTP-like code. */
export async function request<R extends RpcDef>(
  nc: NatsConnection,
  rpc: R,
  payload: RequestOf<R>,
  options: { timeoutMs: number; key?: string },
  reporter: BusReporter,
): Promise<ReplyOf<R>> {
  const data = encode(rpc.request, payload, `${rpc.name} request`);
  let reply: Msg;
  try {
    reply = await nc.request(rpcSubject(rpc, options.key), data, { timeout: options.timeoutMs });
  } catch (err) {
    const code = (err as NatsError).code;
    if (code === ErrorCode.NoResponders) throw new RpcError(503, `no ${rpc.name} responder is running`);
    if (code === ErrorCode.Timeout) throw new RpcError(504, `${rpc.name} did not answer in time`);
    throw new RpcError(503, `${rpc.name} failed: ${(err as Error).message}`);
  }
  const failure = ServiceError.toServiceError(reply);
  if (failure) throw new RpcError(failure.code, failure.message);
  const decoded = decode(rpc.reply, reply.data);
  if (!decoded.ok) {
    reporter.metrics.malformed(`${rpc.name} reply`);
    throw new RpcError(502, `${rpc.name} sent a malformed reply: ${decoded.reason}`);
  }
  return decoded.value as ReplyOf<R>;
}

/** The version every Studio service announces in NATS service discovery (`$SRV.INFO`). */
const SERVICE_VERSION = '0.1.0';

/** A served endpoint's name in discovery: the RPC's name (`event-store.since`) with `-` for dots. */
const endpointName = (rpc: RpcDef) => rpc.name.replace(/[^\w-]/g, '-');

/**
 * The NATS micro services (`$SRV` discovery, stats, error headers) a connection serves RPCs
 * through, so `nats micro ls` lists each service and its endpoints. Unkeyed RPCs share one
 * service per name on the connection; a keyed one (a cluster's live lists) is a service instance
 * of its own, stopped when its owner lets the key go, since the framework cannot remove a single
 * endpoint.
 */
const sharedServices = new WeakMap<NatsConnection, Map<string, Promise<Service>>>();

function sharedService(nc: NatsConnection, name: string): Promise<Service> {
  const byName = sharedServices.get(nc) ?? new Map<string, Promise<Service>>();
  sharedServices.set(nc, byName);
  let service = byName.get(name);
  if (!service) {
    service = nc.services.add({
      name,
      version: SERVICE_VERSION,
      queue: name,
      description: `Artemis Studio ${name}`,
    });
    byName.set(name, service);
  }
  return service;
}

/** One endpoint of a served table: the RPC and what answers it. */
export interface Served<R extends RpcDef = RpcDef> {
  rpc: R;
  handler: (request: RequestOf<R>) => Promise<ReplyOf<R>>;
  /**
   * false: the reply goes out unchecked (the requester checks every reply on receipt). A check
   * also drops fields the contract does not name, so only a handler that builds every field
   * itself may skip it; for the event store's replay of 500 events it was a sixth of its CPU.
   */
  checkReply?: boolean;
}

/**
 * Serves RPCs in the queue group `queue` (one replica answers each request), or every RPC given
 * under one key, as one service instance (a cluster's owner answers all of that cluster's owner
 * RPCs, and stops answering all of them together when it lets the key go). A malformed request is
 * a 400, an RpcError keeps its code, anything else is a 500 that is counted and logged.
 */
export function serveEndpoints(
  connected: Promise<NatsConnection>,
  endpoints: readonly Served[],
  options: { queue: string; key?: string },
  reporter: BusReporter,
): Unsubscribe {
  let released = false;
  let stop: () => void = () => undefined;
  const answer = ({ rpc, handler, checkReply = true }: Served, msg: ServiceMsg) => {
    // A shared service keeps its endpoints until the last is released: one let go answers so.
    if (released) return msg.respondError(503, `${rpc.name} is no longer served here`);
    const decoded = decode(rpc.request, msg.data);
    if (!decoded.ok) {
      reporter.malformed(`${rpc.name} request`, msg.subject, decoded.reason);
      return msg.respondError(400, `malformed ${rpc.name} request: ${decoded.reason}`);
    }
    handler(decoded.value as RequestOf<typeof rpc>)
      .then((result) =>
        msg.respond(checkReply ? encode(rpc.reply, result, `${rpc.name} reply`) : encodeUnchecked(result)),
      )
      .catch((error: unknown) => {
        if (error instanceof RpcError) return msg.respondError(error.code, error.message);
        reporter.metrics.handlerFailed(rpc.name);
        reporter.log.error(`bus: rpc ${rpc.name} failed: ${(error as Error).stack ?? error}`);
        msg.respondError(500, `${rpc.name} failed: ${(error as Error).message}`);
      });
  };
  const subjects = endpoints.map(({ rpc }) => rpcSubject(rpc, options.key));
  const names = endpoints.map(({ rpc }) => rpc.name).join(', ');
  void connected
    .then(async (nc) => {
      if (released) return;
      const service = options.key
        ? await nc.services.add({
            name: options.queue,
            version: SERVICE_VERSION,
            queue: options.queue,
            description: `Artemis Studio ${options.queue}`,
            metadata: { key: options.key },
          })
        : await sharedService(nc, options.queue);
      endpoints.forEach((endpoint, i) =>
        service.addEndpoint(endpointName(endpoint.rpc), {
          subject: subjects[i],
          handler: (err, msg) =>
            err ? reporter.log.warn(`bus: rpc ${endpoint.rpc.name}: ${err.message}`) : answer(endpoint, msg),
        }),
      );
      if (options.key) stop = () => void service.stop().catch(() => undefined);
      if (released) stop();
    })
    .catch((err: unknown) => reporter.log.error(`bus: cannot serve ${names}: ${(err as Error).message}`));
  return () => {
    released = true;
    stop();
  };
}
