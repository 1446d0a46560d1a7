import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentDto, FhirConvertResult, FhirImportResult, RecordPage } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { buildCcda } from './ccda-samples';
import { bearer, buildOrganization, buildUser, signIn } from './factories';
import { ipsBundle } from './ips-samples';
import { pdfWords } from './pdf-text';

/**
 * Documents a patient has, through the one FHIR import: a C-CDA converted (POST
 * /api/v1/fhir/convert/), previewed and accepted (POST /api/v1/fhir/import/); a second time
 * adds nothing; the original lands in the Document Center when asked for at accept, never at
 * the preview; someone else's record is not found; a file that is not a C-CDA is a 400 in the
 * reader's language. And an International Patient Summary (a document Bundle) imports its
 * sections' resources, its Composition listed as skipped with why.
 */

let t: TestApp;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true });
  const hb = await t.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow();
  const other = await buildOrganization(t.app, { name: 'ccda-other' });
  const people = {
    anna: await buildUser(t.app, { org: hb, dob: '1980-06-15', first_name: 'Anna', last_name: 'Example' }),
    bob: await buildUser(t.app, { org: hb, dob: '1975-01-01' }),
    ines: await buildUser(t.app, { org: hb, dob: '1982-02-02' }),
    stranger: await buildUser(t.app, { org: other, dob: '1990-01-01' }),
  };
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const call = (who: string, url: string, payload?: object, lang = 'en', method: 'GET' | 'POST' = 'POST') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload ? { payload } : {}) });
const convert = (who: string, document: string, extra: object = {}, lang = 'en') => call(who, '/api/v1/fhir/convert/', { format: 'ccda', document, ...extra }, lang);
const importInto = (who: string, bundle: unknown, accept?: string[]) => call(who, '/api/v1/fhir/import/', { bundle, ...(accept ? { accept } : {}) });
const documentsOf = async (who: string) => (await call(who, '/api/v1/documents/', undefined, 'en', 'GET')).json<DocumentDto[]>();
/** A category's records of a patient, each as its JSON text. */
const recordsOf = async (who: string, category: string) => (await call(who, `/api/v1/hr/${category}/?page_size=100`, undefined, 'en', 'GET')).json<RecordPage>().results.map((r) => JSON.stringify(r));
const keysOf = (result: FhirImportResult, status = 'new') => result.items.filter((i) => i.status === status).map((i) => i.key);

