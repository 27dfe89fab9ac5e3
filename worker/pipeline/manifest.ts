// What the join delivers, addressed by kind and id: the episode, each clip by its record's id
// (public.episode_clips: its piece delivered it already), and the files made from the words. Each
// file carries what the processing row records of it (StoredOutput), where it is on disk, and its type.
import type { StoredOutput } from '../../supabase/functions/_shared/domain/episode-page.ts';
import type { ClipMoment } from '../../supabase/functions/_shared/domain-server/processing-plan.ts';

/** A file of the delivery: what the row records of it, where it is on disk, and its type. */
export interface DeliveredFile {
  output: StoredOutput;
  file: string;
  mimeType: string;
}

/** A clip its piece delivered: its record's id, its moment, and its file in Drive as the row records it. */
export interface DeliveredClip {
  id: string;
  moment: ClipMoment;
  output: StoredOutput;
}

/** What the join delivers, by kind: the episode, the clips by id, and the files made from the words. */
export interface DeliveryManifest {
  episode: DeliveredFile;
  clips: DeliveredClip[];
  texts: DeliveredFile[];
}
