import { subjects, type ReplyOf, type RequestOf, type RpcDef } from '@artemis-studio/contracts';
import {
  ErrorCode,
  ServiceError,
  ServiceErrorCodeHeader,
  ServiceErrorHeader,
  headers,
  type Msg,
  type NatsConnection,
  type NatsError,
} from 'nats';
import { RpcError, type Unsubscribe } from './bus';
import { decode, encode } from './codec';
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

/** Answers with the NATS service-error headers, which `request` (and any NATS service client) reads. */
function respondWithError(msg: Msg, code: number, message: string): void {
  const h = headers();
  h.set(ServiceErrorHeader, message);
  h.set(ServiceErrorCodeHeader, String(code));
  msg.respond(new Uint8Array(0), { headers: h });
}

/**
 * Serves an RPC in the queue group `queue` (one replica answers each request): a malformed request
 * is a 400, an RpcError keeps its code, anything else is a 500 that is counted and logged.
 */
export function serve<R extends RpcDef>(
  connected: Promise<NatsConnection>,
  rpc: R,
  handler: (request: RequestOf<R>) => Promise<ReplyOf<R>>,
  options: { queue: string; key?: string },
  reporter: BusReporter,
): Unsubscribe {
  let cancelled = false;
  let unsubscribe: Unsubscribe = () => (cancelled = true);
  void connected.then((nc) => {
    if (cancelled) return;
    const sub = nc.subscribe(rpcSubject(rpc, options.key), {
      queue: options.queue,
      callback: (err, msg) => {
        if (err) return reporter.log.warn(`bus: rpc ${rpc.name}: ${err.message}`);
        const decoded = decode(rpc.request, msg.data);
        if (!decoded.ok) {
          reporter.malformed(`${rpc.name} request`, msg.subject, decoded.reason);
          return respondWithError(msg, 400, `malformed ${rpc.name} request: ${decoded.reason}`);
        }
        handler(decoded.value as RequestOf<R>)
          .then((result) => msg.respond(encode(rpc.reply, result, `${rpc.name} reply`)))
          .catch((error: unknown) => {
            if (error instanceof RpcError) return respondWithError(msg, error.code, error.message);
            reporter.metrics.handlerFailed(rpc.name);
            reporter.log.error(`bus: rpc ${rpc.name} failed: ${(error as Error).stack ?? error}`);
            respondWithError(msg, 500, `${rpc.name} failed: ${(error as Error).message}`);
          });
      },
    });
    unsubscribe = () => sub.unsubscribe();
  });
  return () => unsubscribe();
}
