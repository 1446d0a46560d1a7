import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeToken, fakeUser } from '../../../components/testing/fake-session';
import { clearLocalData, signIn } from '../../../lib/auth';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import { shareSession } from '../share-session';
import ShareEntryPage from './share-entry-page';
import ShareVerificationPage from './share-verification-page';
import SharedContentPage from './shared-content-page';
import ShareEndedPage from './share-ended-page';

const UID = 'AbCdEf12';
const TOKEN = 'tok_0123456789-abcdefXYZ';

const opening = (extra: Record<string, unknown> = {}) => ({
  kind: 'records',
  method: 'link',
  organization: { name: 'HealthBook+', client_id: 'healthbook' },
  patient_first_name: 'Maria',
  recipient_email_hint: 'd•••@example.com',
  expires_at: '2099-05-12T12:00:00Z',
  attempts_left: 5,
  ...extra,
});

const content = {
  kind: 'records',
  organization: { name: 'HealthBook+', client_id: 'healthbook', logo_url: null },
  patient: { first_name: 'Maria', last_name: 'Papadopoulou', dob: '1980-04-02' },
  recipient_name: 'Dr Nikos',
  expires_at: '2099-05-12T12:00:00Z',
  generated_at: '2026-05-05T09:30:00Z',
  sections: [
    {
      category: 'allergy',
      name: 'Allergies',
      records: [
        {
          id: 3,
          record_type: 'allergy',
          title: 'Penicillin',
          date: '2019-05-01',
          date_part: 'month',
          fields: [
            { name: 'code', label: 'Allergy', value: 'Penicillin' },
            { name: 'reaction', label: 'Reaction', value: 'Rash' },
            { name: 'onset_date', label: 'Onset date', value: 'May 2019' },
          ],
          attachments: [{ id: 9, file_name: 'letter.pdf', content_type: 'application/pdf', size: 2048 }],
          updated_at: '2026-05-01T00:00:00Z',
        },
      ],
    },
    { category: 'medication', name: 'Medications', records: [] },
  ],
  documents: [],
  insurance: [],
};

const enterCode = (code: string) => fireEvent.paste(screen.getByRole('textbox', { name: 'Digit 1 of 6' }), { clipboardData: { getData: () => code } });
const location = async () => (await screen.findByTestId('location')).textContent;

const verification = (path = 'health-record/recipient-verification') => renderPage({ path, element: <ShareVerificationPage />, at: `/healthbook/${path}` });
const contentPage = () => renderPage({ path: 'sharedrecord', element: <SharedContentPage />, at: '/healthbook/sharedrecord' });

