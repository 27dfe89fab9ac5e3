// Where the processing worker posts clips, besides YouTube (drive/index.ts), imitating each
// platform's real paths and shapes:
//   X API v2        POST /2/media/upload/initialize {media_type, total_bytes, media_category}
//                   POST /2/media/upload/<id>/append (multipart: media, segment_index)
//                   POST /2/media/upload/<id>/finalize, GET /2/media/upload?command=STATUS&media_id=
//                   POST /2/tweets {text, media: {media_ids}}
//   LinkedIn        GET /v2/userinfo (the member's `sub`)
//                   POST /rest/videos?action=initializeUpload, PUT <uploadUrl> (one per part,
//                   answers an ETag), POST /rest/videos?action=finalizeUpload, POST /rest/posts
//                   (201 with x-restli-id); /rest calls need LinkedIn-Version and
//                   X-Restli-Protocol-Version 2.0.0
//   WordPress REST  POST /wordpress/<site>/wp-json/wp/v2/media (binary body, Content-Disposition)
//                   POST /wordpress/<site>/wp-json/wp/v2/posts, Basic auth (application password)
// X and LinkedIn take only access tokens the OAuth sandbox issued and that still work.
// Sandbox-only: GET /_sandbox/social (every post), POST /_sandbox/social/fail-next
// {platform, count} (the platform's next post-creating calls answer 503).
import { sendJson } from '../../lib/http.ts';
import { escapeHtml } from '../http.ts';
import type { TokenIdentity } from '../oauth/index.ts';
import type { SandboxModule } from '../types.ts';
import { linkedinHandlers } from './linkedin.ts';
import { createSocialStore, json, type Platform } from './store.ts';
import { tokenGuard } from './tokens.ts';
import { wordpressHandlers } from './wordpress.ts';
import { xHandlers } from './x.ts';

export function createSocialSandbox(options: { dataDir: string; baseUrl: string; identify: (token: string) => TokenIdentity | null }): SandboxModule {
  const store = createSocialStore(options.dataDir);
  const { state, persisted, failNext } = store;
  const withToken = tokenGuard(options.identify);
  const { xInitialize, xAppend, xFinalize, xStatus, xTweet, xNotFound } = xHandlers(store);
  const { linkedinNotFound, linkedinRest, linkedinUserinfo, linkedinVideos, linkedinPost, linkedinUpload } = linkedinHandlers(store, withToken, options.baseUrl);
  const { wordpress, wordpressMedia, wordpressPost } = wordpressHandlers(store, options.baseUrl);

  return {
    name: 'X, LinkedIn and WordPress posts',
    routes(routes) {
      routes
        .on('GET', '/_sandbox/social', ({ res }) => sendJson(res, 200, { posts: state.posts }))
        .on('POST', '/_sandbox/social/fail-next', ({ res, body }) => {
          const { platform, count } = json(body) as { platform: Platform; count?: number };
          failNext[platform] = count ?? 1;
          sendJson(res, 200, { platform, count: failNext[platform] });
        })
        .streamed('/_sandbox/social/linkedin-upload/:id(^\\d+$)/:index(^\\d+$)', linkedinUpload, 'PUT');

      // X API v2: media ids are numbers; any other path under /2/ is X's 404.
      routes
        .streamed('/2/media/upload/initialize', withToken('x', xInitialize), 'POST')
        .streamed('/2/media/upload/:id(^\\d+$)/append', withToken('x', xAppend), 'POST')
        .streamed('/2/media/upload/:id(^\\d+$)/finalize', withToken('x', xFinalize), 'POST')
        .on('GET', '/2/media/upload', withToken('x', xStatus))
        .on('POST', '/2/tweets', withToken('x', xTweet))
        .all('/2/*', withToken('x', xNotFound));

      routes
        .all('/v2/userinfo', withToken('linkedin', linkedinUserinfo))
        .on('POST', '/rest/videos', linkedinRest(linkedinVideos))
        .on('POST', '/rest/posts', linkedinRest(linkedinPost))
        .all('/rest/*', linkedinRest(linkedinNotFound));

      routes
        .streamed('/wordpress/:site/wp-json/wp/v2/media', wordpress(wordpressMedia), 'POST')
        .on('POST', '/wordpress/:site/wp-json/wp/v2/posts', wordpress(wordpressPost));
    },
    homeSection() {
      const rows = state.posts
        .slice(-50)
        .reverse()
        .map((post) => `<tr><td>${escapeHtml(post.platform)}</td><td>${escapeHtml(post.text)}</td><td>${post.mediaBytes} bytes</td><td>${escapeHtml(post.createdAt)}</td></tr>`)
        .join('');
      return `<h2>X, LinkedIn and WordPress posts</h2>
<table><thead><tr><th scope="col">Platform</th><th scope="col">Text</th><th scope="col">Video</th><th scope="col">Posted</th></tr></thead><tbody>${rows || '<tr><td colspan="4">No posts yet</td></tr>'}</tbody></table>`;
    },
    async stop() {
      persisted.flush();
    },
  };
}
