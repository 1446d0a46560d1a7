import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { json } from '../../../components/testing/fake-session';
import { getSessionState } from '../../../lib/auth';
import { i18n } from '../../../lib/i18n';
import { mockFetch, renderPage, signedInPageTests } from '../../../test/render-page';
import ProfilePage from './profile-page';

const preview = {
  can_close: true,
  grace_days: 14,
  dependants: [{ id: 9, first_name: 'Eleni', last_name: 'Papadaki', relationship: 'child' }],
  upcoming_appointments: 2,
  care_network: 1,
  erases: {
    rows: { health_records: 12, health_record_versions: 15, documents: 1, journal_entries: 3, calendar_events: 4, reminders: 2, chat_conversations: 2, chat_messages: 30, shares: 1, insurance_cards: 0, survey_responses: 5 },
    files: 7,
  },
};

describe('Account Settings → Privacy → Close my account', () => {
  signedInPageTests();

  it('offers the exports, lists what is erased (with the family members and appointments) and what is kept', async () => {
    mockFetch(({ url }) => (url === '/api/v1/me/closing/' ? json(200, preview) : json(404, {})));
    await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=4' });
    expect(await screen.findByRole('tab', { name: 'Privacy', selected: true })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Export FHIR (JSON)' })).toHaveProperty('pathname', '/healthbook/health-record/fhir');
    expect(screen.getByRole('link', { name: 'Export PDF' })).toHaveProperty('pathname', '/healthbook/health-record');
    const erased = screen.getByRole('list', { name: 'What will be deleted' });
    expect(within(erased).getByText('Your 2 upcoming appointments will be cancelled; the providers are told by e-mail')).toBeTruthy();
    // What the server counted, beside each item.
    const item = (text: string) => within(erased).getByText(text, { exact: false }).closest('li')!.textContent;
    expect(item('Your health records and all their earlier versions')).toBe('Your health records and all their earlier versions (12 records)');
    expect(item('Your documents')).toContain('(1 document)');
    expect(item('Your insurance cards')).toContain('(0 cards)');
    expect(item('Your journal')).toContain('(3 entries)');
    expect(item('Your calendar events')).toContain('(4 events, 2 reminders)');
    expect(item('Your chats')).toContain('(2 chats, 30 messages)');
    expect(item('Your survey results')).toContain('(5 results)');
    expect(item('Your shares')).toContain('(1 share)');
    expect(within(erased).getByText('In all, 7 stored files are deleted (documents, card photos, chat files, exports, your picture)')).toBeTruthy();
    const family = screen.getByRole('list', { name: 'This family member, managed only by you, will be erased with your account:' });
    expect(within(family).getByText('Eleni Papadaki')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'What is kept, and why' })).toBeTruthy();
  });

  it('says the counts in Greek', async () => {
    await i18n.changeLanguage('el');
    try {
      mockFetch(({ url }) => (url === '/api/v1/me/closing/' ? json(200, preview) : json(404, {})));
      await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=4' });
      const erased = await screen.findByRole('list', { name: i18n.t('account:privacy.erasedTitle') });
      expect(within(erased).getByText('Ο φάκελος υγείας σας', { exact: false }).closest('li')!.textContent).toContain('(12 καταχωρίσεις)');
      expect(within(erased).getByText('Οι συνομιλίες σας', { exact: false }).closest('li')!.textContent).toContain('(2 συνομιλίες, 30 μηνύματα)');
      expect(within(erased).getByText('Συνολικά διαγράφονται 7 αποθηκευμένα αρχεία', { exact: false })).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('a staff account is told to ask an administrator, and has no button', async () => {
    mockFetch(() => json(200, { ...preview, can_close: false }));
    await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=4' });
    expect(await screen.findByText('A staff account cannot be closed here. Ask an administrator of your organisation.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close my account' })).toBeNull();
  });

  it('a wrong password stays in the dialog; the right one signs out to the sign-in page with the date', async () => {
    let attempts = 0;
    const calls = mockFetch(({ url, method }) => {
      if (url === '/api/v1/me/closing/' && method === 'GET') return json(200, preview);
      if (url === '/api/v1/me/closing/' && method === 'POST') {
        attempts++;
        return attempts === 1 ? json(400, { password: ['The password is not correct.'] }) : json(202, { detail: 'ok', erase_after: '2026-12-11T10:00:00.000Z' });
      }
      return json(404, {});
    });
    await renderPage({ path: 'settings/profile', element: <ProfilePage />, at: '/healthbook/settings/profile?tabId=4' });
    fireEvent.click(await screen.findByRole('button', { name: 'Close my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close your account?' });
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Wrong#Pass1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close my account' }));
    expect(await within(dialog).findByText('The password is not correct.')).toBeTruthy();
    expect(getSessionState().user).not.toBeNull();
    fireEvent.change(within(dialog).getByLabelText(/^Password/), { target: { value: 'Secret#2026' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close my account' }));
    expect((await screen.findByTestId('location')).textContent).toContain('/healthbook/login');
    expect(getSessionState().user).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ password: 'Wrong#Pass1' }, { password: 'Secret#2026' }]);
  });
});
