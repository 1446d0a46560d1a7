import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import type { SourceConnection } from '@healthbook/shared/contracts/sources';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import ConnectionCallbackPage from './connection-callback-page';

const CALLBACK = '/api/v1/sources/callback/';
const connection: SourceConnection = {
  id: 3,
  source_id: 1,
  source_name: 'Riverside Clinic',
  status: 'pending',
  problem: null,
  last_synced_at: null,
  records: 0,
  last_run: null,
  created_at: '2026-11-27T10:00:00Z',
};

const open = (query: string) =>
  renderPage({
    path: 'health-record/connections/callback',
    // StrictMode runs effects twice: the single-use state must still be sent once.
    element: (
      <StrictMode>
        <ConnectionCallbackPage />
      </StrictMode>
    ),
    at: `/healthbook/health-record/connections/callback${query}`,
  });

describe('the page a provider sends the browser back to', () => {
  beforeEach(() => localStorage.setItem('session', JSON.stringify({ access: 'patient-token' })));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('hands the answer to the server once, then goes to the connected providers', async () => {
    const calls = mockFetch((call) => (call.url === CALLBACK ? json(200, connection) : json(200, { sources: [], connections: [] })));
    const { router } = await open('?code=abc&state=s1&iss=https%3A%2F%2Fehr.example');
    await waitFor(() => expect(router.state.location.pathname).toBe('/healthbook/health-record/connections'));
    const posts = calls.filter((c) => c.url === CALLBACK);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ method: 'POST', body: { state: 's1', code: 'abc', iss: 'https://ehr.example' } });
    expect(router.state.location.state).toMatchObject({ flash: { text: 'Connected to Riverside Clinic. Your records are on their way.' } });
  });

  it('says why when the patient did not allow it, with the server’s sentence', async () => {
    const calls = mockFetch(() => json(400, { detail: 'You did not allow Riverside Clinic to share your records.', code: 'denied' }));
    const { router } = await open('?error=access_denied&state=s2');
    const heading = await screen.findByRole('heading', { level: 1, name: 'The connection was not allowed' });
    expect(screen.getByRole('alert').textContent).toContain('You did not allow Riverside Clinic to share your records.');
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/healthbook/health-record/connections');
    expect(calls.filter((c) => c.url === CALLBACK)).toHaveLength(1);
    expect(calls[0]!.body).toEqual({ state: 's2', error: 'access_denied' });
    // Kept in the history entry: a reload shows it again without handing the used state in.
    await waitFor(() => expect(router.state.location.state).toEqual({ callbackFailure: { code: 'denied', detail: 'You did not allow Riverside Clinic to share your records.', language: 'en' } }));
    expect(router.state.location.search).toBe('?error=access_denied&state=s2');
  });

  it('shows a failure kept in the history entry without sending anything', async () => {
    const calls = mockFetch(() => json(200, connection));
    await renderPage({
      path: 'health-record/connections/callback',
      element: <ConnectionCallbackPage />,
      at: { pathname: '/healthbook/health-record/connections/callback', state: { callbackFailure: { code: 'source_down', detail: 'Riverside Clinic could not be reached just now.' } } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'The provider could not be reached' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Riverside Clinic could not be reached just now.');
    expect(calls).toHaveLength(0);
  });

  it('names each failure the server reports by its code', async () => {
    mockFetch(() => json(400, { detail: 'The token named no patient.', code: 'no_patient' }));
    await open('?code=abc&state=s3');
    expect(await screen.findByRole('heading', { level: 1, name: 'The provider did not say whose record it is' })).toBeTruthy();
    expect(screen.getByText('The token named no patient.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to connected providers' })).toBeTruthy();
  });

  it('sends nothing without a state', async () => {
    const calls = mockFetch(() => json(200, connection));
    await open('?code=abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'This connection attempt has expired' })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});
