import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Share, ShareAccess } from '@healthbook/shared/contracts/sharing';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import SharePage from './share-page';
import SharesPage from './shares-page';

const share = (extra: Partial<Share> = {}): Share => ({
  id: 31,
  kind: 'records',
  method: 'link',
  status: 'active',
  recipient_name: 'Dr Eleni Kosta',
  recipient_email: 'eleni@example.com',
  categories: ['condition', 'lab'],
  records: [{ id: 12, record_type: 'allergy', title: 'Penicillin' }],
  documents: [],
  insurance: false,
  message: 'For Monday',
  created_at: '2026-11-24T10:00:00Z',
  expires_at: '2026-12-01T10:00:00Z',
  revoked_at: null,
  failed_attempts: 0,
  opened_count: 2,
  last_opened_at: '2026-11-25T09:15:00Z',
  ...extra,
});

const access = (extra: Partial<ShareAccess> = {}): ShareAccess => ({
  id: 1,
  opened_at: '2026-11-25T09:15:00Z',
  action: 'viewed',
  recipient_name: 'Dr Eleni Kosta',
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  shown: { categories: ['condition', 'lab'], records: 5, documents: 0 },
  ...extra,
});

describe('my shares', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists each share with its status, and revokes one once confirmed', { timeout: 20_000 }, async () => {
    let current = [share(), share({ id: 30, method: 'qr', kind: 'documents', categories: [], records: [], documents: [{ id: 5, file_name: 'ECG.pdf' }], status: 'expired', recipient_name: 'Nikos', opened_count: 0, last_opened_at: null })];
    const calls = mockFetch((call) => {
      if (call.url === '/api/v1/sharing/') return json(200, current);
      if (call.url === '/api/v1/sharing/31/revoke/') {
        current = [share({ status: 'revoked', revoked_at: '2026-11-26T08:00:00Z' }), current[1]!];
        return json(200, current[0]);
      }
      return json(404, { detail: 'Not found.' });
    });
    await renderPage({ path: 'sharing', element: <SharesPage />, at: '/healthbook/sharing' });
    await screen.findByRole('heading', { level: 1, name: 'Share my record' });
    const first = (await screen.findByRole('link', { name: /Dr Eleni Kosta/ })).closest('tr, li') as HTMLElement;
    expect(within(first).getByText('Conditions, Lab results, 1 record')).toBeTruthy();
    expect(within(first).getByText('Active')).toBeTruthy();
    expect(within(first).getByText('Link by e-mail')).toBeTruthy();
    expect(within(first).getByText(/^2 times · last on /)).toBeTruthy();
    const second = screen.getByRole('link', { name: /Nikos/ }).closest('tr, li') as HTMLElement;
    expect(within(second).getByText('Expired')).toBeTruthy();
    expect(within(second).getByText('1 document')).toBeTruthy();
    expect(within(second).getByText('Not opened yet')).toBeTruthy();
    // An expired share has nothing left to revoke.
    expect(within(second).queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(screen.getByRole('link', { name: /Dr Eleni Kosta/ }).getAttribute('href')).toBe('/healthbook/sharing/31');

    fireEvent.click(within(first).getByRole('button', { name: 'Revoke the share with Dr Eleni Kosta' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this share?' });
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('The share with Dr Eleni Kosta was revoked.')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('link', { name: /Dr Eleni Kosta/ }).closest('tr, li') as HTMLElement).getByText('Revoked')).toBeTruthy());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/v1/sharing/31/revoke/']);
  });

  it('says when there is none yet, and leads to a new one', { timeout: 20_000 }, async () => {
    mockFetch(() => json(200, []));
    await renderPage({ path: 'sharing', element: <SharesPage />, at: '/healthbook/sharing' });
    expect(await screen.findByText('You have not shared your record yet.')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'New share' })[0]!.getAttribute('href')).toBe('/healthbook/sharing/new');
  });
});

