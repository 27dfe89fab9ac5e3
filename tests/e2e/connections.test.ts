// The Social Media Connections panel in a real browser against the OAuth and WordPress
// sandboxes: connect Google Drive, Deny, an expired token and 'Refresh', disconnect, WordPress,
// and which providers an ordinary account and the internal test account may connect.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SANDBOX_WORDPRESS_USER } from '../../local/sandbox/oauth/index.ts';
import { config, withDb } from '../support/stack.ts';
import { createUser, type TestUser } from '../support/users.ts';
import { expectAccessible, expectOnPage, useBrowser, waitForToast } from './support/browser.ts';

const harness = useBrowser();

async function signedInDashboard(user: TestUser): Promise<Page> {
  const page = await harness.signedInPage(user);
  await page.goto('/');
  await expectOnPage(page, '/');
  return page;
}

const panel = (page: Page) => page.getByRole('region', { name: 'Social Media Connections' });
const row = (page: Page, label: string) => panel(page).getByRole('listitem').filter({ hasText: label });

async function connectThroughSandbox(page: Page, label: string, decision: 'Authorize' | 'Deny', checkAccessibility = false): Promise<void> {
  await panel(page).getByRole('button', { name: `Connect ${label}` }).click();
  const dialog = page.getByRole('dialog', { name: `Connect ${label}` });
  await dialog.getByText(`You'll be redirected to ${label} to authorize access`).waitFor();
  if (checkAccessibility) await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
  await page.waitForURL(/\/oauth\/\w+\/authorize/);
  if (checkAccessibility) await expectAccessible(page);
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}

describe('Social Media Connections panel', () => {
  it('connects Google Drive through the provider: Connected, the summary line, then Disconnect', async () => {
    const page = await signedInDashboard(await createUser('onboarded'));
    await panel(page).getByText('No platforms connected yet').waitFor();
    await panel(page).getByText('Tokens are synced after each connection and refreshed daily.').waitFor();
    await expectAccessible(page);

    await connectThroughSandbox(page, 'Google Drive', 'Authorize', true);
    await row(page, 'Google Drive').getByText('Connected', { exact: true }).waitFor();
    await panel(page).getByText('All 1 connected platforms are working').waitFor();
    // The outcome parameters are consumed.
    await page.waitForURL((url) => url.search === '');
    await expectAccessible(page);

    await row(page, 'Google Drive').getByRole('button', { name: 'Disconnect Google Drive' }).click();
    await page.getByRole('dialog', { name: 'Disconnect Google Drive?' }).getByRole('button', { name: 'Disconnect', exact: true }).click();
    await waitForToast(page, 'Disconnected', 'Google Drive connection removed successfully');
    await panel(page).getByText('No platforms connected yet').waitFor();
    await row(page, 'Google Drive').getByRole('button', { name: 'Connect Google Drive' }).waitFor();
  });

  it("Deny at the provider: 'Connection Failed' and no connection", async () => {
    const user = await createUser('onboarded');
    const page = await signedInDashboard(user);
    await connectThroughSandbox(page, 'Google Drive', 'Deny');
    await page.getByText(/^Connection Failed/).waitFor();
    await panel(page).getByText('No platforms connected yet').waitFor();
    const stored = await withDb(async (db) => (await db.query('select 1 from public.oauth_connections where user_id = $1', [user.id])).rowCount);
    expect(stored).toBe(0);
  });

  it("an expired token shows 'Expired' and 'Refresh' brings it back", async () => {
    const user = await createUser('onboarded');
    const page = await signedInDashboard(user);
    await connectThroughSandbox(page, 'Google Drive', 'Authorize');
    await row(page, 'Google Drive').getByText('Connected', { exact: true }).waitFor();
    await withDb((db) => db.query(`update public.oauth_connections set expires_at = now() - interval '1 second' where user_id = $1 and provider = 'google'`, [user.id]));
    await page.reload();
    await row(page, 'Google Drive').getByText('Expired', { exact: true }).waitFor();
    await panel(page).getByText('0/1 working, 1 need attention').waitFor();
    await expectAccessible(page);

    await row(page, 'Google Drive').getByRole('button', { name: 'Refresh Google Drive' }).click();
    await waitForToast(page, 'Token Check Complete', '1 tokens working, 0 need attention - reconnect required');
    await row(page, 'Google Drive').getByText('Connected', { exact: true }).waitFor();
    await panel(page).getByText('All 1 connected platforms are working').waitFor();
  });

  it('WordPress: bad credentials fail, good ones connect', async () => {
    const user = await createUser('onboarded');
    // A saved profile with its podcast website (a profile with nothing but a website reads as
    // never saved, GET /api/airtable/user-data's null, and then the dialog asks for the site).
    await withDb((db) =>
      db.query(`update public.profiles set podcast_title = 'The E2E Show', podcast_website = $2 where id = $1`, [user.id, `${config.urls.sandbox}/wordpress/e2e`]),
    );
    const page = await signedInDashboard(user);
    await row(page, 'WordPress').getByRole('button', { name: 'Connect WordPress' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect WordPress' });
    await dialog.getByLabel('Username').waitFor();
    // The site comes from the profile: no site field.
    expect(await dialog.getByLabel('WordPress site').count()).toBe(0);
    await expectAccessible(page);

    // Blank credentials are refused before any request: wordpress-dialog.test.tsx.
    await dialog.getByLabel('Username').fill(SANDBOX_WORDPRESS_USER.username);
    await dialog.getByLabel('Application password').fill('not the password');
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await waitForToast(page, 'WordPress Connection Failed', /^400: The WordPress site refused/);
    expect(await row(page, 'WordPress').getByText('Connected', { exact: true }).count()).toBe(0);

    await dialog.getByLabel('Application password').fill(SANDBOX_WORDPRESS_USER.password);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();
    await waitForToast(page, 'WordPress Connected', 'WordPress connection established successfully');
    await row(page, 'WordPress').getByText('Connected', { exact: true }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Connect WordPress' }).isVisible()).toBe(false);

    await row(page, 'WordPress').getByRole('button', { name: 'Disconnect WordPress' }).click();
    await page.getByRole('dialog', { name: 'Disconnect WordPress?' }).getByRole('button', { name: 'Disconnect', exact: true }).click();
    await waitForToast(page, 'WordPress Disconnected', 'WordPress credentials removed successfully');
  });

  it("an ordinary account sees 'Coming Soon!' for Facebook, Instagram and TikTok; the test account can connect them", async () => {
    const user = await createUser('onboarded');
    const page = await signedInDashboard(user);
    for (const label of ['Facebook', 'Instagram', 'TikTok']) {
      const button = row(page, label).getByRole('button', { name: `Coming Soon! ${label}` });
      await button.waitFor();
      expect(await button.isDisabled()).toBe(true);
    }
    for (const label of ['Google Drive', 'YouTube', 'X (Twitter)', 'LinkedIn', 'WordPress']) {
      expect(await row(page, label).getByRole('button', { name: `Connect ${label}` }).isEnabled()).toBe(true);
    }
    await panel(page).getByText('Social media connections are temporarily unavailable while we prepare exciting new features for you.').waitFor();

    await withDb((db) => db.query('update public.profiles set is_internal_test_account = true where id = $1', [user.id]));
    await page.reload();
    await row(page, 'TikTok').getByRole('button', { name: 'Connect TikTok' }).waitFor();
    expect(await panel(page).getByRole('button', { name: /^Coming Soon!/ }).count()).toBe(0);
    await connectThroughSandbox(page, 'Facebook', 'Authorize');
    await row(page, 'Facebook').getByText('Connected', { exact: true }).waitFor();
  });
});
