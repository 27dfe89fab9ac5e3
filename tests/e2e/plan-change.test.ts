// Changing plan in a real browser against the Stripe sandbox (issue 26, item 8): a Starter
// subscriber at the monthly limit upgrades from the limit box through the billing portal, and
// back on the dashboard the new limit shows and submission is open again. Then a downgrade
// (issue 39, item 2) waits for the period's end: the dashboard says when, and the Growth limit
// stays. The journey runs at 390 px; every screen it checks is checked at 1280 px as well.
import { describe, expect, it } from 'vitest';
import { submitEpisode, tokenOf, uploadEpisodeFile, useAutomation } from '../support/episodes.ts';
import { createUser, markOnboarded } from '../support/users.ts';
import { expectOnPage, expectScreenAtBothWidths, narrowScreen, useBrowser, waitForToast } from './support/browser.ts';

const harness = useBrowser();
useAutomation('webhook');

describe('upgrading from the limit box', () => {
  it('Starter at its limit -> Upgrade plan -> portal -> Growth -> the dashboard shows 1 / 2 and submission is open; back to Starter waits for the period end (at 390 px; each screen at 1280 px too)', async () => {
    const user = await createUser('new', { drive: 'connected', hostingReady: true });
    const page = await harness.signedInPage(user);
    await page.setViewportSize(narrowScreen);
    await page.goto('/');
    await expectOnPage(page, '/subscribe');
    await page.getByRole('button', { name: /Choose Starter/ }).click();
    await page.waitForURL(/\/checkout\/cs_test_/);
    await page.getByRole('button', { name: 'Pay' }).click();
    await expectOnPage(page, '/onboarding');
    await markOnboarded(user.id);
    // This month's one Starter episode.
    const submitter = { ...user, token: await tokenOf(user) };
    expect((await submitEpisode(submitter, [(await uploadEpisodeFile(submitter)).path])).status).toBe(201);

    await page.goto('/dashboard');
    await page.getByText('Monthly limit reached. Your plan allows 1 episode(s) per month.').waitFor();
    await page.getByTestId('episodes-used').getByText('1 / 1 used').waitFor();
    await expectScreenAtBothWidths(page);
    await page.getByTestId('gating-box').getByRole('button', { name: 'Upgrade plan' }).click();

    // The portal opens on choosing a plan: the current one cannot be chosen.
    await page.waitForURL(/\/portal\/bps_/);
    await page.getByRole('group', { name: 'Choose a plan' }).waitFor();
    expect(await page.getByLabel(/Castloop Starter/).isDisabled()).toBe(true);
    await expectScreenAtBothWidths(page);
    await page.getByLabel(/Castloop Growth/).check();
    await page.getByRole('button', { name: 'Continue' }).click();

    // The confirmation shows what the upgrade costs today: a month of Growth from today, less
    // Starter's unused time.
    await page.getByRole('heading', { name: 'Confirm your new plan' }).waitFor();
    await page.getByRole('row', { name: /Unused time on Castloop Starter -\$\d+\.\d\d/ }).waitFor();
    await page.getByRole('row', { name: /Castloop Growth until \d{1,2} \w+ \d{4} \$499\.00/ }).waitFor();
    expect(await page.locator('#prorated-amount').textContent()).toMatch(/^\$\d+\.\d\d$/);
    await expectScreenAtBothWidths(page);
    await page.getByRole('button', { name: 'Confirm' }).click();

    // Back on the dashboard without a reload: the new plan and its limit, and the box is gone.
    await page.waitForURL((url) => url.pathname === '/dashboard' && !url.searchParams.has('plan_changed_from'));
    await waitForToast(page, 'Your plan is now the Growth Done-For-You Service.');
    await page.getByTestId('episodes-used').getByText('1 / 2 used').waitFor();
    await page.getByText(/this month · Growth Done-For-You Service/).waitFor();
    expect(await page.getByTestId('gating-box').count()).toBe(0);
    await expectScreenAtBothWidths(page);
    await page.getByRole('button', { name: 'Submit New Episode' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit New Episode' });
    expect(await dialog.getByRole('button', { name: 'Submit Episode' }).isDisabled()).toBe(false);
    expect(await dialog.getByRole('alert').count()).toBe(0);
    // And the server takes the second episode of the month.
    expect((await submitEpisode(submitter, [(await uploadEpisodeFile(submitter)).path])).status).toBe(201);

    // Back to Starter from the plans page: it waits for the end of the month paid for.
    await page.goto('/subscribe');
    await page.getByRole('button', { name: /Change to Starter/ }).click();
    await page.waitForURL(/\/portal\/bps_/);
    await page.getByRole('heading', { name: 'Confirm your new plan' }).waitFor();
    await page.getByText(/Nothing to pay today: Castloop Growth stays until \d{1,2} \w+ \d{4}\./).waitFor();
    await expectScreenAtBothWidths(page);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' && !url.searchParams.has('plan_changed_from'));
    const scheduled = /^Your plan changes to the Starter Done-For-You Service on \d{1,2} \w+ \d{4}\.$/;
    await page.getByTestId('toast').filter({ hasText: scheduled }).waitFor();
    expect(await page.getByTestId('scheduled-plan-change').textContent()).toMatch(scheduled);
    // Growth and its limit until then.
    await page.getByTestId('episodes-used').getByText('2 / 2 used').waitFor();
    await page.getByText(/this month · Growth Done-For-You Service/).waitFor();
    await expectScreenAtBothWidths(page);
  }, 150_000);
});
