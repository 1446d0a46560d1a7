// On PostgreSQL too (vitest.config.ts): the contact limit under 10 requests at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssistantAnswer, FeatureSetting, HelpArticle, HelpArticleList, HelpContactSent } from '@healthbook/shared';
import { buildTestApp, captureLogs, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltOrganization } from './factories';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * The help area and the assistant: articles per organisation in en and el with stemmed search,
 * an organisation's own articles invisible to another, the contact form's real mail and its
 * limit, and both features' 403 when off.
 */

let t: TestApp;
let sink: SmtpSink;
let org: BuiltOrganization;
let other: BuiltOrganization;
const tokens = new Map<string, string>();
const emails = new Map<string, string>();

async function member(name: string, target: BuiltOrganization, roles = ['patient']) {
  const user = await buildUser(t.app, { org: target, roles, first_name: name, last_name: 'Tester' });
  tokens.set(name, (await signIn(t.app, { email: user.email, password: user.password, org_id: target.id })).access);
  emails.set(name, user.email);
}

const call = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens.get(who)!), 'accept-language': lang }, ...(payload ? { payload } : {}) });
const search = async (who: string, q: string, lang = 'en') => {
  const res = await call(who, 'GET', `/api/v1/help/articles/?search=${encodeURIComponent(q)}`, undefined, lang);
  expect(res.statusCode).toBe(200);
  return res.json<HelpArticleList>().results.map((a) => a.slug);
};
const assistant = async (who: string, q: string, lang = 'en') => {
  const res = await call(who, 'GET', `/api/v1/help/assistant/?q=${encodeURIComponent(q)}`, undefined, lang);
  expect(res.statusCode).toBe(200);
  return res.json<AssistantAnswer>();
};

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url }, perIpLimitFloor: 1000 });
  org = await buildOrganization(t.app, { name: 'helpful', org_name: 'Helpful Health' });
  other = await buildOrganization(t.app, { name: 'elsewhere', org_name: 'Elsewhere Care' });
  await t.db.updateTable('organizations').set({ support_email: 'support@helpful.test', emergency_number: '112' }).where('id', '=', org.id).execute();
  await t.app.organizations.forgetAll();
  await member('alice', org);
  await member('bob', org);
  await member('carol', org);
  await member('admin', org, ['org_admin']);
  await member('erin', other);
  await member('frank', other, ['org_admin']);
  // Each organisation's own article; Elsewhere hides a default one.
  await t.app.help.saveArticle(org.id, {
    slug: 'helpful-parking',
    position: 1,
    tags: ['parking', 'στάθμευση'],
    title_en: 'Parking at the Helpful clinic',
    title_el: 'Στάθμευση στην κλινική Helpful',
    body_en: 'Free parking behind the building, level -1.',
    body_el: 'Δωρεάν στάθμευση πίσω από το κτίριο, επίπεδο -1.',
  });
  await t.app.help.saveArticle(other.id, { slug: 'document-center', hidden: true });
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('help articles', () => {
  it('lists the default articles and the organisation’s own, in the request language', async () => {
    const en = (await call('alice', 'GET', '/api/v1/help/articles/')).json<HelpArticleList>();
    expect(en.search).toBeNull();
    expect(en.results[0]).toMatchObject({ slug: 'helpful-parking', title: 'Parking at the Helpful clinic', own: true });
    expect(en.results.map((a) => a.slug)).toEqual(expect.arrayContaining(['not-for-emergencies', 'book-a-telehealth-visit', 'share-my-record', 'two-step-verification']));
    expect(en.results.length).toBeGreaterThanOrEqual(13);
    const el = (await call('alice', 'GET', '/api/v1/help/articles/', undefined, 'el')).json<HelpArticleList>();
    expect(el.results.find((a) => a.slug === 'book-a-telehealth-visit')!.title).toBe('Πώς να κλείσετε ραντεβού τηλεϊατρικής');
  });

  it('opens one article, with its feature’s page while the feature is active', async () => {
    const res = await call('alice', 'GET', '/api/v1/help/articles/book-a-telehealth-visit/');
    expect(res.statusCode).toBe(200);
    const article = res.json<HelpArticle>();
    expect(article.body).toContain('Teleconsultation');
    expect(article).toMatchObject({ feature: 'teleconsultation', feature_route: 'health-help/telehealth', feature_name: 'Teleconsultation', own: false });
  });

  it('searches English with stemming, prefixes and typos', async () => {
    expect((await search('alice', 'booking'))[0]).toBe('book-a-telehealth-visit');
    expect((await search('alice', 'book'))[0]).toBe('book-a-telehealth-visit');
    expect(await search('alice', 'forgotten passwords')).toContain('change-or-reset-password');
    expect(await search('alice', 'pasword')).toContain('change-or-reset-password');
    expect((await search('alice', 'authenticator'))[0]).toBe('two-step-verification');
    expect(await search('alice', 'xylophone quantum')).toEqual([]);
  });

  it('searches Greek with stemming, whatever the ending or the accents', async () => {
    expect((await search('alice', 'ραντεβού', 'el'))[0]).toBe('book-a-telehealth-visit');
    expect((await search('alice', 'ραντεβουδάκι', 'el'))[0]).toBe('book-a-telehealth-visit');
    expect((await search('alice', 'ΚΟΙΝΟΠΟΙΗΣΗ', 'el'))[0]).toBe('share-my-record');
    expect(await search('alice', 'στάθμευσης', 'el')).toContain('helpful-parking');
  });

  it('keeps an organisation’s own articles to it, and lets it hide a default one', async () => {
    expect(await search('erin', 'parking')).toEqual([]);
    expect((await call('erin', 'GET', '/api/v1/help/articles/helpful-parking/')).statusCode).toBe(404);
    expect((await call('erin', 'GET', '/api/v1/help/articles/document-center/')).statusCode).toBe(404);
    expect((await call('alice', 'GET', '/api/v1/help/articles/document-center/')).statusCode).toBe(200);
    expect((await assistant('erin', 'parking')).articles).toEqual([]);
  });

  it('sees a changed article at once (the index is rebuilt)', async () => {
    expect(await search('alice', 'bicycle')).toEqual([]);
    await t.app.help.saveArticle(org.id, { slug: 'helpful-parking', body_en: 'Free parking behind the building; bicycle racks at the door.' });
    expect(await search('alice', 'bicycle')).toEqual(['helpful-parking']);
    expect(await search('erin', 'bicycle')).toEqual([]);
  });

  it('refuses a malformed slug or a search that is too long, naming the field', async () => {
    expect((await call('alice', 'GET', '/api/v1/help/articles/Not_A_Slug/')).statusCode).toBe(400);
    const res = await call('alice', 'GET', `/api/v1/help/articles/?search=${'a'.repeat(201)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ search: ['Use at most 200 characters.'] });
  });
});

describe('the assistant', () => {
  it('finds articles and the organisation’s active product pages, with their routes', async () => {
    const answer = await assistant('alice', 'how do I share my record with my doctor?');
    expect(answer.matched).toBe(true);
    expect(answer.articles[0]!.slug).toBe('share-my-record');
    expect(answer.pages[0]).toMatchObject({ key: 'share-record', name: 'Share my record', route: 'sharing' });
  });

  it('answers in Greek', async () => {
    const answer = await assistant('alice', 'θέλω να κλείσω ραντεβού με γιατρό', 'el');
    expect(answer.articles[0]!.slug).toBe('book-a-telehealth-visit');
    expect(answer.articles[0]!.title).toBe('Πώς να κλείσετε ραντεβού τηλεϊατρικής');
    expect(answer.pages.map((p) => p.key)).toContain('teleconsultation');
  });

  it('says when nothing matched', async () => {
    expect(await assistant('alice', 'xylophone quantum')).toEqual({ query: 'xylophone quantum', matched: false, articles: [], pages: [] });
  });

  it('leaves out pages of features the organisation turned off', async () => {
    await setFeature('frank', other, 'share-record', 'disabled');
    const answer = await assistant('erin', 'share my record');
    expect(answer.pages.map((p) => p.key)).not.toContain('share-record');
    await setFeature('frank', other, 'share-record', 'active');
  });

  it('needs a question', async () => {
    const res = await call('alice', 'GET', '/api/v1/help/assistant/?q=%20');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ q: ['Type a question.'] });
  });
});

async function setFeature(admin: string, target: BuiltOrganization, key: string, status: string) {
  const features = (await call(admin, 'GET', `/api/v1/features/?organization_id=${target.id}`)).json<FeatureSetting[]>();
  const feature = features.find((f) => f.key === key)!;
  const res = await call(admin, 'PUT', `/api/v1/features/${feature.id}/`, { organization_id: target.id, feature_status: status });
  expect(res.statusCode).toBe(200);
}

describe('the contact form', () => {
  it('e-mails the support address (reply-to: the member) and a copy to the member, logging no words of it', async () => {
    const logs = captureLogs(t.app);
    let res;
    try {
      res = await call('alice', 'POST', '/api/v1/help/contact/', { subject: 'Cannot upload a scan', message: 'My HEIC photo of the lab report secret-words-42 fails.', category: 'technical' });
    } finally {
      logs.restore();
    }
    expect(res.statusCode).toBe(200);
    expect(res.json<HelpContactSent>()).toEqual({ detail: 'Your message was sent. We have e-mailed you a copy; the support team will answer by e-mail.', sent_to: 'support@helpful.test' });
    const mail = await sink.waitForMail('support@helpful.test');
    expect(mail.subject).toBe('[Helpful Health help] Cannot upload a scan');
    expect(mail.headers['reply-to']).toContain(emails.get('alice')!);
    expect(mail.text).toContain('secret-words-42');
    expect(mail.text).toContain('Topic: Something does not work');
    const copy = await sink.waitForMail(emails.get('alice')!);
    expect(copy.subject).toBe('We received your message: Cannot upload a scan');
    expect(copy.text).toContain('call 112 now');
    expect(logs.lines.join('\n')).not.toContain('secret-words-42');
    expect(logs.lines.join('\n')).not.toContain('Cannot upload a scan');
  });

  it('names the fields of a bad message', async () => {
    const res = await call('bob', 'POST', '/api/v1/help/contact/', { subject: '  ', message: '', category: 'gossip' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ subject: ['Enter a subject.'], message: ['Write your message.'], category: ['Choose one of the topics.'] });
    const el = await call('bob', 'POST', '/api/v1/help/contact/', { subject: 'x'.repeat(151), message: 'ok' }, 'el');
    expect(el.json()).toEqual({ subject: ['Το θέμα μπορεί να έχει έως 150 χαρακτήρες.'] });
  });

  it('holds to 3 messages an hour under 10 parallel requests, with a localised 429', async () => {
    const before = sink.messages.filter((m) => m.envelope.to.includes('support@helpful.test')).length;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call('carol', 'POST', '/api/v1/help/contact/', { subject: `Question ${i}`, message: 'Hello' }, 'el')),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
    const refused = results.find((r) => r.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json<{ detail: string }>().detail).toMatch(/^Έχετε στείλει αρκετά μηνύματα/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.filter((m) => m.envelope.to.includes('support@helpful.test')).length - before).toBe(3);
  });

  it('answers 409 when the organisation has no support address', async () => {
    const res = await call('erin', 'POST', '/api/v1/help/contact/', { subject: 'Hello', message: 'Anyone?' });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ detail: string }>().detail).toMatch(/has not set up a support address/);
  });
});

describe('when the organisation turns the features off', () => {
  it('answers 403 to the help routes while help is off, and to the assistant while it is off', async () => {
    await setFeature('frank', other, 'help', 'disabled');
    await setFeature('frank', other, 'assistant', 'disabled');
    try {
      expect((await call('erin', 'GET', '/api/v1/help/articles/')).statusCode).toBe(403);
      expect((await call('erin', 'GET', '/api/v1/help/articles/share-my-record/')).statusCode).toBe(403);
      expect((await call('erin', 'POST', '/api/v1/help/contact/', { subject: 'a', message: 'b' })).statusCode).toBe(403);
      expect((await call('erin', 'GET', '/api/v1/help/assistant/?q=share')).statusCode).toBe(403);
      // Another organisation is not affected.
      expect((await call('alice', 'GET', '/api/v1/help/articles/')).statusCode).toBe(200);
      expect((await call('alice', 'GET', '/api/v1/help/assistant/?q=share')).statusCode).toBe(200);
    } finally {
      await setFeature('frank', other, 'help', 'active');
      await setFeature('frank', other, 'assistant', 'active');
    }
  });
});
