// A screen whose chunk fails to load (issue 40, item 7), as after a deploy: the open page asks for
// a chunk the server no longer has. The browser aborts the screen's chunk on purpose. The screen
// shows what happened and a Reload button below the header, which keeps its navigation; the
// button, reached with the keyboard, loads the page again, and with the chunk there the screen.
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/users.ts';
import { expectAccessible, expectOnPage, useBrowser } from './support/browser.ts';

const harness = useBrowser();
// The production build names a screen's chunk after its module, with a hash of its content.
const episodeListChunk = /\/assets\/episode-list-page-[\w-]+\.js$/;

describe('a screen whose chunk fails to load', () => {
  it('shows the message and a Reload button below the header; Reload brings the screen once the chunk loads', async () => {
    const page = await harness.signedInPage(await createUser('onboarded'));
    let abortedChunks = 0;
    await page.route(episodeListChunk, (route) => {
      abortedChunks += 1;
      return route.abort('failed');
    });
    await page.goto('/episodes');
    const failure = page.getByRole('alert').filter({ hasText: 'This screen could not be loaded' });
    await failure.waitFor();
    expect(abortedChunks).toBeGreaterThan(0);
    expect(await failure.textContent()).toContain('Reload the page to continue.');
    const header = page.getByRole('banner');
    await header.getByRole('button', { name: /^Account menu: / }).waitFor();
    await expectAccessible(page);

    // The header's navigation still works, and the failure stays with its own address.
    await header.getByRole('link', { name: 'Castloop' }).click();
    await expectOnPage(page, '/');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await page.getByRole('button', { name: 'Reload' }).count()).toBe(0);
    await page.goBack();
    await failure.waitFor();

    // The chunk is there again (the new deploy's page names its own): the keyboard reaches
    // Reload, and Enter loads the page and the screen.
    await page.unroute(episodeListChunk);
    const reload = page.getByRole('button', { name: 'Reload' });
    for (let presses = 0; presses < 20 && !(await reload.evaluate((button) => button === document.activeElement)); presses++) {
      await page.keyboard.press('Tab');
    }
    expect(await reload.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your Episodes' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'This screen could not be loaded' }).count()).toBe(0);
    await expectAccessible(page);
  });
});
