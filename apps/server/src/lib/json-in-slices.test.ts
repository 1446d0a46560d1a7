import { describe, expect, it } from 'vitest';
import { parseJsonInSlices } from './json-in-slices';

const refuse = () => {
  throw new Error('the fallback was used');
};

describe('parseJsonInSlices', () => {
  it('answers what JSON.parse answers, for a text of many pieces', async () => {
    const value = { bundle: { resourceType: 'Bundle', entry: Array.from({ length: 3000 }, (_, i) => ({ resource: { id: `r${i}`, text: 'é ü "quoted" \\ ✓', n: i / 3, ok: i % 2 === 0, none: null } })) } };
    const text = JSON.stringify(value);
    expect(text.length).toBeGreaterThan(100_000);
    expect(await parseJsonInSlices(text, refuse)).toEqual(JSON.parse(text));
  });

  it.each([
    ['cut short', '{"bundle": {"entry": [1, 2'],
    ['not JSON', 'resourceType=Bundle'],
    ['two values', '{} {}'],
  ])('refuses a text %s as invalid JSON (400)', async (_, text) => {
    await expect(parseJsonInSlices(text, refuse)).rejects.toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 });
  });

  it('refuses an empty body as Fastify does', async () => {
    await expect(parseJsonInSlices('  ', refuse)).rejects.toMatchObject({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 });
  });

  it.each(['{"a": {"__proto__": {"x": 1}}}', '{"a": {"\\u005f_proto__": {"x": 1}}}', '{"constructor": {"prototype": {}}}'])(
    'leaves a text with a key that reaches a prototype to Fastify’s own parser: %s',
    async (text) => {
      expect(await parseJsonInSlices(text, () => 'fallback')).toBe('fallback');
    },
  );

  it('finds such a key across two pieces', async () => {
    const text = `{"pad": "${'x'.repeat(32 * 1024 - 12)}", "__proto__": {}}`;
    expect(await parseJsonInSlices(text, () => 'fallback')).toBe('fallback');
  });
});
