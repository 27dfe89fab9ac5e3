// What each platform receives for a clip whose texts hold markup and reserved characters (issue
// 39, item 4): a local server stands in for YouTube, LinkedIn and a WordPress site and keeps the
// JSON bodies the worker sends.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig, type WorkerConfig } from '../config.ts';
import { htmlText, linkedinCommentary, youtubeText } from '../content/platform-text.ts';
import { postToLinkedIn, postToWordpress, postToYouTube, publishToWordpress, type Clip } from './social.ts';

const hostile = `<img src=x onerror=alert(1)> <script>alert("hi")</script> Tom & Jerry's #Budgets_2026 (live) @home`;

let server: Server;
let origin: string;
let dir: string;
let config: WorkerConfig;
/** JSON bodies received, by path. */
const received = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'castloop-platforms-'));
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', origin);
      if ((req.headers['content-type'] ?? '').startsWith('application/json')) received.set(url.pathname, JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      switch (url.pathname) {
        case '/upload/youtube/v3/videos':
          return json(200, {}, { location: `${origin}/youtube-session` });
        case '/youtube-session':
          return json(200, { id: 'yt-1' });
        case '/v2/userinfo':
          return json(200, { sub: 'member-1' });
        case '/rest/videos':
          return url.searchParams.get('action') === 'initializeUpload'
            ? json(200, { value: { video: 'urn:li:video:1', uploadToken: '', uploadInstructions: [{ uploadUrl: `${origin}/linkedin-part`, firstByte: 0, lastByte: 3 }] } })
            : json(200, {});
        case '/linkedin-part':
          return json(200, {}, { etag: 'part-1' });
        case '/rest/posts':
          return json(201, {}, { 'x-restli-id': 'urn:li:share:1' });
        case '/wp-json/wp/v2/media':
          return json(201, { id: 7, source_url: `${origin}/clip.mp4` });
        case '/wp-json/wp/v2/posts':
          return json(201, { id: 8, link: `${origin}/?p=8` });
        default:
          return json(404, {});
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  config = loadWorkerConfig({
    WORKER_DATABASE_URL: 'postgresql://postgres:pw@127.0.0.1:5432/postgres',
    SUPABASE_URL: origin,
    SUPABASE_SERVICE_ROLE_KEY: 'service-role',
    TOKEN_ENCRYPTION_KEYS: 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    GOOGLE_API_BASE: origin,
    LINKEDIN_API_BASE: origin,
  });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function clip(): Clip {
  const file = path.join(dir, 'clip.mp4');
  writeFileSync(file, 'four');
  return { file, title: hostile, text: hostile, body: hostile };
}

describe('texts encoded for each platform', () => {
  it('WordPress: the clip post and the blog post titles are text, not markup', async () => {
    const site = { siteUrl: origin, username: 'editor', password: 'app password' };
    await postToWordpress(site, clip(), [origin]);
    const title = received.get('/wp-json/wp/v2/posts')?.title as string;
    expect(title).not.toMatch(/[<>"]/);
    expect(title).toBe(
      '&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; Tom &amp; Jerry&#39;s #Budgets_2026 (live) @home',
    );
    received.clear();
    await publishToWordpress(site, { title: hostile, html: '<p>Body</p>', status: 'draft' }, [origin]);
    expect(received.get('/wp-json/wp/v2/posts')).toMatchObject({ title, content: '<p>Body</p>', status: 'draft' });
  });

  it('YouTube: no angle brackets in the title or the description', async () => {
    await postToYouTube(config, 'token', clip());
    const snippet = (received.get('/upload/youtube/v3/videos') as { snippet: { title: string; description: string } }).snippet;
    expect(snippet.title).toBe(youtubeText(hostile));
    expect(snippet.description).toBe(youtubeText(hostile));
    expect(`${snippet.title}${snippet.description}`).not.toMatch(/[<>]/);
    expect(snippet.title).toContain('‹script›alert("hi")‹/script›');
  });

  it('LinkedIn: little text with its reserved characters escaped and the hashtag kept a hashtag', async () => {
    await postToLinkedIn(config, 'token', clip());
    const commentary = received.get('/rest/posts')?.commentary as string;
    expect(commentary).toBe(
      '\\<img src=x onerror=alert\\(1\\)\\> \\<script\\>alert\\("hi"\\)\\</script\\> Tom & Jerry\'s {hashtag|\\#|Budgets\\_2026} \\(live\\) \\@home',
    );
  });
});

describe('the encoders', () => {
  it('leave plain words alone', () => {
    const plain = 'Why do budgets fail? Savings come last.';
    expect(htmlText(plain)).toBe(plain);
    expect(youtubeText(plain)).toBe(plain);
    expect(linkedinCommentary(plain)).toBe(plain);
  });
});
