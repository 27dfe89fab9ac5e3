// A file on disk as a streamed request body (Storage, Drive, the platforms' uploads): never whole
// in memory.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

/**
 * Read in 1 MiB chunks rather than the stream default of 64 KiB: fetch's body costs CPU per chunk,
 * and a gigabyte episode sent from a small worker cost about a third as much CPU this way (measured
 * in decisions.md, "The join's transfers").
 */
const READ_CHUNK_BYTES = 1 << 20;

export const fileBody = (file: string) => Readable.toWeb(createReadStream(file, { highWaterMark: READ_CHUNK_BYTES })) as ReadableStream<Uint8Array>;
