import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import CodeRetrievalPage from './code-retrieval-page';

const open = () => renderPage({ path: 'code-retrieval', element: <CodeRetrievalPage />, at: '/healthbook/code-retrieval' });
const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
const type = (label: RegExp, value: string) => fireEvent.change(field(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Submit' }));

describe('code retrieval page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('checks names and date of birth', async () => {
    const calls = mockFetch(() => json(200, {}));
    await open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Code Retrieval' })).toBeTruthy();
    submit();
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Last name is required')).toBeTruthy();
    expect(screen.getByText('Date of birth is required')).toBeTruthy();

    type(/^First name/, 'Mary Ann');
    type(/^Last name/, 'Smith');
    type(/^Date of birth/, '13/01/1990');
    submit();
    expect(await screen.findByText('Invalid name format')).toBeTruthy();
    expect(screen.getByText('Invalid date format')).toBeTruthy();
    expect(field(/^Date of birth/).getAttribute('placeholder')).toBe('MM/DD/YYYY');
    expect(field(/^Date of birth/).getAttribute('inputmode')).toBe('numeric');
    expect(calls).toHaveLength(0);
  });

  it('sends the request, then shows the thank-you state instead of the form', async () => {
    const calls = mockFetch(() => json(200, { detail: 'Your information has been submitted.' }));
    await open();
    await screen.findByRole('heading', { level: 1, name: 'Code Retrieval' });
    type(/^First name/, 'Maria');
    type(/^Last name/, 'Papadopoulou');
    type(/^Date of birth/, '04/23/1985');
    submit();
    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeTruthy();
    expect(screen.getByText('Your information has been submitted.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(calls[0]).toMatchObject({
      url: '/api/v1/users/coderetrieval/',
      method: 'POST',
      body: { org_id: 7, first_name: 'Maria', last_name: 'Papadopoulou', DOB: '04/23/1985' },
    });
  });

  it('shows the server answer when it fails', async () => {
    mockFetch(() => json(404, { detail: 'No invitation matches these details.' }));
    await open();
    await screen.findByRole('heading', { level: 1, name: 'Code Retrieval' });
    type(/^First name/, 'Maria');
    type(/^Last name/, 'Papadopoulou');
    type(/^Date of birth/, '04/23/1985');
    submit();
    expect(await screen.findByText('No invitation matches these details.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
  });

  it('says something went wrong for a success without the expected answer', async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    await open();
    await screen.findByRole('heading', { level: 1, name: 'Code Retrieval' });
    type(/^First name/, 'Maria');
    type(/^Last name/, 'Papadopoulou');
    type(/^Date of birth/, '04/23/1985');
    submit();
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });
});
