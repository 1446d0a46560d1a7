// The help area and the assistant through the pages: a patient searches the help articles and
// opens one, writes to support (the organisation's address gets the message, reply-to the
// patient, and the patient a copy); the assistant finds an article in Greek on a phone, and when
// nothing matches it offers the contact form and the live chat. Every page and the open panel
// pass the axe scan, in English and Greek, on a desktop and a phone.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD, registeredPatient, landing, scan, signIn } from './accounts';
import { waitForMail } from './mailbox';

test.describe.configure({ timeout: 150_000 });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

/** A signed-in page of one's own; in Greek the language is switched on the sign-in page, as a user does. */
async function signedIn(browser: Browser, email: string, password: string, lang: 'en' | 'el', viewport = DESKTOP, clientId = 'healthbook'): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  if (lang === 'el') {
    await page.goto(`/${clientId}/login`);
    await page.getByRole('button', { name: 'Ελληνικά' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'el');
    await page.locator('input[type=email]').fill(email);
    await page.locator('input[autocomplete=current-password]').fill(password);
    await page.locator('form button[type=submit]').click();
  } else {
    await signIn(page, email, password, clientId);
  }
  await expect(page).toHaveURL(landing(email, clientId));
  return page;
}

test('a patient searches the help, opens an article and writes to support', async ({ browser }) => {
  const user = await registeredPatient('help');
  const page = await signedIn(browser, user.email, user.password, 'en');

  // The app bar's "Get HB+ Help" leads to the help page.
  await page.getByRole('banner').getByRole('link', { name: 'Get HB+ Help' }).click();
  await expect(page).toHaveURL(/\/healthbook\/healthhelp$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Get HB+ Help' })).toBeVisible();
  await expect(page.getByText('call 911 or go to the nearest emergency department')).toBeVisible();
  await expect(page.getByRole('link', { name: 'support@healthbook.example' })).toBeVisible();
  await scan(page);

  // Search: another form of the word finds the article; nothing found says so.
  const search = page.getByRole('searchbox', { name: 'Search the help articles' });
  await search.fill('xylophone');
  await expect(page.getByText('No article matches “xylophone”.')).toBeVisible();
  await search.fill('booking');
  await expect(page.getByRole('status').filter({ hasText: /articles? found/ })).toBeVisible();
  const articles = page.getByRole('region', { name: 'Help articles' });
  await expect(articles.getByRole('link').first()).toHaveText('How to book a telehealth visit');
  await articles.getByRole('link', { name: 'How to book a telehealth visit' }).click();

  await expect(page).toHaveURL(/\/healthbook\/healthhelp\/articles\/book-a-telehealth-visit$/);
  await expect(page.getByRole('heading', { level: 1, name: 'How to book a telehealth visit' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open Teleconsultation' })).toHaveAttribute('href', '/healthbook/health-help/telehealth');
  await scan(page);

  // "Write to our support team" comes back to the form.
  await page.getByRole('link', { name: 'Write to our support team' }).click();
  await expect(page).toHaveURL(/\/healthbook\/healthhelp#contact$/);
  const form = page.getByRole('region', { name: 'Contact us' });
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(form.getByText('Enter a subject.')).toBeVisible();
  await expect(form.getByText('Write your message.')).toBeVisible();

  const subject = `Upload question ${Date.now()}`;
  await form.getByRole('combobox', { name: 'Topic (optional)' }).click();
  await page.getByRole('option', { name: 'Something does not work' }).click();
  await form.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await form.getByRole('textbox', { name: 'Your message' }).fill('My scan of the lab report does not upload. What can I do?');
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(form.getByText('Your message was sent.')).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Subject' })).toHaveValue('');
  await scan(page);

  const toSupport = await waitForMail('support@healthbook.example', new RegExp(subject));
  expect(toSupport.subject).toBe(`[HealthBook+ help] ${subject}`);
  expect(toSupport.raw).toMatch(new RegExp(`Reply-To: ${user.email.replace(/[.+]/g, '\\$&')}`, 'i'));
  expect(toSupport.text).toContain('My scan of the lab report does not upload.');
  expect(toSupport.text).toContain('Topic: Something does not work');
  const copy = await waitForMail(user.email, /We received your message/);
  expect(copy.text).toContain('call 911 now');
  await page.context().close();
});

test('the assistant finds an article in Greek on a phone, and offers a person when nothing matches', async ({ browser }) => {
  const user = await registeredPatient('assistant');
  const page = await signedIn(browser, user.email, user.password, 'el', PHONE);

  const button = page.getByRole('button', { name: 'Ζητήστε βοήθεια' });
  await button.click();
  const panel = page.getByRole('dialog', { name: 'Βοηθός αναζήτησης' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'Η ερώτησή σας' })).toBeFocused();
  await expect(panel.getByText('δεν δίνω ποτέ ιατρικές συμβουλές. Σε επείγουσα περίπτωση, καλέστε το 911.')).toBeVisible();
  await scan(page);

  await panel.getByRole('textbox', { name: 'Η ερώτησή σας' }).fill('θέλω ένα ραντεβουδάκι με γιατρό');
  await panel.getByRole('button', { name: 'Αναζήτηση', exact: true }).click();
  await expect(panel.getByRole('link', { name: 'Πώς να κλείσετε ραντεβού τηλεϊατρικής' })).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Τηλεσυμβουλευτική' })).toBeVisible();
  await scan(page);

  // Nothing found: the contact form and the live chat.
  await panel.getByRole('textbox', { name: 'Η ερώτησή σας' }).fill('ξυλόφωνο κβαντικό');
  await panel.getByRole('button', { name: 'Αναζήτηση', exact: true }).click();
  await expect(panel.getByText('Δεν βρήκα τίποτα για αυτό.')).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Γράψτε στην υποστήριξη' })).toHaveAttribute('href', '/healthbook/healthhelp#contact');
  await expect(panel.getByRole('link', { name: 'Ξεκινήστε ζωντανή συνομιλία' })).toHaveAttribute('href', '/healthbook/peer-coaching');
  await scan(page);

  // Esc closes it and gives the focus back to the button.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(button).toBeFocused();

  // The article from the assistant, in Greek, on the phone.
  await button.click();
  await panel.getByRole('textbox', { name: 'Η ερώτησή σας' }).fill('ραντεβού');
  await panel.getByRole('button', { name: 'Αναζήτηση', exact: true }).click();
  await panel.getByRole('link', { name: 'Πώς να κλείσετε ραντεβού τηλεϊατρικής' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Πώς να κλείσετε ραντεβού τηλεϊατρικής' })).toBeVisible();
  await expect(panel).toBeHidden();
  await scan(page);

  // The help page in Greek on the phone.
  await page.getByRole('link', { name: 'Επιστροφή στη βοήθεια' }).click();
  await expect(page.getByRole('searchbox', { name: 'Αναζήτηση στα άρθρα βοήθειας' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Αναζήτηση στα άρθρα βοήθειας' }).fill('ΚΟΙΝΟΠΟΙΗΣΗ');
  await expect(page.getByRole('link', { name: 'Κοινοποίηση του φακέλου μου με σύνδεσμο ή κωδικό QR' })).toBeVisible();
  await scan(page);
  await page.context().close();
});

test('the help page in English on a phone and in Greek on a desktop; Northwind has help but no assistant', async ({ browser }) => {
  const user = await registeredPatient('helpview');
  const phone = await signedIn(browser, user.email, user.password, 'en', PHONE);
  await phone.goto('/healthbook/healthhelp');
  await expect(phone.getByRole('heading', { level: 1, name: 'Get HB+ Help' })).toBeVisible();
  await scan(phone);
  await phone.goto('/healthbook/healthhelp/articles/not-for-emergencies');
  await expect(phone.getByRole('heading', { level: 1, name: 'This is not for emergencies' })).toBeVisible();
  await scan(phone);
  await phone.context().close();

  const desktop = await signedIn(browser, user.email, user.password, 'el');
  await desktop.goto('/healthbook/healthhelp');
  await expect(desktop.getByRole('heading', { level: 1, name: 'Επικοινωνήστε μαζί μας' }).or(desktop.getByRole('heading', { name: 'Επικοινωνήστε μαζί μας' }))).toBeVisible();
  await scan(desktop);
  await desktop.getByRole('button', { name: 'Ζητήστε βοήθεια' }).click();
  await expect(desktop.getByRole('dialog', { name: 'Βοηθός αναζήτησης' })).toBeVisible();
  await scan(desktop);
  await desktop.context().close();

  // Northwind: the help page is active (with its own article, without telehealth), the assistant off.
  const northwind = await signedIn(browser, 'patient@northwind.example', DEMO_PASSWORD, 'en', DESKTOP, 'northwind');
  await expect(northwind.getByRole('button', { name: 'Ask for help' })).toHaveCount(0);
  await northwind.goto('/northwind/healthhelp');
  await expect(northwind.getByRole('link', { name: 'Northwind Health support and crisis lines' })).toBeVisible();
  await expect(northwind.getByRole('link', { name: 'How to book a telehealth visit' })).toHaveCount(0);
  await expect(northwind.getByText('call 112 or go to the nearest emergency department')).toBeVisible();
  await scan(northwind);
  await northwind.context().close();
});
