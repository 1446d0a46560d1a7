import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, mockFetch, renderPage, type FetchCall } from '../../../test/render-page';
import NewSharePage from './new-share-page';

const summary = {
  patient: 1,
  total: 6,
  categories: [
    { category: 'condition', name: 'Conditions', count: 2, latest_date: null, latest_date_part: null, last_updated: null },
    { category: 'lab', name: 'Lab results', count: 3, latest_date: null, latest_date_part: null, last_updated: null },
  ],
  recent: [],
};

const record = (id: number, test: string, extra: Record<string, unknown> = {}) => ({
  id,
  record_type: 'lab',
  patient: 1,
  private: false,
  attachments: [],
  version: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  test,
  ...extra,
});
const labs = { count: 3, next: null, previous: null, results: [record(12, 'HbA1c'), record(13, 'Lipid panel'), record(14, 'HIV test', { private: true })] };

const document = (id: number, file_name: string, attached: { id: number; record_type: string; title: string } | null = null) => ({
  id,
  file_name,
  content_type: 'application/pdf',
  size: 2048,
  url: `/api/v1/documents/${id}/file/`,
  created_at: '2026-02-01T10:00:00Z',
  folder: null,
  origin: 'document',
  record: attached,
});

const created = (body: Record<string, unknown>) => ({
  id: 31,
  kind: body.kind,
  method: body.method,
  status: 'active',
  recipient_name: body.recipient_name,
  recipient_email: body.recipient_email,
  categories: body.categories,
  records: [],
  documents: [],
  message: null,
  created_at: '2026-11-24T10:00:00Z',
  expires_at: '2026-12-01T10:00:00Z',
  revoked_at: null,
  failed_attempts: 0,
  opened_count: 0,
  last_opened_at: null,
  url: 'http://localhost/healthbook/sharedqrcoderecords/AbCdEfGh12/abcdefghijklmnopqrstuvwxyz012345',
  passcode: body.method === 'qr' ? '482913' : null,
  smart_health_link: body.method === 'qr' ? 'shlink:/eyJ1cmwiOiJodHRwOi8vbG9jYWxob3N0In0' : null,
});

/** The API of the page: the summary, a category's records, the documents and their records, and the share made. */
function api(onCreate: (call: FetchCall) => Response = (call) => json(201, created(call.body as Record<string, unknown>))) {
  return mockFetch((call) => {
    if (call.url === '/api/v1/hr/summary/') return json(200, summary);
    if (call.url === '/api/v1/hr/lab/?page_size=100') return json(200, labs);
    if (call.url === '/api/v1/documents/') return json(200, [document(5, 'ECG report.pdf'), document(6, 'Counselling letter.pdf', { id: 40, record_type: 'medicalvisit', title: 'Counselling session' })]);
    if (call.url === '/api/v1/hr/medicalvisit/40/') return json(200, { ...record(40, ''), record_type: 'medicalvisit', private: true });
    if (call.url === '/api/v1/sharing/' && call.method === 'POST') return onCreate(call);
    return json(404, { detail: 'Not found.' });
  });
}

const open = (query = '') => renderPage({ path: 'sharing/new', element: <NewSharePage />, at: `/healthbook/sharing/new${query}` });

