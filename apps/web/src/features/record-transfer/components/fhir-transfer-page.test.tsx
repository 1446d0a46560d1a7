import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FhirConvertResult, FhirImportResult } from '@healthbook/shared/contracts/exports';
import { json, mockFetch, renderPage, signedInPageTests, type FetchCall } from '../../../test/render-page';
import { buildShl, encryptJwe } from '../test-fixtures';
import FhirTransferPage from './fhir-transfer-page';

/**
 * The import of the record-transfer page: a file told apart by its content (a FHIR file goes to
 * the preview as it is, a C-CDA is converted first, other XML is refused), a SMART Health Link
 * opened by the browser (its passcode asked for, a wrong one answered with the tries left); one
 * preview and one accept for all, and a C-CDA's original kept once the import is accepted.
 */

const bundle = { resourceType: 'Bundle' as const, type: 'collection', entry: [{ resource: { resourceType: 'AllergyIntolerance', code: { text: 'Penicillin G' } } }] };
const previewOf = (accepted: boolean): FhirImportResult => ({
  preview: !accepted,
  items: [
    { key: '0:Composition', resource_type: 'Composition', category: null, title: 'Composition', date: null, status: 'skipped', reason: 'The document’s table of contents: the entries of its sections are imported one by one.' },
    { key: '1:AllergyIntolerance', resource_type: 'AllergyIntolerance', category: 'allergy', title: 'Penicillin G', date: '1 January 2010', status: 'new', reason: null },
  ],
  imported: accepted ? 1 : 0,
  duplicates: 0,
  skipped: 1,
  invalid: 0,
});
const converted = (kept: boolean): FhirConvertResult => ({
  bundle,
  title: 'Summary of care',
  unconverted_sections: ['Advance Directives'],
  kept_documents: kept
    ? [
        { id: 3, file_name: 'summary.xml', content_type: 'application/xml', size: 120, url: '/api/v1/documents/3/file/', created_at: '2026-11-28T00:00:00.000Z', folder: null, origin: 'document', record: null },
        { id: 4, file_name: 'summary.pdf', content_type: 'application/pdf', size: 9000, url: '/api/v1/documents/4/file/', created_at: '2026-11-28T00:00:00.000Z', folder: null, origin: 'document', record: null },
      ]
    : [],
});
const CCDA = '<?xml version="1.0"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3"><title>Summary of care</title></ClinicalDocument>';

/** The API: the conversion, the import (a preview, or the accept). */
function api(extra?: (call: FetchCall) => Response | Promise<Response> | null) {
  return mockFetch(async (call) => {
    const answer = extra ? await extra(call) : null;
    if (answer) return answer;
    if (call.url === '/api/v1/fhir/convert/') return json(200, converted(Boolean((call.body as { keep_document?: boolean }).keep_document)));
    if (call.url === '/api/v1/fhir/import/') return json(200, previewOf(Boolean((call.body as { accept?: string[] }).accept)));
    return json(404, { detail: 'Not found.' });
  });
}

const choose = async (name: string, content: string, type: string) => {
  const input = await screen.findByLabelText('Choose a file');
  fireEvent.change(input, { target: { files: [new File([content], name, { type })] } });
};
const render = () => renderPage({ path: 'health-record/fhir', element: <FhirTransferPage />, at: '/healthbook/health-record/fhir' });