describe("the share recipient's pages", () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => clearLocalData());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  describe('entry', () => {
    it('puts the link aside and replaces the address by the verification page', async () => {
      const { router } = await renderPage({ path: 'sharedrecords/:uid?/:token?', element: <ShareEntryPage />, at: `/healthbook/sharedrecords/${UID}/${TOKEN}` });
      expect(await location()).toBe('/healthbook/health-record/recipient-verification');
      expect(shareSession.load()).toEqual({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
      expect(router.state.historyAction).toBe('REPLACE');
    });

    it('a documents link and a QR link go to their own pages', async () => {
      await renderPage({ path: 'shareddocs/:uid?/:token?', element: <ShareEntryPage />, at: `/healthbook/shareddocs/${UID}/${TOKEN}` });
      expect(await location()).toBe('/healthbook/health-vault/health-vault-recipient-verification');
      cleanup();
      await renderPage({ path: 'sharedqrcoderecords/:uid?/:token?', element: <ShareEntryPage />, at: `/healthbook/sharedqrcoderecords/${UID}/${TOKEN}` });
      expect(await location()).toBe('/healthbook/health-record/recipient-qr-code-verification');
      expect(shareSession.load()?.method).toBe('qr');
    });

    it('a malformed link leads to the expired page, without asking the server', async () => {
      const calls = mockFetch(() => json(500, null));
      await renderPage({ path: 'sharedrecords/:uid?/:token?', element: <ShareEntryPage />, at: `/healthbook/sharedrecords/${UID}/short` });
      expect(await location()).toBe('/healthbook/share-record-link-expired');
      expect(shareSession.load()).toBeNull();
      expect(calls).toEqual([]);
    });
  });

  describe('verification', () => {
    it('link: sends the code to the masked address, then a right code opens the content', async () => {
      shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
      const calls = mockFetch(({ url }) => {
        if (url.endsWith('/open/')) return json(200, opening());
        if (url.endsWith('/code/')) return json(200, { sent_to: 'd•••@example.com', expires_in: 600 });
        return json(200, { session: 'S-1', expires_at: '2099-01-01T00:00:00Z' });
      });
      await verification();
      expect(await screen.findByRole('heading', { level: 1, name: 'Maria shared their health record with you' })).toBeTruthy();
      expect(screen.getByText(/d•••@example\.com/)).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Send me the code' }));
      expect(await screen.findByText('We sent a code to d•••@example.com. It is valid for 10 minutes.')).toBeTruthy();
      enterCode('123456');
      expect(await location()).toBe('/healthbook/sharedrecord');
      expect(calls.map((c) => [c.url, c.body])).toEqual([
        ['/api/v1/sharing/public/open/', { uid: UID, token: TOKEN }],
        ['/api/v1/sharing/public/code/', { uid: UID, token: TOKEN }],
        ['/api/v1/sharing/public/verify/', { uid: UID, token: TOKEN, code: '123456' }],
      ]);
      expect(shareSession.session()).toBe('S-1');
    });

    it('never sends a signed-in user’s token', async () => {
      signIn({ access: fakeToken({ org: 7 }), user: fakeUser() });
      shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
      const calls = mockFetch(() => json(200, opening()));
      await verification();
      await screen.findByRole('heading', { level: 1 });
      expect(calls[0]!.headers).not.toHaveProperty('Authorization');
      expect(calls[0]!.headers['Accept-Language']).toBe('en');
    });

    it("a wrong code shows the server's words (attempts left); a code asked too often, its 429 message", async () => {
      shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
      mockFetch(({ url }) => {
        if (url.endsWith('/open/')) return json(200, opening());
        if (url.endsWith('/code/')) return json(429, { detail: 'Too many codes asked for. Try again in 15 minutes.' });
        return json(400, { code: ['The code is not right. 4 attempts left.'] });
      });
      await verification();
      fireEvent.click(await screen.findByRole('button', { name: 'I already have a code' }));
      enterCode('000000');
      expect(await screen.findByText('The code is not right. 4 attempts left.')).toBeTruthy();
      // Empty boxes for the next try.
      await waitFor(() => expect(screen.getByRole('textbox', { name: 'Digit 1 of 6' })).toHaveProperty('value', ''));
      fireEvent.click(screen.getByRole('button', { name: 'Send me the code' }));
      expect(await screen.findByText('Too many codes asked for. Try again in 15 minutes.')).toBeTruthy();
    });

    it('QR: the passcode at once; the fifth wrong one locks the share', async () => {
      shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'qr' });
      mockFetch(({ url }) => (url.endsWith('/open/') ? json(200, opening({ method: 'qr', attempts_left: 1 })) : json(410, { detail: 'Locked.', reason: 'locked' })));
      await verification('health-record/recipient-qr-code-verification');
      expect(await screen.findByText('1 attempt left before this share locks.')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Send me the code' })).toBeNull();
      enterCode('999999');
      expect(await screen.findByRole('heading', { level: 1, name: 'This share is locked' })).toBeTruthy();
      expect(screen.getByText('This share is locked after too many wrong passcodes. Ask Maria for a new QR code.')).toBeTruthy();
    });

    it('a locked share opened again says so; 404 and 410 lead to their pages', async () => {
      shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
      shareSession.update({ firstName: 'Maria' });
      mockFetch(() => json(410, { detail: 'Locked.', reason: 'locked' }));
      await verification();
      expect(await screen.findByText('This share is locked after too many wrong codes. Ask Maria for a new link.')).toBeTruthy();
      cleanup();

      mockFetch(() => json(404, { detail: 'Not found.' }));
      await verification();
      expect(await location()).toBe('/healthbook/share-record-link-expired');
      cleanup();

      shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'qr' });
      mockFetch(() => json(410, { detail: 'Revoked.', reason: 'revoked' }));
      await verification('health-record/recipient-qr-code-verification');
      expect(await location()).toBe('/healthbook/share-health-record-link-revoked');
    });

    it('without a link opened in this tab: the expired page', async () => {
      const calls = mockFetch(() => json(200, opening()));
      await verification();
      expect(await location()).toBe('/healthbook/share-record-link-expired');
      expect(calls).toEqual([]);
    });
  });

  describe('content', () => {
    beforeEach(() => {
      shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
      shareSession.setSession('S-1', '2099-01-01T00:00:00Z');
    });

    it('shows the records with the session header, never a bearer token', async () => {
      signIn({ access: fakeToken({ org: 7 }), user: fakeUser() });
      const calls = mockFetch(() => json(200, content));
      await contentPage();
      expect(await screen.findByRole('heading', { level: 1, name: 'Health record of Maria Papadopoulou' })).toBeTruthy();
      expect(screen.getByText(/Shared with Dr Nikos · available until/)).toBeTruthy();
      expect(screen.getByText('2 April 1980')).toBeTruthy();
      expect(screen.getByRole('heading', { level: 2, name: 'Allergies' })).toBeTruthy();
      const card = screen.getByRole('article', { name: 'Penicillin' });
      expect(card.textContent).toContain('May 2019');
      expect(card.textContent).toContain('ReactionRash');
      // The title and the date are not repeated among the fields.
      expect(card.textContent).not.toContain('Allergy');
      expect(card.textContent).not.toContain('Onset date');
      expect(screen.getByRole('button', { name: 'Download letter.pdf (2 KB)' })).toBeTruthy();
      expect(screen.getByText('Nothing recorded here.')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Download PDF' })).toBeTruthy();
      expect(calls[0]).toMatchObject({ url: '/api/v1/sharing/public/content/', method: 'GET' });
      expect(calls[0]!.headers['x-share-session']).toBe('S-1');
      expect(calls[0]!.headers).not.toHaveProperty('Authorization');
    });

    it('a session that is over goes back to the check', async () => {
      mockFetch(() => json(401, { detail: 'Session expired.' }));
      await contentPage();
      expect(await location()).toBe('/healthbook/health-record/recipient-verification');
      expect(shareSession.session()).toBeNull();
      expect(shareSession.load()).not.toBeNull();
    });

    it('the PDF: fetched with the session, in the reader’s time zone; a failure says so and the page stays', async () => {
      const calls = mockFetch(({ url }) => (url.endsWith('/content/') ? json(200, content) : json(404, { detail: 'Not found.' })));
      await contentPage();
      fireEvent.click(await screen.findByRole('button', { name: 'Download PDF' }));
      expect(await screen.findByText('The PDF could not be prepared. Please try again.')).toBeTruthy();
      expect(calls[1]).toMatchObject({ url: `/api/v1/sharing/public/pdf/?time_zone=${encodeURIComponent(Intl.DateTimeFormat().resolvedOptions().timeZone)}`, method: 'GET' });
      expect(calls[1]!.headers['x-share-session']).toBe('S-1');
      expect(screen.getByRole('heading', { level: 1, name: 'Health record of Maria Papadopoulou' })).toBeTruthy();
    });

    it('a share revoked meanwhile leads to the revoked page', async () => {
      mockFetch(() => json(410, { detail: 'Revoked.', reason: 'revoked' }));
      await contentPage();
      expect(await location()).toBe('/healthbook/share-record-link-revoked');
    });

    it('documents: a list with view and download', async () => {
      mockFetch(() =>
        json(200, { ...content, kind: 'documents', sections: [], documents: [{ id: 4, file_name: 'scan.png', content_type: 'image/png', size: 4096, created_at: '2026-04-01T10:00:00Z' }] }),
      );
      await renderPage({ path: 'shared-documents', element: <SharedContentPage />, at: '/healthbook/shared-documents' });
      expect(await screen.findByRole('heading', { level: 1, name: 'Documents of Maria Papadopoulou' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'View scan.png' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Download scan.png' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Download PDF' })).toBeNull();
    });
  });

  describe('ended pages', () => {
    it.each([
      ['share-record-link-expired', 'This link has expired or is not valid'],
      ['share-record-link-revoked', 'This share has been revoked'],
      ['share-health-record-link-revoked', 'This share has been revoked'],
    ])('%s says so and forgets the share', async (path, heading) => {
      shareSession.start({ uid: UID, token: TOKEN, kind: 'records', method: 'link' });
      await renderPage({ path, element: <ShareEndedPage />, at: `/healthbook/${path}` });
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
      await waitFor(() => expect(shareSession.load()).toBeNull());
    });
  });
});