function fillRecipient() {
  fireEvent.change(screen.getByRole('textbox', { name: /Recipient's name/ }), { target: { value: 'Dr Eleni Kosta' } });
  fireEvent.change(screen.getByRole('textbox', { name: /Recipient's e-mail/ }), { target: { value: 'eleni@example.com' } });
}

/** The shares sent (the organisation's features are asked for with a POST too). */
const posts = (calls: FetchCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/v1/sharing/');

describe('the new share page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shares a record the records page chose, by QR code, and shows the code and the passcode once', { timeout: 20_000 }, async () => {
    const calls = api();
    await open('?record=12&category=lab');
    await screen.findByRole('heading', { level: 1, name: 'New share' });
    const list = await screen.findByRole('group', { name: 'Records of Lab results' });
    expect((within(list).getByRole('checkbox', { name: /HbA1c/ }) as HTMLInputElement).checked).toBe(true);
    // A private record is shown, and cannot be chosen.
    const secret = within(list).getByRole('checkbox', { name: /HIV test.*Private — cannot be shared/ }) as HTMLInputElement;
    expect(secret.disabled).toBe(true);
    expect(screen.getByText('1 record chosen')).toBeTruthy();
    // The category counts come from the summary.
    expect(screen.getByRole('checkbox', { name: /Lab results\s*3 records/ })).toBeTruthy();

    fillRecipient();
    fireEvent.click(screen.getByRole('radio', { name: /QR code/ }));
    fireEvent.click(screen.getByRole('radio', { name: '30 days' }));
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));

    await screen.findByRole('heading', { level: 1, name: 'Your share is ready' });
    expect(posts(calls)).toHaveLength(1);
    expect(posts(calls)[0]!.body).toEqual({
      kind: 'records',
      categories: [],
      record_ids: [12],
      document_ids: [],
      insurance: false,
      recipient_name: 'Dr Eleni Kosta',
      recipient_email: 'eleni@example.com',
      method: 'qr',
      expires_in: '30d',
      language: 'en',
    });
    expect(screen.getByTestId('share-passcode').textContent).toBe('482913');
    expect(screen.getByLabelText('SMART Health Link')).toHaveProperty('value', 'shlink:/eyJ1cmwiOiJodHRwOi8vbG9jYWxob3N0In0');
    expect(screen.getByText(/it is shown only once/)).toBeTruthy();
    // The QR code of the address, as a PNG to download.
    const download = await screen.findByRole('link', { name: 'Download PNG' });
    expect(download.getAttribute('href')).toMatch(/^data:image\/png;base64,/);
    expect(download.getAttribute('download')).toBe('share-qr-code-31.png');
    expect(screen.getByRole('img', { name: 'QR code of the share for Dr Eleni Kosta' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See this share' }).getAttribute('href')).toBe('/healthbook/sharing/31');
  });

  it('shares whole categories by link, and says the link was e-mailed', { timeout: 20_000 }, async () => {
    const calls = api();
    await open('?category=lab');
    expect((await screen.findByRole('checkbox', { name: /Lab results/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(await screen.findByRole('checkbox', { name: /Conditions\s*2 records/ }));
    // The picker shows the category chosen whole as chosen already.
    expect(await screen.findByText('All of Lab results is chosen already.')).toBeTruthy();
    fillRecipient();
    fireEvent.change(screen.getByRole('textbox', { name: 'Message to the recipient' }), { target: { value: 'For Monday' } });
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));

    expect(await screen.findByText('A link was e-mailed to Dr Eleni Kosta (eleni@example.com); they will get a code by e-mail to open it.')).toBeTruthy();
    expect(posts(calls)[0]!.body).toMatchObject({ kind: 'records', categories: ['lab', 'condition'], record_ids: [], method: 'link', expires_in: '7d', message: 'For Monday' });
    expect((screen.getByRole('textbox', { name: 'Link' }) as HTMLInputElement).value).toContain('/sharedqrcoderecords/');
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
  });

  it('says what is missing before sending anything', { timeout: 20_000 }, async () => {
    const calls = api();
    await open();
    await screen.findByRole('heading', { level: 1, name: 'New share' });
    fireEvent.click(screen.getByRole('radio', { name: 'Until a date and time' }));
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Choose what to share: at least one category, record or document.')).toBeTruthy();
    expect(screen.getByText("Enter the recipient's name.")).toBeTruthy();
    expect(screen.getByText('E-mail is required')).toBeTruthy();
    expect(screen.getByText('Choose the date and time the share expires.')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
  });

  it('puts the server’s refusals under their fields', { timeout: 20_000 }, async () => {
    const calls = api(() => json(400, { recipient_email: ['This address cannot receive mail.'], record_ids: ['This record cannot be shared: it is private or no longer exists.'] }));
    await open('?category=condition');
    await screen.findByRole('checkbox', { name: /Conditions/ });
    fillRecipient();
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('This address cannot receive mail.')).toBeTruthy();
    expect(screen.getByText('This record cannot be shared: it is private or no longer exists.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'New share' })).toBeTruthy();
    expect(posts(calls)).toHaveLength(1);
  });

  it('offers documents, not those of a private record', { timeout: 20_000 }, async () => {
    const calls = api();
    await open('?document=5');
    const ecg = (await screen.findByRole('checkbox', { name: /ECG report\.pdf/ })) as HTMLInputElement;
    expect(ecg.checked).toBe(true);
    const letter = screen.getByRole('checkbox', { name: /Counselling letter\.pdf/ }) as HTMLInputElement;
    await waitFor(() => expect(screen.getByRole('checkbox', { name: /Counselling letter\.pdf.*private record — cannot be shared/ })).toBeTruthy());
    expect(letter.disabled).toBe(true);
    fillRecipient();
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await screen.findByRole('heading', { level: 1, name: 'Your share is ready' });
    expect(posts(calls)[0]!.body).toMatchObject({ kind: 'documents', categories: [], record_ids: [], document_ids: [5] });
  });
});