describe('a share’s page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows what is shared and who saw it', { timeout: 20_000 }, async () => {
    mockFetch((call) => {
      if (call.url === '/api/v1/sharing/31/') return json(200, share());
      if (call.url === '/api/v1/sharing/31/accesses/') return json(200, [access(), access({ id: 2, action: 'verified', shown: { categories: [], records: 0, documents: 0 }, user_agent: null, ip: null })]);
      return json(404, { detail: 'Not found.' });
    });
    await renderPage({ path: 'sharing/:id', element: <SharePage />, at: '/healthbook/sharing/31' });
    await screen.findByRole('heading', { level: 1, name: 'Share with Dr Eleni Kosta' });
    const what = screen.getByRole('region', { name: 'What is shared' });
    expect(within(what).getByText('Conditions')).toBeTruthy();
    expect(within(what).getByRole('link', { name: 'Penicillin' }).getAttribute('href')).toBe('/healthbook/health-record/allergy/12');
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByText('eleni@example.com')).toBeTruthy();
    expect(within(details).getByText('For Monday')).toBeTruthy();
    expect(within(details).getByText('0 of 5')).toBeTruthy();

    const log = screen.getByRole('region', { name: 'Who saw it' });
    expect(await within(log).findByText('Viewed the record')).toBeTruthy();
    expect(within(log).getByText('Chrome on Android')).toBeTruthy();
    expect(within(log).getByText('203.0.113.7')).toBeTruthy();
    expect(within(log).getByText('Conditions, Lab results, 5 records')).toBeTruthy();
    expect(within(log).getByText('Code accepted')).toBeTruthy();
    expect(within(log).getByText('Unknown browser')).toBeTruthy();
  });

  it('unlocks a locked QR share with a new QR code and passcode, shown once', { timeout: 20_000 }, async () => {
    let current = share({ method: 'qr', status: 'locked', failed_attempts: 5 });
    const calls = mockFetch((call) => {
      if (call.url === '/api/v1/sharing/31/') return json(200, current);
      if (call.url === '/api/v1/sharing/31/accesses/') return json(200, []);
      if (call.url === '/api/v1/sharing/31/reissue/') {
        current = share({ method: 'qr', status: 'active', failed_attempts: 0 });
        return json(200, { ...current, url: 'http://localhost/healthbook/sharedqrcoderecords/AbCdEfGh12/zyxwvutsrqponmlkjihgfedcba543210', passcode: '104729' });
      }
      return json(404, { detail: 'Not found.' });
    });
    await renderPage({ path: 'sharing/:id', element: <SharePage />, at: '/healthbook/sharing/31' });
    expect(await screen.findByText('This share is locked: 5 wrong passcodes were entered. Make a new QR code and passcode to open it again.')).toBeTruthy();
    expect(await screen.findByText('Nobody has opened this share yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New QR code and passcode' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make a new QR code and passcode?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'New QR code and passcode' }));
    expect(await screen.findByTestId('share-passcode')).toBeTruthy();
    expect(screen.getByTestId('share-passcode').textContent).toBe('104729');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/v1/sharing/31/reissue/']);
    await waitFor(() => expect(screen.queryByText(/This share is locked/)).toBeNull());
    expect(screen.getByText('Active')).toBeTruthy();
  });

  it('offers nothing more for a revoked share', { timeout: 20_000 }, async () => {
    mockFetch((call) => {
      if (call.url === '/api/v1/sharing/31/') return json(200, share({ status: 'revoked', revoked_at: '2026-11-26T08:00:00Z' }));
      if (call.url === '/api/v1/sharing/31/accesses/') return json(200, []);
      return json(404, { detail: 'Not found.' });
    });
    await renderPage({ path: 'sharing/:id', element: <SharePage />, at: '/healthbook/sharing/31' });
    expect(await screen.findByText('Revoked')).toBeTruthy();
    expect(screen.getByText('Revoked on')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Revoke' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send a new link' })).toBeNull();
  });

  it('says so when the share is not the patient’s', { timeout: 20_000 }, async () => {
    mockFetch(() => json(404, { detail: 'Not found.' }));
    await renderPage({ path: 'sharing/:id', element: <SharePage />, at: '/healthbook/sharing/99' });
    expect(await screen.findByText('This share does not exist or is not yours.')).toBeTruthy();
  });
});
