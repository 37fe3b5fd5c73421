import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { stdTimeFunctions } from 'pino';
import { SERVICE_CONFIG, type ServiceConfig } from '../config/service-config';

/** Health probes and Prometheus scrapes are not worth a log line each. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Anywhere a credential could travel in a log record. Our own serializers below never include
 * headers or bodies; this is what keeps a later serializer change, or a log call given a request
 * object, from writing one out.
 */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.token',
  '*.credentials',
];

type Request = IncomingMessage & { id?: string; originalUrl?: string };

/**
 * A line a person reads at a terminal (`npm start`): the time, the level, the service and where it
 * logged from, the message, then the fields that find it again (cluster, node, request id, …).
 * The same records as JSON; only their printing differs.
 */
const PRETTY = {
  target: 'pino-pretty',
  options: {
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,context',
    messageFormat: '{service} {if context}[{context}] {end}{msg}',
  },
};

/**
 * JSON logs (pino) for every service: one object a line with `level`, `time`, `service`,
 * `context` and `msg`, and for HTTP the request id (also answered in `X-Request-Id`), method, path
 * without its query (an OIDC callback's code stays out), status and duration. LOG_LEVEL sets the
 * level; answers of 4xx log as warn, 5xx as error, the rest at debug.
 */
export const loggingModule = (service: string) =>
  LoggerModule.forRootAsync({
    inject: [SERVICE_CONFIG],
    useFactory: (config: ServiceConfig) => ({
      pinoHttp: {
        level: config.logLevel,
        ...(config.logFormat === 'pretty' ? { transport: PRETTY } : {}),
        base: { service },
        timestamp: stdTimeFunctions.isoTime,
        formatters: { level: (label: string) => ({ level: label }) },
        redact: { paths: REDACTED, censor: '[redacted]' },
        genReqId: (req: Request) => req.id ?? randomUUID(),
        // On the request's own line and on every line logged while it is handled.
        customProps: (req: Request) => ({ requestId: req.id }),
        autoLogging: { ignore: (req: Request) => QUIET_PATHS.has((req.url ?? '').split('?')[0]!) },
        customLogLevel: (_req: Request, res: ServerResponse, err?: Error) =>
          err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'debug',
        serializers: {
          req: (req: Request & { remoteAddress?: string }) => ({
            method: req.method,
            path: (req.originalUrl ?? req.url ?? '').split('?')[0],
            remoteAddress: req.remoteAddress,
          }),
          res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
        },
      },
    }),
  });
