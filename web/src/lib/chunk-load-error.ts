// A failed chunk: a dynamic import the browser could not fetch or evaluate, or Vite's preload of
// its stylesheet. Most often the open page asks for a chunk a deploy has since replaced (chunk
// names change with their content), or the connection dropped; a reload fetches the page's
// current chunks. The browsers' messages: Chromium 'Failed to fetch dynamically imported module:
// <url>', Firefox 'error loading dynamically imported module: <url>', Safari 'Importing a module
// script failed.'; Vite's 'Unable to preload CSS for <url>'.
const chunkLoadFailures = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && chunkLoadFailures.test(error.message);
}

/** Loads the page again from the server: its HTML, and with it the chunks of the current deploy. */
export function reloadPage(): void {
  window.location.reload();
}
