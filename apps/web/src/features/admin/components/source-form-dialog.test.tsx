import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import { SourceFormDialog } from './source-form-dialog';

const REDIRECT = 'https://hb.example/healthbook/health-record/connections/callback';

async function open(onSaved = vi.fn()) {
  await renderPage({
    path: 'admin/record-sources',
    element: <SourceFormDialog open organizationId={7} redirectUri={REDIRECT} onClose={vi.fn()} onSaved={onSaved} />,
    at: '/healthbook/admin/record-sources',
  });
  return screen.findByRole('dialog', { name: 'Add a source' });
}
const type = (dialog: HTMLElement, label: RegExp, value: string) => fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });

describe('adding a record source', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('checks the address first and lists each check with what was found', async () => {
    const calls = mockFetch(() =>
      json(200, {
        ok: false,
        checks: [
          { check: 'address', ok: true, detail: 'https://fhir.example.org/r4' },
          { check: 'reachable', ok: true, detail: 'Answered in 120 ms.' },
          { check: 'discovery', ok: false, detail: 'No SMART configuration was found.' },
        ],
      }),
    );
    const dialog = await open();
    expect((within(dialog).getByLabelText(/^Scopes/) as HTMLTextAreaElement).value).toBe('launch/patient openid fhirUser offline_access patient/*.rs');
    expect(within(dialog).getByText(REDIRECT)).toBeTruthy();
    type(dialog, /^FHIR base URL/, 'https://fhir.example.org/r4');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Check' }));
    const list = await within(dialog).findByRole('list', { name: 'Checks' });
    expect(within(dialog).getByText('Some checks failed.')).toBeTruthy();
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Address (passed): https://fhir.example.org/r4',
      'Reachable (passed): Answered in 120 ms.',
      'SMART configuration (failed): No SMART configuration was found.',
    ]);
    expect(calls[0]).toMatchObject({ url: '/api/v1/admin/sources/check/', method: 'POST', body: { fhir_base_url: 'https://fhir.example.org/r4' } });
  });

  it('puts the server’s field errors under their fields', async () => {
    const onSaved = vi.fn();
    const calls = mockFetch(() => json(400, { fhir_base_url: ['The server does not support PKCE with S256.'], name: ['The organisation already has a source with this name.'] }));
    const dialog = await open(onSaved);
    type(dialog, /^Name patients see/, 'Riverside Clinic');
    type(dialog, /^FHIR base URL/, 'https://fhir.example.org/r4');
    type(dialog, /^Client ID/, 'healthbook');
    type(dialog, /^Client secret/, 's3cret');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The server does not support PKCE with S256.')).toBeTruthy();
    expect(within(dialog).getByText('The organisation already has a source with this name.')).toBeTruthy();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({
      url: '/api/v1/admin/sources/',
      method: 'POST',
      body: { org_id: 7, name: 'Riverside Clinic', fhir_base_url: 'https://fhir.example.org/r4', client_id: 'healthbook', client_secret: 's3cret', scopes: 'launch/patient openid fhirUser offline_access patient/*.rs' },
    });
    expect(onSaved).not.toHaveBeenCalled();
  });
});
