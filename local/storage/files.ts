// Object bytes on disk, under <dataDir>/storage: `objects/<v[0..2]>/<version>` holds one object
// version (names live only in the database, so move is a row update), `tmp/` holds uploads in
// progress, `tus/` holds resumable uploads.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errors } from './errors.ts';

export class ObjectFiles {
  readonly root: string;
  readonly objectsDir: string;
  readonly tmpDir: string;
  readonly tusDir: string;

  constructor(root: string) {
    this.root = root;
    this.objectsDir = path.join(root, 'objects');
    this.tmpDir = path.join(root, 'tmp');
    this.tusDir = path.join(root, 'tus');
  }

  async init(): Promise<void> {
    await Promise.all([this.objectsDir, this.tusDir].map((dir) => fs.mkdir(dir, { recursive: true })));
    // Leftovers of uploads interrupted by a crash are never completed: drop them.
    await fs.rm(this.tmpDir, { recursive: true, force: true });
    await fs.mkdir(this.tmpDir, { recursive: true });
  }

  pathOf(version: string): string {
    if (!/^[0-9a-zA-Z-]+$/.test(version)) throw errors.noSuchKey();
    return path.join(this.objectsDir, version.slice(0, 2), version);
  }

  newTempPath(): string {
    return path.join(this.tmpDir, randomUUID());
  }

  /** Moves a finished file (temp or TUS) into place as `version`. */
  async adopt(from: string, version: string): Promise<string> {
    const target = this.pathOf(version);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(from, target);
    return target;
  }

  async copy(fromVersion: string, toVersion: string): Promise<void> {
    const target = this.pathOf(toVersion);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.copyFile(this.pathOf(fromVersion), target, fs.constants.COPYFILE_FICLONE);
  }

  async remove(version: string | null | undefined): Promise<void> {
    if (!version) return;
    await fs.rm(this.pathOf(version), { force: true });
  }

  /** Deletes a file by path (temp or TUS files), ignoring one already gone. */
  async removeFile(file: string): Promise<void> {
    await fs.rm(file, { force: true });
  }

  /** Deletes files in `dir` (not recursively) untouched for longer than `maxAgeMs`. */
  async sweepStale(dir: string, maxAgeMs: number): Promise<void> {
    const now = Date.now();
    for (const name of await fs.readdir(dir)) {
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat?.isFile() && now - stat.mtimeMs > maxAgeMs) await fs.rm(file, { force: true });
    }
  }

  async removeMany(versions: Array<string | null | undefined>): Promise<void> {
    await Promise.all(versions.map((version) => this.remove(version)));
  }
}

export interface StoredTemp {
  path: string;
  size: number;
  md5: string;
}

/**
 * Streams `source` into a new temp file, hashing as it goes; rejects with 413 once more than
 * `limit` bytes arrive. The source is never destroyed (the caller still has to answer on its
 * socket): on failure it is unpiped and left flowing. The temp file is gone when this rejects.
 */
export async function writeTemp(files: ObjectFiles, source: Readable, limit: number): Promise<StoredTemp> {
  // A client that hung up while the caller was still checking its rights has already emitted
  // 'aborted' and 'close': no further event would come, and the temp file would stay forever.
  if (source.destroyed && !source.readableEnded) throw errors.invalidRequest('Upload aborted by the client');
  const target = files.newTempPath();
  const hash = createHash('md5');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) return done(errors.entityTooLarge());
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const onSourceError = (error: Error) => meter.destroy(error);
  const onSourceAborted = () => meter.destroy(errors.invalidRequest('Upload aborted by the client'));
  source.once('error', onSourceError);
  source.once('aborted', onSourceAborted);
  source.pipe(meter);
  try {
    await pipeline(meter, createWriteStream(target));
  } catch (error) {
    source.unpipe(meter);
    source.resume();
    await fs.rm(target, { force: true });
    throw error;
  } finally {
    source.off('error', onSourceError);
    source.off('aborted', onSourceAborted);
  }
  return { path: target, size, md5: hash.digest('hex') };
}
