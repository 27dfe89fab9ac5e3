import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ObjectFiles, writeTemp } from './files.ts';

describe('writeTemp', () => {
  let files: ObjectFiles;
  beforeEach(async () => {
    files = new ObjectFiles(await fs.mkdtemp(path.join(os.tmpdir(), 'castloop-files-')));
    await files.init();
  });
  afterEach(() => fs.rm(files.root, { recursive: true, force: true }));

  it('refuses a body whose client hung up before it was read, leaving no temp file', async () => {
    const cutOff = new Readable({ read() {} });
    cutOff.push(Buffer.alloc(1024));
    cutOff.destroy();
    await expect(writeTemp(files, cutOff, 1024 * 1024)).rejects.toMatchObject({ message: 'Upload aborted by the client' });
    expect(await fs.readdir(files.tmpDir)).toEqual([]);
  });

  it('keeps a whole body, and drops the file of one cut off part way', async () => {
    const kept = await writeTemp(files, Readable.from([Buffer.from('hello')]), 1024);
    expect(kept.size).toBe(5);
    expect(await fs.readFile(kept.path, 'utf8')).toBe('hello');

    const partial = new Readable({ read() {} });
    const writing = writeTemp(files, partial, 1024 * 1024);
    partial.push(Buffer.alloc(512));
    setImmediate(() => partial.emit('aborted'));
    await expect(writing).rejects.toMatchObject({ message: 'Upload aborted by the client' });
    expect(await fs.readdir(files.tmpDir)).toEqual([path.basename(kept.path)]);
  });
});
