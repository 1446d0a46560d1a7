import { describe, expect, it } from 'vitest';
import type { Bundle } from '@medplum/fhirtypes';
import { checkImportLimits, readBundleInSlices, stringifyBundle } from './fhir.import-limits';
import { readBundle } from './fhir.shapes';

describe('stringifyBundle', () => {
  it('writes the same text as JSON.stringify, with and without entries', async () => {
    const entry = Array.from({ length: 300 }, (_, i) => ({ fullUrl: `urn:uuid:${i}`, resource: { resourceType: 'Condition' as const, id: String(i), subject: { reference: 'urn:uuid:p' }, code: { text: `Ελληνικά "${i}"` } } }));
    const bundle: Bundle = { resourceType: 'Bundle', id: 'b', meta: { lastUpdated: '2026-01-01T00:00:00Z' }, type: 'collection', timestamp: '2026-01-01T00:00:00Z', entry };
    expect(await stringifyBundle(bundle)).toBe(JSON.stringify(bundle));
    const empty: Bundle = { resourceType: 'Bundle', type: 'collection', entry: [] };
    expect(await stringifyBundle(empty)).toBe(JSON.stringify(empty));
  });
});

describe('readBundleInSlices', () => {
  it('answers what readBundle answers: entries in place, problems by their entry, at most ten and a count of the rest', async () => {
    const entry: unknown[] = Array.from({ length: 450 }, (_, i) => ({ fullUrl: `urn:uuid:${i}`, resource: { resourceType: 'Condition', code: { text: `C${i}` } } }));
    for (const i of [5, 120, 130, 201, 202, 203, 204, 300, 301, 302, 303, 449]) entry[i] = { resource: { resourceType: 'Condition', onsetDateTime: 'not a date' } };
    entry[77] = { fullUrl: 'x' };
    const bundle = { resourceType: 'Bundle', entry };
    expect(await readBundleInSlices(bundle)).toEqual(readBundle(bundle));
    expect(await readBundleInSlices({ resourceType: 'Observation', entry })).toEqual(readBundle({ resourceType: 'Observation', entry }));
  });
});

describe('checkImportLimits', () => {
  it('refuses nesting past the cap without recursing, and lets an ordinary bundle through', async () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 100_000; i++) deep = { next: [deep] };
    await expect(checkImportLimits({ resourceType: 'Bundle', entry: [{ resource: deep }] })).rejects.toMatchObject({ statusCode: 400, detail: 'errors:fhirTooDeep' });
    await expect(checkImportLimits({ resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Condition', code: { coding: [{ system: 's', code: 'c' }] } } }] })).resolves.toBeUndefined();
  });
});
