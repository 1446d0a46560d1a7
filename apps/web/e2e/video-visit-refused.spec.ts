// Video visits: a browser that blocks the camera and the microphone (answers their prompt with
// "Block"): the device check says so, with this browser's steps to allow them, and offers no Join.
import { expect, test } from '@playwright/test';
import { scan, signIn } from './accounts';
import { ALLOW_MEDIA_PROMPT, CHROMIUM, FAKE_MEDIA_DEVICES } from './chromium';
import { appointmentStartingNow } from './visits';

test.describe.configure({ timeout: 120_000 });
test.use({ launchOptions: { ...CHROMIUM, args: [...CHROMIUM.args, FAKE_MEDIA_DEVICES, `${ALLOW_MEDIA_PROMPT}=deny`] } });

test('a camera and microphone refused by the browser are explained, with how to allow them', async ({ page }) => {
  const booked = await appointmentStartingNow('refused');
  await signIn(page, booked.patient.email, booked.patient.password);
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  await page.goto(`/healthbook/event-details?eventId=${booked.slot}`);
  await page.getByRole('link', { name: 'Join video visit' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The camera and microphone are blocked' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('In Chrome or Edge: select the icon left of the address bar');
  await expect(page.getByRole('button', { name: 'Join video visit' })).toHaveCount(0);
  await scan(page);
});
