// The calendar through the pages: a weekly reminder made by clicking a day, seen in the month and
// week views and in the Reminders drawer (with the dots of its month picker), viewed, deleted with
// the confirm dialog; a one-off event edited; the drawer at phone width; axe on every page.
import { expect, test, type Page } from '@playwright/test';
import { registeredPatient, scan, signIn } from './accounts';

test.describe.configure({ timeout: 150_000 });
// The user's time zone is the browser's: one with summer time, so that offsets matter.
test.use({ timezoneId: 'Europe/Athens' });

/** A calendar day (YYYY-MM-DD) some days from today in the browser's zone. */
async function dayFromToday(page: Page, days: number): Promise<string> {
  return page.evaluate((n) => {
    const d = new Date();
    d.setDate(d.getDate() + n);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }, days);
}

async function signedIn(page: Page, prefix: string) {
  const user = await registeredPatient(prefix);
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  return user;
}

/** A month cell of the calendar, clicked on its empty lower part (its number opens the day view). */
async function clickDay(page: Page, day: string) {
  const cell = page.locator(`.fc-daygrid-day[data-date="${day}"]`);
  const box = (await cell.boundingBox())!;
  await cell.click({ position: { x: 8, y: box.height - 6 } });
}

const events = (page: Page, title: string) => page.locator('.fc-event', { hasText: title });

