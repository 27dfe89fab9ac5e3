// What an MP4's header says without decoding it: walk the top-level boxes to 'moov' (which may
// sit after a large 'mdat', so only box headers are read on the way). The display size is the
// first video track's 'tkhd' width and height, swapped when its matrix turns the picture a
// quarter turn; the length is the movie header's ('mvhd') duration. The SPA reads a chosen File,
// the api a stored object through ranged requests (only a few small reads for the length).

/** Reads `length` bytes at `offset` (fewer at the end of the file). */
export type ByteReader = (offset: number, length: number) => Promise<Uint8Array>;

const MAX_MOOV_BYTES = 64 * 1024 * 1024;
/** A file of many tiny boxes must not cost a read per box without end. */
const MAX_BOXES_WALKED = 64;

interface Box {
  type: string;
  start: number;
  headerSize: number;
  size: number;
}

function readBoxHeader(view: DataView, offset: number, available: number): Box | null {
  if (available < 8) return null;
  let size = view.getUint32(offset);
  const type = String.fromCharCode(...new Uint8Array(view.buffer, view.byteOffset + offset + 4, 4));
  let headerSize = 8;
  if (size === 1) {
    if (available < 16) return null;
    size = Number(view.getBigUint64(offset + 8));
    headerSize = 16;
  } else if (size === 0) {
    size = available;
  }
  if (size < headerSize) return null;
  return { type, start: offset, headerSize, size };
}

function* children(view: DataView, start: number, end: number): Generator<Box> {
  let offset = start;
  while (offset < end) {
    const box = readBoxHeader(view, offset, end - offset);
    if (!box) return;
    yield box;
    offset += box.size;
  }
}

function child(view: DataView, parent: Box, type: string): Box | undefined {
  for (const box of children(view, parent.start + parent.headerSize, parent.start + parent.size)) {
    if (box.type === type) return box;
  }
  return undefined;
}

function handlerType(view: DataView, trak: Box): string | null {
  const mdia = child(view, trak, 'mdia');
  const hdlr = mdia && child(view, mdia, 'hdlr');
  if (!hdlr) return null;
  // full box header (4) + pre_defined (4), then the handler type.
  const at = hdlr.start + hdlr.headerSize + 8;
  return String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
}

function trackSize(view: DataView, tkhd: Box): { width: number; height: number } {
  const body = tkhd.start + tkhd.headerSize;
  const version = view.getUint8(body);
  // version 1 has 64-bit times: creation, modification, (track id, reserved), duration.
  const afterTimes = body + 4 + (version === 1 ? 8 + 8 + 4 + 4 + 8 : 4 + 4 + 4 + 4 + 4);
  const matrix = afterTimes + 8 + 2 + 2 + 2 + 2; // reserved, layer, alternate group, volume, reserved
  const a = view.getInt32(matrix);
  const b = view.getInt32(matrix + 4);
  const width = view.getUint32(matrix + 36) / 65536;
  const height = view.getUint32(matrix + 40) / 65536;
  const quarterTurn = a === 0 && b !== 0;
  return quarterTurn ? { width: height, height: width } : { width, height };
}

/** The top-level 'moov' box (offset and size in the file), or null when the file is no readable MP4. */
async function findMoov(read: ByteReader, fileSize: number): Promise<Box | null> {
  let offset = 0;
  for (let walked = 0; offset + 8 <= fileSize && walked < MAX_BOXES_WALKED; walked++) {
    const head = await read(offset, 16);
    const box = readBoxHeader(new DataView(head.buffer, head.byteOffset, head.byteLength), 0, Math.min(head.byteLength, fileSize - offset));
    if (!box) return null;
    if (offset === 0 && box.type !== 'ftyp') return null;
    if (box.type === 'moov') return { ...box, start: offset };
    offset += box.size;
  }
  return null;
}

/** The first video track's display size, or null when the file is no readable MP4. */
export async function mp4Dimensions(read: ByteReader, fileSize: number): Promise<{ width: number; height: number } | null> {
  const found = await findMoov(read, fileSize);
  if (!found || found.size > MAX_MOOV_BYTES) return null;
  const bytes = await read(found.start, found.size);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const moov = { ...found, start: 0, size: bytes.byteLength };
  for (const trak of children(view, moov.headerSize, moov.size)) {
    if (trak.type !== 'trak') continue;
    const tkhd = child(view, trak, 'tkhd');
    if (!tkhd) continue;
    const size = trackSize(view, tkhd);
    const handler = handlerType(view, trak);
    if (handler === 'vide' || (handler === null && size.width > 0 && size.height > 0)) return size;
  }
  return null;
}

/**
 * The movie's length in seconds from its 'mvhd', reading only box headers on the way; null when
 * the file is no readable MP4 or does not say (a fragmented MP4's movie header gives 0).
 */
export async function mp4DurationSeconds(read: ByteReader, fileSize: number): Promise<number | null> {
  const moov = await findMoov(read, fileSize);
  if (!moov) return null;
  const end = Math.min(moov.start + moov.size, fileSize);
  let offset = moov.start + moov.headerSize;
  for (let walked = 0; offset + 8 <= end && walked < MAX_BOXES_WALKED; walked++) {
    const head = await read(offset, 16);
    const box = readBoxHeader(new DataView(head.buffer, head.byteOffset, head.byteLength), 0, Math.min(head.byteLength, end - offset));
    if (!box) return null;
    if (box.type === 'mvhd') {
      // full box header, then (version 0) creation, modification, timescale, duration as 32 bits,
      // or (version 1) creation and modification as 64 bits, timescale 32, duration 64.
      const bytes = await read(offset + box.headerSize, 32);
      if (bytes.byteLength < 20) return null;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const version = view.getUint8(0);
      if (version === 1 && bytes.byteLength < 32) return null;
      const timescale = view.getUint32(version === 1 ? 20 : 12);
      const duration = version === 1 ? Number(view.getBigUint64(24)) : view.getUint32(16);
      const unknown = version === 1 ? duration >= Number.MAX_SAFE_INTEGER : duration === 0xffffffff;
      if (timescale === 0 || duration === 0 || unknown) return null;
      return duration / timescale;
    }
    offset += box.size;
  }
  return null;
}

/** A ByteReader over a Blob (a File from a file chooser). */
export function blobReader(blob: Blob): ByteReader {
  return async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
}
