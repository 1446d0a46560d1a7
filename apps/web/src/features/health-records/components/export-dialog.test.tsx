import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { i18n, i18nReady } from '../../../lib/i18n';
import { RECORD_NAMESPACES } from '../../../lib/record-text';
import { ExportDialog } from './export-dialog';

beforeAll(async () => {
  await i18nReady;
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces([...RECORD_NAMESPACES]);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PDF = new TextEncoder().encode('%PDF-1.3 a small PDF');

const STATUS_URL = '/api/v1/hr/export/tok_tok_tok_tok_tok/status/';
const running = { status: 'running', progress: 0, status_url: STATUS_URL, url: null, expires_at: '2026-11-25T12:15:00.000Z', records: 0, detail: null };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The API as the dialog meets it: the export asked for at once (202, held until `release`), its
 * state half-way, then made (or `failing`: failed, with the server's reason), then the PDF in two chunks.
 */
function fakeApi({ failing = false } = {}) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const calls: Array<{ url: string; method: string; body: unknown; headers: Record<string, string> }> = [];
  let polls = 0;
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : null, headers: (init.headers ?? {}) as Record<string, string> });
    if (url === '/api/v1/hr/export/') {
      await held;
      return json(202, running);
    }
    if (url === STATUS_URL) {
      polls++;
      if (polls === 1) return json(200, { ...running, progress: 0.5, records: 2 });
      if (failing) return json(200, { ...running, status: 'failed', records: 2, detail: 'Making the PDF was interrupted. Please ask for it again.' });
      return json(200, { ...running, status: 'done', progress: 1, url: '/api/v1/hr/export/tok_tok_tok_tok_tok/', records: 2 });
    }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(PDF.slice(0, 8));
        controller.enqueue(PDF.slice(8));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/pdf', 'content-length': String(PDF.length) } });
  });
  vi.stubGlobal('fetch', fetch);
  return { calls, release };
}

function renderDialog(props: Partial<Parameters<typeof ExportDialog>[0]> = {}) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ExportDialog open onClose={() => undefined} categories={['condition']} {...props} />
    </QueryClientProvider>,
  );
}

describe('the export dialog', { timeout: 30_000 }, () => {
  it("starts from the page's category, shows the wait message while the PDF is made, then offers the PDF where the pop-up is blocked", async () => {
    const api = fakeApi();
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost/pdf-1');
    URL.revokeObjectURL = vi.fn();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderDialog();

    const dialog = await screen.findByRole('dialog', { name: 'Export your health record as a PDF' });
    expect(within(dialog).getByRole('checkbox', { name: 'Conditions' })).toHaveProperty('checked', true);
    expect(within(dialog).getByRole('checkbox', { name: 'Medications' })).toHaveProperty('checked', false);
    expect(within(dialog).getByRole('switch', { name: 'Include private records' })).toHaveProperty('checked', false);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Medications' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export PDF' }));

    const waiting = await within(dialog).findByRole('status');
    expect(waiting.textContent).toContain('Please wait while your health record is being exported');
    expect(within(waiting).getByRole('progressbar')).toBeTruthy();
    api.release();
    // The server's progress, as it makes the PDF.
    await waitFor(() => expect(within(dialog).getByRole('progressbar', { name: 'Making the PDF…' }).getAttribute('aria-valuenow')).toBe('50'));

    expect(await within(dialog).findByText('Your PDF is ready.')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Open the PDF' }).getAttribute('href')).toBe('blob:http://localhost/pdf-1');
    expect(open).toHaveBeenCalledWith('blob:http://localhost/pdf-1', '_blank');
    expect(api.calls[0]).toMatchObject({ url: '/api/v1/hr/export/', method: 'POST', body: { types: ['condition', 'medication'], include_private: false, language: 'en' } });
    expect(api.calls[0]!.headers).toMatchObject({ Prefer: 'respond-async' });
    expect(api.calls[0]!.body).not.toHaveProperty('record_ids');
    expect(api.calls.slice(1).map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${STATUS_URL}`, `GET ${STATUS_URL}`, 'GET /api/v1/hr/export/tok_tok_tok_tok_tok/']);
  });

  it("an export that fails while it is made says why, and the patient can ask again", async () => {
    const api = fakeApi({ failing: true });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Export your health record as a PDF' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export PDF' }));
    api.release();
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('Making the PDF was interrupted. Please ask for it again.'));
    expect(within(dialog).getByRole('button', { name: 'Export PDF' })).toHaveProperty('disabled', false);
  });

  it("a record's page exports that record, its privacy carried over; a refusal is shown in the dialog", async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ 'types.0': ['This is not a health record category.'] }), { status: 400, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    renderDialog({ recordIds: [7], includePrivate: true });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('switch', { name: 'Only the chosen record' })).toHaveProperty('checked', true);
    expect(within(dialog).queryByRole('checkbox', { name: 'Conditions' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export PDF' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('This is not a health record category.'));
    const sent = JSON.parse(String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body)) as Record<string, unknown>;
    expect(sent).toMatchObject({ types: ['condition'], record_ids: [7], include_private: true });
  });

  it('refuses to export nothing', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Conditions' }));
    expect(within(dialog).getByText('Choose at least one category.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Export PDF' })).toHaveProperty('disabled', true);
  });

  it('offers the mental-health assessments when the organisation has surveys on: off by default, enough on their own', async () => {
    const api = fakeApi();
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost/pdf-2');
    vi.spyOn(window, 'open').mockReturnValue(null);
    renderDialog({ offer: ['assessments'] });
    const dialog = await screen.findByRole('dialog');
    const assessments = within(dialog).getByRole('switch', { name: 'Include my mental-health assessments' });
    expect(assessments).toHaveProperty('checked', false);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Conditions' }));
    expect(within(dialog).getByRole('button', { name: 'Export PDF' })).toHaveProperty('disabled', true);
    fireEvent.click(assessments);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export PDF' }));
    api.release();
    await within(dialog).findByText('Your PDF is ready.');
    expect(api.calls[0]!.body).toMatchObject({ types: [], assessments: true });
  });

  it('offers the journal when the organisation has it on: off by default, enough on its own', async () => {
    const api = fakeApi();
    URL.createObjectURL = vi.fn(() => 'blob:http://localhost/pdf-3');
    vi.spyOn(window, 'open').mockReturnValue(null);
    renderDialog({ offer: ['journal'] });
    const dialog = await screen.findByRole('dialog');
    const journal = within(dialog).getByRole('switch', { name: 'Include my journal' });
    expect(journal).toHaveProperty('checked', false);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Conditions' }));
    expect(within(dialog).getByRole('button', { name: 'Export PDF' })).toHaveProperty('disabled', true);
    fireEvent.click(journal);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export PDF' }));
    api.release();
    await within(dialog).findByText('Your PDF is ready.');
    expect(api.calls[0]!.body).toMatchObject({ types: [], journal: true });
  });

  it('does not offer them otherwise', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('switch', { name: 'Include my mental-health assessments' })).toBeNull();
    expect(within(dialog).queryByRole('switch', { name: 'Include my journal' })).toBeNull();
  });
});
