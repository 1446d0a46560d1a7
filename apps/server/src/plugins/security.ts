import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The page policy. The SPA needs inline styles (emotion); it connects (fetch and WebSockets)
 * to its own origin: 'self' covers ws(s) to the same host in CSP 3, and the WebSocket form
 * of the public address is named too, for browsers that read 'self' narrowly. And to any https
 * origin: a SMART Health Link someone shared with the patient is opened by the browser (its
 * manifest and files fetched from wherever the link points, then decrypted with the link's
 * key), never by the server, which would otherwise fetch addresses its users choose (SSRF).
 */
export function helmetOptions(publicUrl?: string): HelmetOptions {
  const connect = ["'self'", 'https:'];
  if (publicUrl) {
    const url = new URL(publicUrl);
    connect.push(`${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`);
  }
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': connect,
        'frame-ancestors': ["'none'"],
        // The app's own previews of documents (PDFs in a frame, from a blob: URL it made).
        'frame-src': ["'self'", 'blob:'],
        // No plugins, except Chrome's PDF viewer on a PDF the app itself made into a blob: URL (an
        // export opened in a new tab inherits this policy, and the viewer loads it as plugin data:
        // crbug.com/271452). Only the app's own scripts can make a blob: URL.
        'object-src': ['blob:'],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
  };
}

/**
 * Helmet's headers are the same for every response, so they are computed once by helmet itself
 * and set with one call per request (running the middleware per request costs a third of a
 * no-op route's throughput). Routes may still override a header (e.g. an asset's own CSP).
 */
export function computeSecurityHeaders(options: Readonly<HelmetOptions> = helmetOptions()): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * JSON API answers are not documents: they get the OWASP REST set — nothing may frame, sniff or
 * cache them (answers hold health data; a route that may be cached, like an organisation's
 * branding, sets its own Cache-Control) — instead of the page policy.
 */
export function apiSecurityHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'strict-transport-security': pageHeaders['strict-transport-security']!,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}

/** Paths answered with JSON (or API files); the API docs are a page. */
const API_PATH = /^\/api\/(?!docs(\/|$))/;

export default fp<{ publicUrl?: string }>(
  async (app, opts) => {
    const pageHeaders = computeSecurityHeaders(helmetOptions(opts.publicUrl));
    const apiHeaders = apiSecurityHeaders(pageHeaders);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(API_PATH.test(request.url) ? apiHeaders : pageHeaders);
      done();
    });
  },
  { name: 'security' },
);