describe('POST /api/v1/fhir/convert/ (C-CDA)', () => {
  it('convert -> preview -> accept imports the records, keeps the original in the Document Center at accept only; again adds nothing', async () => {
    const xml = buildCcda({ title: 'Summary of care' });
    const converted = await convert('anna', xml, { file_name: 'mychart-summary.xml' });
    expect(converted.statusCode, converted.body).toBe(200);
    const result = converted.json<FhirConvertResult>();
    expect(result.bundle.resourceType).toBe('Bundle');
    expect(result.title).toBe('Summary of care');
    expect(result.kept_documents).toEqual([]);
    expect(result.unconverted_sections).toEqual([]);

    const preview = await importInto('anna', result.bundle);
    expect(preview.statusCode, preview.body).toBe(200);
    const items = preview.json<FhirImportResult>().items;
    const newOnes = items.filter((i) => i.status === 'new').map((i) => [i.category, i.title]);
    expect(newOnes).toEqual(
      expect.arrayContaining([
        ['allergy', 'Penicillin G'],
        ['condition', 'Hypertension'],
        ['medication', 'Amlodipine 5 MG Oral Tablet'],
        ['immunization', 'Influenza, seasonal, injectable'],
        ['lab', 'Glucose'],
        ['biometrics', expect.any(String)],
        ['procedure', 'Appendectomy'],
        ['medicalvisit', expect.any(String)],
      ]),
    );
    // The Composition is the document's contents; the panel and the vitals' cluster group results that come on their own.
    expect(items.find((i) => i.resource_type === 'Composition')).toMatchObject({ status: 'skipped', reason: 'The document’s table of contents: the entries of its sections are imported one by one.' });
    // A preview (and a conversion) writes nothing: no document yet.
    expect(await documentsOf('anna')).toEqual([]);

    const accepted = await importInto('anna', result.bundle, keysOf(preview.json<FhirImportResult>()));
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<FhirImportResult>().imported).toBe(8);
    const kept = await convert('anna', xml, { file_name: 'mychart-summary.xml', keep_document: true });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<FhirConvertResult>().kept_documents).toEqual([
      expect.objectContaining({ file_name: 'mychart-summary.xml', content_type: 'application/xml', origin: 'document', folder: null }),
      expect.objectContaining({ file_name: 'mychart-summary.pdf', content_type: 'application/pdf', origin: 'document', folder: null }),
    ]);

    const documents = await documentsOf('anna');
    expect(documents.map((d) => d.file_name).sort()).toEqual(['mychart-summary.pdf', 'mychart-summary.xml']);
    const original = await call('anna', `/api/v1/documents/${documents.find((d) => d.content_type === 'application/xml')!.id}/file/?download=1`, undefined, 'en', 'GET');
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toMatch(/^application\/xml/);
    expect(original.body).toBe(xml);
    // The readable copy: the document's title, the patient, each section's narrative.
    const copy = await call('anna', `/api/v1/documents/${documents.find((d) => d.content_type === 'application/pdf')!.id}/file/`, undefined, 'en', 'GET');
    const text = pdfWords(copy.rawPayload);
    for (const words of ['Summary of care', 'Anna Example', 'Allergies', 'Penicillin G', 'Encounters', 'Office visit', 'A readable copy of the C-CDA document mychart-summary.xml']) expect(text).toContain(words);
    expect(await recordsOf('anna', 'allergy')).toEqual([expect.stringContaining('Penicillin G')]);

    // Kept again (more of it accepted later): the Document Center holds it once.
    const keptAgain = await convert('anna', xml, { file_name: 'summary-again.xml', keep_document: true });
    expect(keptAgain.json<FhirConvertResult>().kept_documents.map((d) => d.id)).toEqual([documents.find((d) => d.content_type === 'application/xml')!.id]);
    expect(await documentsOf('anna')).toHaveLength(2);

    // The same document again (converted anew: new resource ids): every entry a duplicate, nothing added.
    const again = (await convert('anna', xml)).json<FhirConvertResult>();
    const second = (await importInto('anna', again.bundle)).json<FhirImportResult>();
    expect(keysOf(second)).toEqual([]);
    expect(second.duplicates).toBe(8);
    const none = await importInto('anna', again.bundle, second.items.map((i) => i.key));
    expect(none.json<FhirImportResult>().imported).toBe(0);
  });

  it('names the sections the converter does not read (they stay in the kept original)', async () => {
    const xml = buildCcda().replace(
      '</structuredBody>',
      `<component><section><templateId root="2.16.840.1.113883.10.20.22.2.21.1"/><code code="42348-3" codeSystem="2.16.840.1.113883.6.1"/><title>Advance Directives</title><text>Do not resuscitate</text>
        <entry><act classCode="ACT" moodCode="EVN"><templateId root="2.16.840.1.113883.10.20.22.4.48"/><code code="304251008" codeSystem="2.16.840.1.113883.6.96"/><statusCode code="completed"/></act></entry>
      </section></component></structuredBody>`,
    );
    const res = await convert('ines', xml);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<FhirConvertResult>().unconverted_sections).toEqual(['Advance Directives']);
  });

  it('not XML, not a C-CDA, too large: a 400 in the reader’s language, nothing written', async () => {
    const notXml = await convert('bob', '{"resourceType": "Bundle"}');
    expect(notXml.statusCode).toBe(400);
    expect(notXml.json()).toEqual({ detail: 'This file is not readable XML, so it is not a C-CDA document. Nothing was imported.' });
    const html = await convert('bob', '<?xml version="1.0"?><html><body>hello</body></html>', {}, 'el');
    expect(html.statusCode).toBe(400);
    expect(html.json()).toEqual({ detail: 'Αυτό το αρχείο XML δεν είναι έγγραφο C-CDA (ClinicalDocument του HL7 CDA). Δεν εισήχθη τίποτα.' });
    const broken = await convert('bob', '<ClinicalDocument xmlns="urn:hl7-org:v3"><title>x</title></ClinicalDocument>', { keep_document: true });
    expect(broken.statusCode).toBe(400);
    const big = await convert('bob', `<ClinicalDocument>${' '.repeat(10 * 1024 * 1024)}</ClinicalDocument>`);
    expect(big.statusCode).toBe(400);
    expect(big.json()).toEqual({ detail: 'The document is too large. The limit is 10 MB.' });
    expect(await documentsOf('bob')).toEqual([]);
  });

  it('another patient, and another organisation, cannot convert into someone else’s record (404)', async () => {
    const bob = (await call('bob', '/api/v1/patients/', undefined, 'en', 'GET')).json<Array<{ patient_id: number }>>()[0]!.patient_id;
    const xml = buildCcda();
    expect((await convert('anna', xml, { patient: bob })).statusCode).toBe(404);
    expect((await convert('stranger', xml, { patient: bob, keep_document: true })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/fhir/convert/', payload: { format: 'ccda', document: xml } })).statusCode).toBe(401);
    expect(await documentsOf('bob')).toEqual([]);
  });
});

describe('an International Patient Summary (a document Bundle)', () => {
  it('imports the sections’ resources; the Composition is skipped with why', async () => {
    const preview = await importInto('ines', ipsBundle());
    expect(preview.statusCode, preview.body).toBe(200);
    const result = preview.json<FhirImportResult>();
    expect(result.items.find((i) => i.resource_type === 'Composition')).toMatchObject({ status: 'skipped', category: null });
    expect(result.items.filter((i) => i.status === 'new').map((i) => i.category).sort()).toEqual(['allergy', 'condition', 'immunization', 'lab', 'medication']);
    const accepted = (await importInto('ines', ipsBundle(), keysOf(result))).json<FhirImportResult>();
    expect(accepted.imported).toBe(5);
    expect(await recordsOf('ines', 'medication')).toEqual([expect.stringContaining('Metformin 500 mg tablet')]);
    expect(keysOf((await importInto('ines', ipsBundle())).json<FhirImportResult>())).toEqual([]);
  });
});
