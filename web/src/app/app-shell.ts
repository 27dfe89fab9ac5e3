// The first screen as static HTML in index.html: the header of a signed-out visitor and the
// loading spinner, exactly as React first renders them (app-shell.test.tsx keeps them equal). It
// paints as soon as the page and its stylesheet arrive, before any script has loaded; React then
// replaces it with the same markup.
// With its extension: vite.config.ts loads this file, and Node resolves only full paths.
import { appTexts } from './texts.ts';

export const appShellHtml =
  '<header class="navbar border-b border-base-300 bg-base-100 px-4">' +
  '<div class="flex flex-1 items-center gap-3">' +
  `<a class="text-xl font-bold" href="/" data-discover="true">${appTexts.productName}</a>` +
  `<span class="badge badge-outline">${appTexts.version}</span>` +
  '</div>' +
  '</header>' +
  '<div class="flex min-h-[50vh] flex-col items-center justify-center gap-3" role="status" aria-live="polite">' +
  '<span class="loading loading-spinner loading-lg text-primary" aria-hidden="true"></span>' +
  `<p>${appTexts.loading}</p>` +
  '</div>';
