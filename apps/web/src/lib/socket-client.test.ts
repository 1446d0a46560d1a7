import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { backoffDelay, isFinalTicketError, pageSocketUrl, parseSocketEvent } from './socket-client';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('pageSocketUrl', () => {
  it("is the page's host with ws: for http (wss: for https)", () => {
    const { protocol, host } = window.location;
    expect(pageSocketUrl('/api/v1/visits/socket/')).toBe(`${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/api/v1/visits/socket/`);
  });
});

describe('backoffDelay', () => {
  it('is the exponential from the base times the jitter, floored', () => {
    expect(backoffDelay(0, () => 0.5, 500, 8_000)).toBe(250);
    expect(backoffDelay(1, () => 0.5, 500, 8_000)).toBe(500);
    expect(backoffDelay(3, () => 0.5, 500, 8_000)).toBe(2_000);
    expect(backoffDelay(0, () => 0.999, 500, 8_000)).toBe(499);
  });

  it('is capped at the maximum, however many attempts', () => {
    expect(backoffDelay(4, () => 0.5, 500, 8_000)).toBe(4_000);
    expect(backoffDelay(5, () => 0.5, 500, 8_000)).toBe(4_000);
    expect(backoffDelay(50, () => 0.999, 500, 8_000)).toBe(7_992);
    expect(backoffDelay(5_000, () => 0.5, 500, 8_000)).toBe(4_000);
  });

  it('stays within [0, min(max, base × 2^attempt)) for any random in [0, 1)', () => {
    expect(backoffDelay(0, () => 0, 500, 8_000)).toBe(0);
    expect(backoffDelay(20, () => 0, 500, 8_000)).toBe(0);
    for (let attempt = 0; attempt < 12; attempt++) {
      const ceiling = Math.min(8_000, 500 * 2 ** attempt);
      for (const r of [0, 0.1, 0.5, 0.9, 0.999_999]) {
        const delay = backoffDelay(attempt, () => r, 500, 8_000);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
    }
  });
});

describe('isFinalTicketError', () => {
  it('is final for a refusal (4xx)', () => {
    for (const status of [400, 401, 403, 404, 409, 410, 422, 499]) expect(isFinalTicketError({ status })).toBe(true);
    expect(isFinalTicketError(Object.assign(new Error('Forbidden'), { status: 403 }))).toBe(true);
  });

  it('is not final for a timeout (408), a limit (429), a server error or the network', () => {
    for (const status of [408, 429, 500, 502, 503, 399, 301]) expect(isFinalTicketError({ status })).toBe(false);
    expect(isFinalTicketError(new TypeError('Failed to fetch'))).toBe(false);
  });

  it('is not final for anything without a numeric status', () => {
    for (const error of [null, undefined, 'HTTP 403', 403, {}, { status: '403' }, { status: null }]) expect(isFinalTicketError(error)).toBe(false);
  });
});

describe('parseSocketEvent', () => {
  const Schema = z.discriminatedUnion('type', [z.object({ type: z.literal('pong') }), z.object({ type: z.literal('count'), n: z.number().int() })]);

  it('is null for a frame that is not text', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const data of [new ArrayBuffer(8), new Blob(['{"type":"pong"}']), { type: 'pong' }, null, undefined, 42]) expect(parseSocketEvent(data, Schema, 'test')).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('is null for text that is not JSON', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const data of ['', '{', 'pong', '{"type":"pong"']) expect(parseSocketEvent(data, Schema, 'test')).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('is null, with a warning naming the socket, for JSON of an unknown shape', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const data of ['{"type":"ping"}', '{"type":"count","n":"3"}', '{"type":"count","n":1.5}', '[]', 'null', '"pong"']) expect(parseSocketEvent(data, Schema, 'visit')).toBeNull();
    expect(warn).toHaveBeenCalledTimes(6);
    expect(warn.mock.calls[0]![0]).toContain('visit');
  });

  it("is the schema's value for a valid event (unknown keys dropped)", () => {
    expect(parseSocketEvent('{"type":"pong"}', Schema, 'test')).toEqual({ type: 'pong' });
    expect(parseSocketEvent('{"type":"count","n":3,"extra":true}', Schema, 'test')).toEqual({ type: 'count', n: 3 });
  });
});
