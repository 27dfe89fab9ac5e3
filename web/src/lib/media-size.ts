// The pixel size of a chosen image or MP4, read in the browser without uploading it.
import { blobReader, mp4Dimensions } from '@domain/mp4-header';

type MediaSize = { width: number; height: number };

/** Decodes the image's header through the browser; null when it is no readable image. */
export async function imageSize(file: Blob): Promise<MediaSize | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

/** An MP4's display size from its track header; null when it is no readable MP4. */
export function videoSize(file: Blob): Promise<MediaSize | null> {
  return mp4Dimensions(blobReader(file), file.size).catch(() => null);
}
