// Brotli for the production build's scripts and styles when the local server serves it (`vite
// preview`), as static hosts serve them; Vite's own preview server only gzips. Each file is
// compressed once, at the highest quality, on a worker thread (zlib's pool) the first time it is
// asked for; until then it goes out gzipped as before.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import type { Plugin } from 'vite';

const compress = promisify(brotliCompress);
const contentTypes: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css' };

export function brotliAssets(): Plugin {
  return {
    name: 'castloop-brotli-assets',
    configurePreviewServer(server) {
      const assetsDir = path.resolve(server.config.root, server.config.build.outDir, server.config.build.assetsDir);
      // Settled compressions only; a file being compressed is in `pending`.
      const compressed = new Map<string, Buffer>();
      const pending = new Set<string>();

      server.middlewares.use((req, res, next) => {
        let pathname: string;
        try {
          pathname = decodeURIComponent((req.url ?? '').split('?')[0]);
        } catch {
          return next(); // broken percent-encoding: the static server answers it as before
        }
        const file = path.join(assetsDir, path.relative(`/${server.config.build.assetsDir}`, pathname));
        const contentType = contentTypes[path.extname(file)];
        const wantsBrotli = /\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''));
        if ((req.method !== 'GET' && req.method !== 'HEAD') || !contentType || !wantsBrotli || !file.startsWith(`${assetsDir}${path.sep}`)) return next();

        const body = compressed.get(file);
        if (!body) {
          if (!pending.has(file)) {
            pending.add(file);
            readFile(file)
              .then((raw) => compress(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }))
              .then((result) => compressed.set(file, result))
              .catch(() => {
                // Not a file of the build (or unreadable): the static server answers as before.
              })
              .finally(() => pending.delete(file));
          }
          return next();
        }
        res.writeHead(200, {
          'Content-Type': contentType,
          'Content-Encoding': 'br',
          'Content-Length': body.length,
          Vary: 'Accept-Encoding',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    },
  };
}
