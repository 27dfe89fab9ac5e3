// The accessibility check every browser test relies on: it must fail on a page with a serious
// violation, and pass the same page once the violation is fixed.
import { describe, expect, it } from 'vitest';
import { expectAccessible, useBrowser } from './browser.ts';

const harness = useBrowser();

describe('expectAccessible', () => {
  it('fails on an image without a text alternative and passes once it has one', async () => {
    const page = await harness.newPage();
    const screen = (img: string) => `<!doctype html><html lang="en"><head><title>Check</title></head><body><main><h1>Check</h1>${img}</main></body></html>`;
    await page.setContent(screen('<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'));
    const failure = await expectAccessible(page).then(
      () => undefined,
      (error: { message: string; actual?: unknown }) => error,
    );
    expect(failure?.message).toMatch(/^accessibility violations/);
    expect(failure?.actual).toEqual([expect.stringMatching(/^image-alt: /)]);
    await page.setContent(screen('<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="A dot">'));
    await expectAccessible(page);
  });
});
