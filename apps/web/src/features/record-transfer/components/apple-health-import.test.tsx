import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AppleHealthImport, FhirImportResult } from '@healthbook/shared/contracts/exports';
import { json, mockFetch, renderPage, signedInPageTests } from '../../../test/render-page';
import FhirTransferPage from './fhir-transfer-page';

/**
 * The Apple Health part of the record-transfer page: the export uploaded (its progress), read by
 * the server (polled), what it holds; its clinical records through the page's one preview, its
 * measurements added (polled again) and summed up; a failed reading says why in the server's words.
 */

const none = { read: 0, kept: 0, refused: 0, from: null, to: null };
const reading = (over: Partial<AppleHealthImport> = {}): AppleHealthImport => ({
  id: 5,
  status: 'reading',
  file_name: 'export.zip',
  thin: 'day',
  time_zone: 'Europe/Athens',
  progress: { done: 60, total: 100 },
  error: null,
  counts: null,
  measurements: null,
  created_at: '2026-11-28T00:00:00.000Z',
  updated_at: '2026-11-28T00:00:00.000Z',
  ...over,
});
const counts: NonNullable<AppleHealthImport['counts']> = {
  measures: {
    weight: { read: 80, kept: 40, refused: 0, from: '2023-01-01', to: '2023-02-09' },
    height: none,
    blood_pressure: none,
    heart_rate: { read: 200, kept: 40, refused: 2, from: '2023-01-01', to: '2023-02-09' },
    glucose: none,
    temperature: none,
    oxygen_saturation: none,
  },
  clinical: { read: 6, failed: 1 },
  problems: ['clinical-records/Observation-broken.json: not JSON'],
};
const ready = reading({ status: 'ready', progress: { done: 100, total: 100 }, counts });
const bundle = { resourceType: 'Bundle' as const, type: 'collection', entry: [{ resource: { resourceType: 'AllergyIntolerance', code: { text: 'Penicillin' } } }] };
const preview: FhirImportResult = {
  preview: true,
  items: [{ key: '0:AllergyIntolerance', resource_type: 'AllergyIntolerance', category: 'allergy', title: 'Penicillin', date: null, status: 'new', reason: null }],
  imported: 0,
  duplicates: 0,
  skipped: 0,
  invalid: 0,
};

/** The server: the import as the test sets it, the measurements' start, the clinical bundle, the FHIR preview. */
function server() {
  const state = { current: reading() };
  const calls = mockFetch((call) => {
    if (call.url === '/api/v1/fhir/apple-health/5/' && call.method === 'GET') return json(200, state.current);
    if (call.url === '/api/v1/fhir/apple-health/5/' && call.method === 'DELETE') return new Response(null, { status: 204 });
    if (call.url === '/api/v1/fhir/apple-health/5/measurements/') return json(202, (state.current = reading({ status: 'importing', counts, progress: { done: 16, total: 40 } })));
    if (call.url === '/api/v1/fhir/apple-health/5/clinical/') return json(200, { bundle });
    if (call.url === '/api/v1/fhir/import/') return json(200, preview);
    return json(404, { detail: 'Not found.' });
  });
  return { state, calls };
}

/** XMLHttpRequest (the upload's): reports 45 % sent, then answers 202 once `release` is called. */
function fakeUpload() {
  const sent: Array<{ url: string; file: FormDataEntryValue | null }> = [];
  let release = () => {};
  const arrived = new Promise<void>((resolve) => (release = resolve));
  class FakeXhr {
    upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    status = 0;
    responseText = '';
    private url = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    send(form: FormData) {
      sent.push({ url: this.url, file: form.get('file') });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 45, total: 100 });
      void arrived.then(() => {
        this.status = 202;
        this.responseText = JSON.stringify(reading({ progress: { done: 0, total: 100 } }));
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return { sent, release: () => release() };
}

const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x08, 0x00]);
const zipFile = (name = 'export.zip') => new File([ZIP], name, { type: 'application/zip' });
const render = () => renderPage({ path: 'health-record/fhir', element: <FhirTransferPage />, at: '/healthbook/health-record/fhir' });
const section = () => screen.findByRole('region', { name: 'Apple Health' });

