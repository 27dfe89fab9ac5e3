// Request bodies and HTML pages for the sandbox modules (JSON answers: local/lib/http.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBodyUpTo } from '../lib/http.ts';

export async function readBody(req: IncomingMessage, limit = 5 * 1024 * 1024): Promise<Buffer> {
  const body = await readBodyUpTo(req, limit);
  if (!body) throw new Error('request body too large');
  return body;
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const styles = `
  body { font-family: system-ui, sans-serif; margin: 0; background: #f6f7fb; color: #1a1f36; }
  main { max-width: 56rem; margin: 2rem auto; padding: 1.5rem 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e3e8ee; vertical-align: top; }
  button { font: inherit; padding: .6rem 1.2rem; border-radius: 6px; border: 0; background: #4b3fd6; color: #fff; cursor: pointer; }
  button.secondary { background: #e3e8ee; color: #1a1f36; }
  button:focus-visible, a:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
  a { color: #3b2fc9; }
  .notice { padding: .75rem 1rem; background: #e6f4ea; border-radius: 6px; }
  .warning { padding: .75rem 1rem; background: #fdecea; border-radius: 6px; }
  .price { font-size: 2rem; font-weight: 600; }
  .muted { color: #5a6478; }
  .actions { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; margin-top: 1.5rem; }
  code { font-size: .85em; }
  fieldset { border: 1px solid #e3e8ee; border-radius: 6px; padding: .5rem 1rem; }
  legend { font-weight: 600; padding: 0 .25rem; }
  .choice { display: block; padding: .5rem 0; }
`;

/** A complete, accessible HTML page (lang, title, landmark, one h1). */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
