// The sandbox's WordPress sites: any name under /wordpress/<site> is a site whose users/me answers
// SANDBOX_WORDPRESS_USER with its application password (Basic auth), as WordPress's REST API does.
// The site named SANDBOX_WORDPRESS_ENDLESS_SITE plays a hostile site: its answer never ends (a JSON
// string streamed until the client hangs up), and GET /wordpress/_control/endless says how many
// bytes it sent and whether a client still reads.
import { sendJson } from '../../lib/http.ts';
import type { SandboxRequest, SandboxRoutes } from '../types.ts';

/** Every sandbox WordPress site accepts this user. */
export const SANDBOX_WORDPRESS_USER = { username: 'castloop-editor', password: 'abcd efgh ijkl mnop qrst uvwx' };

/** The sandbox WordPress site whose answer never ends. */
export const SANDBOX_WORDPRESS_ENDLESS_SITE = 'endless-answer';

export function wordpressSiteRoutes(routes: SandboxRoutes): void {
  const endless = { bytesSent: 0, open: 0 };

  /** A 200 whose JSON never ends: written as fast as the client reads, until it hangs up. */
  function endlessAnswer({ res }: SandboxRequest): void {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    endless.open += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"name":"');
    const more = () => {
      while (!res.destroyed) {
        endless.bytesSent += chunk.length;
        if (!res.write(chunk)) return;
      }
    };
    res.on('drain', more);
    res.on('close', () => {
      endless.open -= 1;
    });
    more();
  }

  function wordpressMe(request: SandboxRequest, site: string): void {
    const header = request.req.headers.authorization ?? '';
    const [username, ...rest] = header.toLowerCase().startsWith('basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':') : [''];
    // WordPress accepts application passwords with or without their spaces.
    const password = rest.join(':').replace(/\s+/g, '');
    const user = SANDBOX_WORDPRESS_USER;
    if (username !== user.username || password !== user.password.replace(/\s+/g, '')) {
      sendJson(request.res, 401, { code: 'incorrect_password', message: 'The provided password is an invalid application password.', data: { status: 401 } });
      return;
    }
    if (site === SANDBOX_WORDPRESS_ENDLESS_SITE) return endlessAnswer(request);
    sendJson(request.res, 200, { id: 1, name: `${user.username} on ${site}`, slug: user.username, roles: ['editor'] });
  }

  routes
    .on('GET', '/wordpress/_control/endless', ({ res }) => sendJson(res, 200, endless))
    .on('GET', '/wordpress/:site/wp-json/wp/v2/users/me', (request) => wordpressMe(request, request.params.site));
}