describe('the record-transfer page’s Apple Health import', () => {
  signedInPageTests();

  it('uploads, follows the reading, sums up what it holds, adds the chosen measurements and says how many', async () => {
    const { state, calls } = server();
    const upload = fakeUpload();
    await render();
    const part = await section();
    fireEvent.click(within(part).getByRole('radio', { name: 'Every reading' }));
    fireEvent.change(within(part).getByLabelText('Choose export.zip'), { target: { files: [zipFile()] } });

    const sending = await within(part).findByRole('progressbar', { name: 'Uploading export.zip…' });
    expect(sending.getAttribute('aria-valuetext')).toBe('45%');
    expect(within(part).getByText('Uploading export.zip… 45%')).toBeTruthy();
    expect(within(part).getByRole('status').textContent).toBe('Uploading export.zip…');
    expect(upload.sent).toHaveLength(1);
    expect(upload.sent[0]!.url).toMatch(/^\/api\/v1\/fhir\/apple-health\/\?thin=none&time_zone=/);
    expect((upload.sent[0]!.file as File).name).toBe('export.zip');
    upload.release();

    const read = await within(part).findByRole('progressbar', { name: 'Reading your export…' });
    await waitFor(() => expect(read.getAttribute('aria-valuetext')).toBe('60%'));
    expect(within(part).getByRole('status').textContent).toBe('Reading your export…');
    expect(within(part).getByRole('button', { name: 'Cancel' })).toBeTruthy();

    state.current = ready;
    expect(await within(part).findByText('6 clinical records found. 1 could not be read.', undefined, { timeout: 3000 })).toBeTruthy();
    expect(within(part).getByRole('status').textContent).toBe('export.zip was read.');
    const list = within(part).getByRole('list', { name: 'Measurements' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText('40 readings · 1 January 2023 to 9 February 2023 · 2 left out (an unknown unit or a value out of range)')).toBeTruthy();
    expect(within(part).getByText('Not in this export: Height, Blood pressure, Glucose, Temperature, Oxygen saturation.')).toBeTruthy();
    expect(within(part).getByText('Details for support (in English)')).toBeTruthy();
    expect(within(part).getByText('clinical-records/Observation-broken.json: not JSON')).toBeTruthy();

    const heartRate = within(list).getByRole('checkbox', { name: /^Heart rate/ }) as HTMLInputElement;
    expect(heartRate.checked).toBe(true);
    fireEvent.click(heartRate);
    fireEvent.click(within(part).getByRole('button', { name: 'Add 40 measurements' }));
    const adding = await within(part).findByRole('progressbar', { name: 'Adding measurements…' });
    expect(adding.getAttribute('aria-valuetext')).toBe('40%');
    expect(calls.find((c) => c.url === '/api/v1/fhir/apple-health/5/measurements/')?.body).toEqual({ measures: ['weight'] });

    state.current = reading({ status: 'done', counts, progress: { done: 40, total: 40 }, measurements: { imported: 38, duplicates: 2, skipped: 0, invalid: 0, measures: ['weight'] } });
    expect(await within(part).findByText('Added 38 measurements. 2 already in your record.', undefined, { timeout: 3000 })).toBeTruthy();
    expect(within(part).getByRole('link', { name: 'Your measurements' }).getAttribute('href')).toBe('/healthbook/health-record/biometrics');
    expect(within(part).queryByRole('progressbar')).toBeNull();
  });

  it('a reading that failed: the server’s words, and another file to choose; too large or not a zip, nothing is sent', async () => {
    const { state } = server();
    const upload = fakeUpload();
    await render();
    const part = await section();
    const huge = zipFile();
    Object.defineProperty(huge, 'size', { value: 3 * 1024 ** 3 });
    fireEvent.change(within(part).getByLabelText('Choose export.zip'), { target: { files: [huge] } });
    expect((await within(part).findByRole('alert')).textContent).toBe('export.zip is larger than 2 GB.');
    fireEvent.change(within(part).getByLabelText('Choose export.zip'), { target: { files: [new File(['%PDF-1.7'], 'export.zip')] } });
    await waitFor(() => expect(within(part).getByRole('alert').textContent).toBe('export.zip is not a zip file. Choose the export.zip the Health app shares.'));
    expect(upload.sent).toHaveLength(0);

    state.current = reading({ status: 'failed', error: { code: 'no_health_data', message: 'This zip holds no Apple Health data (no export.xml).' } });
    upload.release();
    fireEvent.change(within(part).getByLabelText('Choose export.zip'), { target: { files: [zipFile()] } });
    expect((await within(part).findByRole('alert')).textContent).toContain('This zip holds no Apple Health data (no export.xml).');
    expect(within(part).getByRole('button', { name: 'Choose another file' })).toBeTruthy();
  });

  it('a zip chosen in the page’s own file chooser goes to Apple Health; its clinical records go to the page’s one preview', async () => {
    const { state, calls } = server();
    state.current = ready;
    const upload = fakeUpload();
    upload.release();
    await render();
    fireEvent.change(await screen.findByLabelText('Choose a file'), { target: { files: [zipFile('Export (1).zip')] } });
    const part = await section();
    fireEvent.click(await within(part).findByRole('button', { name: 'Review 6 clinical records' }));
    const shown = await screen.findByRole('region', { name: 'What export.zip holds' });
    expect(within(shown).getByRole('checkbox', { name: 'Import Penicillin' })).toBeTruthy();
    expect(upload.sent).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/api/v1/fhir/import/').map((c) => c.body)).toEqual([{ bundle }]);
  });
});
