import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import type { Patient } from '@healthbook/shared/contracts/records';
import { fakeToken, fakeUser, json } from '../../components/testing/fake-session';
import { clearLocalData, signIn } from '../../lib/auth';
import { i18n, i18nReady } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { viewingPatient } from '../../lib/viewing-patient';
import { AccessEndedMessage, useViewedRecordWatch, ViewedRecordBanner } from './viewed-record';

const own: Patient = { patient_id: 1, first_name: 'Me', last_name: 'Myself', dob: null, gender: null, is_self: true, access: 'owner', categories: null, relation: 'self', has_account: true };
const anna: Patient = { ...own, patient_id: 42, first_name: 'Anna', last_name: 'Smith', is_self: false, access: 'read-only', relation: 'care-network' };

let patients: Patient[];

function Frame() {
  const message = useViewedRecordWatch('healthbook', true);
  const { pathname } = useLocation();
  return (
    <>
      <ViewedRecordBanner clientId="healthbook" top={{ xs: 55, md: 76 }} />
      <p data-testid="where">{pathname}</p>
      <AccessEndedMessage message={message} />
    </>
  );
}

function renderFrame() {
  const router = createMemoryRouter([{ path: '*', element: <Frame /> }], { initialEntries: ['/healthbook/health-record'] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('the viewed record: banner, access changes, access ending', () => {
  beforeAll(async () => {
    await i18nReady;
    await i18n.changeLanguage('en');
    await i18n.loadNamespaces(['shell', 'common']);
  });
  beforeEach(() => {
    clearLocalData();
    patients = [own, anna];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => (url === '/api/v1/patients/' ? json(200, patients) : json(404, { detail: 'Not found.' }))),
    );
    signIn({ access: fakeToken(), user: fakeUser() });
  });
  afterEach(() => {
    cleanup();
    viewingPatient.set(null);
    vi.unstubAllGlobals();
  });

  it('shows nothing on one\'s own record', async () => {
    renderFrame();
    await waitFor(() => expect(queryClient.getQueryData(['patients', 'list'])).toBeTruthy());
    expect(screen.queryByRole('region', { name: 'Viewed record' })).toBeNull();
  });

  it('says whose record is open and that it is read-only; follows a change to full; back to my record', async () => {
    renderFrame();
    act(() => viewingPatient.set(42));
    const banner = await screen.findByRole('region', { name: 'Viewed record' });
    expect(banner.textContent).toContain("Viewing Anna Smith's record");
    expect(banner.textContent).toContain('Read-only');

    patients = [own, { ...anna, access: 'full' }];
    await act(() => queryClient.invalidateQueries({ queryKey: ['patients'] }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Viewed record' }).textContent).not.toContain('Read-only'));

    fireEvent.click(screen.getByRole('button', { name: 'Back to my record' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Viewed record' })).toBeNull());
    expect(viewingPatient.get()).toBeNull();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/healthbook/dashboard'));
  });

  it('when a call for the record is refused and the record is gone from the list: back to my record, and says so', async () => {
    renderFrame();
    act(() => viewingPatient.set(42));
    await screen.findByRole('region', { name: 'Viewed record' });

    patients = [own];
    act(() => viewingPatient.doubt());
    expect(await screen.findByText("Your access to Anna Smith's record has ended.")).toBeTruthy();
    expect(viewingPatient.get()).toBeNull();
    expect(screen.queryByRole('region', { name: 'Viewed record' })).toBeNull();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/healthbook/dashboard'));
  });
});
