import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { loggerOptions, redactUrl } from './logging';

describe('redactUrl', () => {
  it.each([
    ['/api/health', '/api/health'],
    ['/api/v1/organization_detail_by_name/healthbook', '/api/v1/organization_detail_by_name/healthbook'],
    ['/api/v1/calendar/feed/abcDEF123_-abcDEF123_-abcDEF123_-abcDEF123_-a.ics', '/api/v1/calendar/feed/[redacted]'],
    ['/api/v1/organization_detail/?token=abc', '/api/v1/organization_detail/?[redacted]'],
    ['/?a=1&b=2', '/?[redacted]'],
    ['/api/v1/search?', '/api/v1/search?[redacted]'],
    ['/api/v1/reset/Mg/c2V0LXBhc3N3b3Jk', '/api/v1/reset/[redacted]'],
    ['/api/v1/confirm/abc.def.ghi?next=/home', '/api/v1/confirm/[redacted]?[redacted]'],
    ['/api/v1/sharedrecords/tok123', '/api/v1/sharedrecords/[redacted]'],
    ['/api/v1/shareddocs/tok123/file.pdf', '/api/v1/shareddocs/[redacted]'],
    ['/api/v1/sharedqrcoderecords/tok123', '/api/v1/sharedqrcoderecords/[redacted]'],
    ['/api/v1/SharedRecords/TOK', '/api/v1/SharedRecords/[redacted]'],
    ['/api/v1/hr/export/abcDEF123_-abcDEF123_-abcDEF123_-abcDEF123_-a/', '/api/v1/hr/export/[redacted]/'],
    ['/api/v1/hr/export/', '/api/v1/hr/export/'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('leaves words that merely contain a secret segment name alone', () => {
    expect(redactUrl('/api/v1/preset/abc')).toBe('/api/v1/preset/abc');
    expect(redactUrl('/api/v1/resetting/abc')).toBe('/api/v1/resetting/abc');
    expect(redactUrl('/api/v1/reset-password/')).toBe('/api/v1/reset-password/');
  });

  it('never lets the token or query value through', () => {
    const out = redactUrl('/confirm/secret-token-value?email=maria@example.test');
    expect(out).not.toContain('secret-token-value');
    expect(out).not.toContain('maria');
  });
});

describe('loggerOptions', () => {
  const options = loggerOptions('info', false) as {
    logger: { level: string; redact: { paths: string[] }; serializers: { req(r: Partial<FastifyRequest>): unknown } };
    genReqId(req: { headers: Record<string, string | undefined> }): string;
  };

  it('logs requests with a redacted URL', () => {
    const logged = options.logger.serializers.req({ method: 'GET', url: '/api/v1/reset/tok?x=1', ip: '127.0.0.1' });
    expect(logged).toEqual({ method: 'GET', url: '/api/v1/reset/[redacted]?[redacted]', remoteAddress: '127.0.0.1' });
  });

  it('redacts credentials', () => {
    expect(options.logger.redact.paths).toEqual(expect.arrayContaining(['req.headers.authorization', 'req.headers.cookie', '*.password']));
  });

  it('keeps a well-formed X-Request-Id and replaces anything else', () => {
    expect(options.genReqId({ headers: { 'x-request-id': 'abc-123_XYZ.9' } })).toBe('abc-123_XYZ.9');
    for (const bad of ['short', 'has space in it', 'x'.repeat(65), 'line\nbreak-1234']) {
      expect(options.genReqId({ headers: { 'x-request-id': bad } })).not.toBe(bad);
    }
    expect(options.genReqId({ headers: {} })).toMatch(/^[0-9a-f-]{36}$/);
  });
});
