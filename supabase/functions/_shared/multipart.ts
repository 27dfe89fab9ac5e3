// A streamed multipart/form-data reader (busboy): parts come one at a time in body order, and a
// file part's bytes flow as a web stream without the request being held in memory. The caller
// must read or discard each file before asking for the next part.
// @ts-types="npm:@types/busboy@1.5.4"
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { HttpError } from './http-error.ts';

type MultipartPart =
  | { kind: 'field'; name: string; value: string; truncated: boolean }
  | {
      kind: 'file';
      name: string;
      filename: string;
      mimeType: string;
      /** The file's bytes; errors with 413 once they pass `maxFileBytes`. */
      stream: ReadableStream<Uint8Array>;
      /** Skips the file's bytes. */
      discard(): Promise<void>;
    };

interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
  maxFields: number;
  maxFieldBytes: number;
}

/** A file part: its bytes as a web stream that pauses the parse while unread, and a way to skip them. */
function filePart(name: string, file: Readable, info: busboy.FileInfo): MultipartPart {
  let tooLarge = false;
  file.on('limit', () => {
    tooLarge = true;
  });
  // Once the reader cancels (a refused part) or the stream ends, later events must not touch
  // the controller: a throw inside busboy's event handlers would take the whole host down.
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const settle = (end: () => void) => {
        if (!open) return;
        open = false;
        end();
      };
      file.on('data', (chunk: Uint8Array) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk));
        if (controller.desiredSize !== null && controller.desiredSize <= 0) file.pause();
      });
      file.on('end', () => settle(() => (tooLarge ? controller.error(new HttpError(413, `${name} is too large`)) : controller.close())));
      file.on('error', (error: Error) => settle(() => controller.error(error)));
    },
    pull() {
      file.resume();
    },
    cancel() {
      open = false;
      file.resume();
    },
  });
  // Settles however the file ends: read to its end, or cut short (a truncated body destroys it).
  const discard = () =>
    new Promise<void>((resolve) => {
      if (file.readableEnded || file.destroyed) return resolve();
      file.removeAllListeners('data');
      file.once('end', () => resolve());
      file.once('close', () => resolve());
      file.resume();
    });
  return { kind: 'file', name, filename: info.filename ?? '', mimeType: info.mimeType ?? '', stream, discard };
}

export async function* multipartParts(request: Request, limits: MultipartLimits): AsyncGenerator<MultipartPart> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data;/i.test(contentType)) throw new HttpError(415, 'Expected a multipart/form-data body');
  if (!request.body) throw new HttpError(400, 'Request body is empty');

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: limits.maxFields, fieldSize: limits.maxFieldBytes },
    });
  } catch (error) {
    throw new HttpError(400, `Malformed multipart body: ${(error as Error).message}`);
  }

  const queue: MultipartPart[] = [];
  let finished = false;
  let failure: HttpError | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };

  parser.on('field', (name, value, info) => {
    queue.push({ kind: 'field', name, value, truncated: info.valueTruncated });
    notify();
  });
  parser.on('file', (name, file, info) => {
    queue.push(filePart(name, file, info));
    notify();
  });
  parser.on('filesLimit', () => {
    failure ??= new HttpError(413, `At most ${limits.maxFiles} files`);
  });
  parser.on('fieldsLimit', () => {
    failure ??= new HttpError(413, `At most ${limits.maxFields} fields`);
  });
  parser.on('error', (error: Error) => {
    failure ??= new HttpError(400, `Malformed multipart body: ${error.message}`);
    finished = true;
    notify();
  });
  parser.on('close', () => {
    finished = true;
    notify();
  });

  // The body is read here, never through a Node stream pipe: a read that fails (the client went
  // away, or the answer was sent and the body closed under a pending read) is caught and ends the
  // parse, instead of surfacing as an uncaught error that stops the whole host.
  const reader = request.body.getReader();
  let stopped = false;
  const pump = async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || stopped) break;
        if (!parser.write(value)) await new Promise<void>((resolve) => {
          parser.once('drain', resolve);
          parser.once('close', resolve);
        });
      }
      if (!stopped) parser.end();
    } catch {
      failure ??= new HttpError(400, 'The request body could not be read to its end');
      parser.destroy();
      finished = true;
      notify();
    }
  };
  void pump();

  try {
    while (true) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (failure) throw failure;
      if (finished) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    // Whatever the caller did with the parts, nothing of this body is read after the answer.
    stopped = true;
    parser.destroy();
    reader.cancel().catch(() => {});
  }
}
