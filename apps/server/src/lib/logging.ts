import { randomUUID } from 'node:crypto';
import { LogController, type FastifyServerOptions, type FastifyRequest } from 'fastify';

/** Path segments that carry secrets (reset and confirmation tokens, share links, SMART Health Link manifests, calendar feed tokens). */
const SECRET_PATH = /\/(reset|confirm|sharedrecords|shareddocs|sharedqrcoderecords|shl|feed)\/[^?#]*/gi;
/** An export link's token: the segment after /export/ (the export route itself, with nothing after, stays readable). */
const EXPORT_TOKEN = /\/(export)\/[^/?#]+/gi;

/** A URL fit for logs: no query string, no token segments. */
export function redactUrl(url: string): string {
  const [pathOnly = ''] = url.split('?');
  return (
    pathOnly.replace(SECRET_PATH, (_m, word: string) => `/${word}/[redacted]`).replace(EXPORT_TOKEN, (_m, word: string) => `/${word}/[redacted]`) + (url.includes('?') ? '?[redacted]' : '')
  );
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Pino, JSON lines (pretty for a person at a terminal). Requests are logged once each, when
 * answered (app.ts: method, route pattern, status, time).
 */
export function loggerOptions(level: string, pretty: boolean): FastifyServerOptions {
  return {
    logController: new LogController({ disableRequestLogging: true }),
    logger: {
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.refresh', '*.access'],
        censor: '[redacted]',
      },
      serializers: {
        req(req: FastifyRequest) {
          return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
        },
      },
      ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
    },
    // genReqId reads X-Request-Id itself and accepts it only when well-formed (a header name here would bypass it).
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  } as FastifyServerOptions;
}