test('a weekly reminder: made from a day, in the month and week views, in the drawer with its dots, viewed and deleted', async ({ page }) => {
  await signedIn(page, 'cal-weekly');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Interactive Calendar' }).click();
  await expect(page).toHaveURL(/\/healthbook\/calendar(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
  await expect(page.getByText('The subscription is off.')).toBeVisible();
  await scan(page);

  // A day a week from now, in the month that shows it.
  const day = await dayFromToday(page, 7);
  await page.goto(`/healthbook/calendar?view=month&date=${day}`);
  await clickDay(page, day);
  const dialog = page.getByRole('dialog', { name: 'New event' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Title' })).toBeFocused();
  await expect(dialog.getByLabel('Start date')).toHaveValue(day);
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Physio exercises');
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Exercise' }).click();
  await dialog.getByLabel('Start time').fill('18:00');
  await dialog.getByLabel('End time').fill('18:30');
  await dialog.getByRole('combobox', { name: 'Repeat' }).click();
  await page.getByRole('option', { name: 'Weekly' }).click();
  // The day's own weekday is chosen; the next day is added.
  const days = dialog.getByRole('group', { name: 'On these days' });
  await expect(days.getByRole('button', { pressed: true })).toHaveCount(1);
  const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  await expect(days.getByRole('button', { name: weekdays[weekday] })).toHaveAttribute('aria-pressed', 'true');
  await days.getByRole('button', { name: weekdays[(weekday + 1) % 7] }).click();
  await dialog.getByRole('radio', { name: 'After a number of times' }).check();
  await dialog.getByRole('spinbutton', { name: 'Number of times' }).fill('4');
  await dialog.getByRole('combobox', { name: 'Remind me' }).click();
  await page.getByRole('option', { name: '15 minutes before' }).click();
  await dialog.getByRole('textbox', { name: 'Notes' }).fill('Knee: 3 sets of 10');
  await scan(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('The event was saved.')).toBeVisible();

  // Month: the occurrences on the day and the day after (the second week may be in the next month).
  await expect(page.locator(`.fc-daygrid-day[data-date="${day}"]`).locator('.fc-event', { hasText: 'Physio exercises' })).toBeVisible();
  await expect(events(page, 'Physio exercises').first()).toContainText('6:00pm');
  expect(await events(page, 'Physio exercises').count()).toBeGreaterThanOrEqual(2);
  await scan(page);

  // Week: the occurrence on its day, in the hours grid.
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page).toHaveURL(/view=week/);
  await expect(page.locator(`.fc-timegrid-col[data-date="${day}"]`).locator('.fc-event', { hasText: 'Physio exercises' })).toBeVisible();
  await scan(page);

  // The drawer: today plus 10 days holds the day; the month picker has a dot on it.
  await page.getByRole('button', { name: 'Open reminders' }).click();
  const drawer = page.getByRole('dialog', { name: 'Reminders' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('heading', { name: 'Reminders' })).toBeVisible();
  const item = drawer.getByRole('listitem').filter({ hasText: 'Physio exercises' }).first();
  await expect(item).toContainText('6:00 PM');
  await expect(item).toContainText(/in (7|6|8) days/);
  await drawer.getByRole('button', { name: /^Choose a date/ }).click();
  const picker = drawer.getByRole('group', { name: 'Month' });
  const today = await dayFromToday(page, 0);
  if (day.slice(0, 7) !== today.slice(0, 7)) await picker.getByRole('button', { name: 'Next month' }).click();
  await expect(picker.getByRole('gridcell', { name: `${Number(day.slice(8))}, has events` })).toBeVisible();
  await scan(page);

  await item.getByRole('button', { name: 'Details of Physio exercises' }).click();
  await expect(item.getByText('Exercise', { exact: true })).toBeVisible();
  await expect(item.getByText('Knee: 3 sets of 10')).toBeVisible();
  // A repeating event is not edited.
  await expect(item.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await item.getByRole('link', { name: 'View' }).click();
  await expect(drawer).toBeHidden();

  // The event's page.
  await expect(page).toHaveURL(/\/healthbook\/calendar\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Physio exercises' })).toBeVisible();
  const details = page.getByRole('region', { name: 'Details' });
  // The rule lists its days Monday first.
  const mondayFirst = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
  const ruleDays = [weekdays[weekday]!, weekdays[(weekday + 1) % 7]!].sort((a, b) => mondayFirst.indexOf(a) - mondayFirst.indexOf(b));
  await expect(details.getByText(`Every week on ${ruleDays.join(', ')}, 4 times`)).toBeVisible();
  await expect(details.getByText('15 minutes before')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await scan(page);

  // Deleted, after the confirm dialog: every occurrence goes.
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete every occurrence?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await page.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/healthbook\/calendar\?/);
  await expect(page.getByText('The event was deleted.')).toBeVisible();
  await expect(page.locator('.fc-daygrid-day, .fc-timegrid-col').first()).toBeVisible();
  await expect(events(page, 'Physio exercises')).toHaveCount(0);
});

test('a one-off event: added, edited on its page, all day', async ({ page }) => {
  await signedIn(page, 'cal-edit');
  await page.goto('/healthbook/calendar');
  await page.getByRole('button', { name: 'Add event' }).click();
  const dialog = page.getByRole('dialog', { name: 'New event' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Blood test');
  await dialog.getByLabel('End time').fill('08:00');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('The end must be after the start.')).toBeVisible();
  await dialog.getByLabel('End time').fill('09:30');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await events(page, 'Blood test').first().click();

  await expect(page.getByRole('heading', { level: 1, name: 'Blood test' })).toBeVisible();
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit event' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Title' }).fill('Fasting blood test');
  await page.getByRole('switch', { name: 'All day' }).check();
  await scan(page);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The event was saved.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Fasting blood test' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Details' }).getByText(/^All day, /)).toBeVisible();
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the Reminders drawer from the account menu', async ({ page }) => {
    await signedIn(page, 'cal-phone');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Reminders' }).click();
    const drawer = page.getByRole('dialog', { name: 'Reminders' });
    await expect(drawer.getByRole('heading', { name: 'Reminders' })).toBeVisible();
    await expect(drawer.getByText('No events found')).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Today' })).toBeDisabled();
    await drawer.getByRole('button', { name: 'Next day' }).click();
    await expect(drawer.getByRole('button', { name: 'Today' })).toBeEnabled();
    const box = await drawer.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    await scan(page);
    await drawer.getByRole('link', { name: /Open calendar/ }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
    // A phone opens the calendar on the month's list (an agenda); the month's grid is one button away.
    await expect(page.getByRole('button', { name: 'List', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Nothing planned in this month.')).toBeVisible();
    await scan(page);
    await page.getByRole('button', { name: 'Month', exact: true }).click();
    await expect(page).toHaveURL(/view=month/);
    await expect(page.locator('.fc-daygrid')).toBeVisible();
  });
});