describe('the record-transfer page’s import', () => {
  signedInPageTests();

  it('a C-CDA is converted, previewed, accepted; then its original is kept in the Document Center', async () => {
    const calls = api();
    await render();
    // Named .txt and declared as text: the content decides.
    await choose('summary.txt', CCDA, 'text/plain');
    const preview = await screen.findByRole('region', { name: 'What summary.txt holds' });
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      ['/api/v1/fhir/convert/', { format: 'ccda', document: CCDA, file_name: 'summary.txt' }],
      ['/api/v1/fhir/import/', { bundle }],
    ]);
    expect(within(preview).getByText('These sections of the document are not imported as records: Advance Directives.')).toBeTruthy();
    expect(within(preview).getByText('When you import, the original document is also kept in your Document Center, with a readable copy, so nothing in it is lost.')).toBeTruthy();
    expect(within(preview).getAllByText('The document’s table of contents: the entries of its sections are imported one by one.').length).toBeGreaterThan(0);

    fireEvent.click(within(preview).getByRole('button', { name: 'Import 1 record' }));
    expect(await screen.findByText('The original document was kept in your Document Center, with a readable copy (PDF).')).toBeTruthy();
    expect(screen.getByText('1 record imported. 1 entry skipped.')).toBeTruthy();
    expect(calls.slice(2).map((c) => [c.url, c.body])).toEqual([
      ['/api/v1/fhir/import/', { bundle, accept: ['1:AllergyIntolerance'] }],
      ['/api/v1/fhir/convert/', { format: 'ccda', document: CCDA, file_name: 'summary.txt', keep_document: true }],
    ]);
  });

  it('a FHIR file goes to the preview as it is; other XML and other files are refused without a request', async () => {
    const calls = api();
    await render();
    await choose('bundle.xml', JSON.stringify(bundle), 'application/xml');
    await screen.findByRole('region', { name: 'What bundle.xml holds' });
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/fhir/import/']);
    expect(screen.queryByText(/original document/)).toBeNull();

    await choose('page.xml', '<?xml version="1.0"?><html><body/></html>', 'text/xml');
    expect((await screen.findByRole('alert')).textContent).toContain('page.xml is an XML file but not a C-CDA document.');
    await choose('scan.pdf', '%PDF-1.7', 'application/pdf');
    expect((await screen.findByRole('alert')).textContent).toContain('scan.pdf is neither a FHIR file (JSON) nor a C-CDA document (XML).');
    expect(calls).toHaveLength(1);
  });

  it('a C-CDA the server refuses: its reason, no preview', async () => {
    api((call) => (call.url === '/api/v1/fhir/convert/' ? json(400, { detail: 'This C-CDA document could not be converted. Nothing was imported. You can still upload it to your Document Center.' }) : null));
    await render();
    await choose('odd.xml', CCDA, 'text/xml');
    expect((await screen.findByRole('alert')).textContent).toBe('odd.xml could not be imported. This C-CDA document could not be converted. Nothing was imported. You can still upload it to your Document Center.');
    expect(screen.queryByRole('region', { name: /holds/ })).toBeNull();
  });

  it('a SMART Health Link: the passcode asked for; a wrong one says the tries left; the right one opens the same preview', async () => {
    const { key, link } = buildShl();
    const embedded = await encryptJwe(JSON.stringify(bundle), key);
    const calls = api((call) => {
      if (call.url !== 'https://shl.example.org/api/v1/shl/abc/def') return null;
      return (call.body as { passcode: string }).passcode === '123456' ? json(200, { files: [{ contentType: 'application/fhir+json', embedded }, { contentType: 'application/smart-health-card', embedded: 'a.b.c' }] }) : json(401, { detail: 'Wrong code.', remainingAttempts: 2 });
    });
    await render();
    const form = await screen.findByRole('form', { name: 'Open a SMART Health Link' });
    expect(within(form).queryByLabelText('Passcode')).toBeNull();
    fireEvent.change(within(form).getByLabelText('SMART Health Link'), { target: { value: `https://viewer.example.org/#${link}` } });
    const passcode = within(form).getByLabelText('Passcode');
    fireEvent.click(within(form).getByRole('button', { name: 'Open link' }));
    expect((await within(form).findByRole('alert')).textContent).toBe("Enter the link's passcode.");

    fireEvent.change(passcode, { target: { value: '000000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Open link' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('The passcode is wrong. 2 tries left.'));

    fireEvent.change(passcode, { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Open link' }));
    const preview = await screen.findByRole('region', { name: 'What Health record of Maria holds' });
    expect(within(preview).getByText('The link also holds 1 file that cannot be imported here (application/smart-health-card), such as a SMART Health Card.')).toBeTruthy();
    const manifest = calls.filter((c) => c.url.startsWith('https://'));
    expect(manifest.map((c) => c.body)).toEqual([
      { recipient: 'Μαρία Papadopoulou, HealthBook', passcode: '000000' },
      { recipient: 'Μαρία Papadopoulou, HealthBook', passcode: '123456' },
    ]);
    // The link's server got no session: no Authorization header went to it.
    expect(manifest.every((c) => !('Authorization' in c.headers) && !('authorization' in c.headers))).toBe(true);
    expect(calls.filter((c) => c.url === '/api/v1/fhir/import/').map((c) => c.body)).toEqual([{ bundle }]);
  });

  it('a pasted text that is not a link says so', async () => {
    api();
    await render();
    const form = await screen.findByRole('form', { name: 'Open a SMART Health Link' });
    fireEvent.change(within(form).getByLabelText('SMART Health Link'), { target: { value: 'https://example.org/records' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Open link' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('This is not a SMART Health Link. Paste the whole address: it starts with shlink:/ or holds #shlink:/.');
  });
});
