// What the processing benches share: the subscriber they submit as and the camera-like source.
// Imported only after benchStack has pointed the test support at the bench's own stack.
import { execFileSync } from 'node:child_process';

/**
 * An onboarded Starter subscriber whose Google Drive is connected with a grant of the bench's own
 * OAuth sandbox, so a refresh of its token works as a real one does (the daily refresh job takes
 * every token due within 26 hours: a token no sandbox issued would be refused there and the
 * connection marked failed, "Google Drive is not connected", midway through a bench).
 */
export async function driveSubscriber() {
  const { createUser } = await import('../../tests/support/users.ts');
  const { connect, sandboxGrant } = await import('../../tests/support/platforms.ts');
  const user = await createUser('onboarded', { tier: 'starter' });
  await connect(user, 'google', await sandboxGrant('google'), '1 hour');
  return user;
}

/**
 * The split benches' inputs in `work`: a camera-like 1080p episode, a 256x256 logo (so the
 * picture is re-encoded in segments: the longer path) and a small warm-up video.
 */
export async function brandedInputs(work: string, seconds: number, fps: number) {
  const path = await import('node:path');
  const { makeVideo } = await import('../../tests/support/media.ts');
  const { currentMediaTools } = await import('../../worker/media/ffmpeg.ts');
  const input = path.join(work, 'episode-1080p.mp4');
  await camera1080p(input, seconds, fps);
  const logo = path.join(work, 'logo.png');
  execFileSync(currentMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=0x00FF00:s=256x256', '-frames:v', '1', logo]);
  const warmUp = makeVideo(path.join(work, 'warm-up.mp4'), { size: '320x180', fps: 10, seconds: 10 });
  return { input, logo, warmUp };
}

/** The profile's logo uploaded and recorded, with `profile`'s other columns (e.g. the podcast's language). */
export async function brandLogo(userId: string, logo: string, profile: Record<string, string> = {}): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const { serviceClient, withDb } = await import('../../tests/support/stack.ts');
  const logoPath = `${userId}/logo/logo.png`;
  const columns = { logo_path: logoPath, ...profile };
  const names = Object.keys(columns);
  await withDb((db) => db.query(`update public.profiles set ${names.map((name, i) => `${name} = $${i + 2}`).join(', ')} where id = $1`, [userId, ...Object.values(columns)]));
  const { error } = await serviceClient().storage.from('brand-assets').upload(logoPath, readFileSync(logo), { contentType: 'image/png' });
  if (error) throw new Error(error.message);
}

/** Uploads an episode file to the subscriber's folder and answers its object path. */
export function episodeUploader(userId: string) {
  return async (file: string, name: string): Promise<string> => {
    const { readFileSync } = await import('node:fs');
    const { serviceClient } = await import('../../tests/support/stack.ts');
    const objectPath = `${userId}/uploads/${name}`;
    const { error } = await serviceClient().storage.from('episodes').upload(objectPath, readFileSync(file), { contentType: 'video/mp4' });
    if (error) throw new Error(error.message);
    return objectPath;
  };
}

/** A camera-like 1080p source at `fps`: moving picture, speech-like sound, a keyframe every 2 s. */
export async function camera1080p(file: string, seconds: number, fps: number): Promise<void> {
  const { currentMediaTools } = await import('../../worker/media/ffmpeg.ts');
  const { SPEECH } = await import('../../tests/support/media.ts');
  execFileSync(currentMediaTools().ffmpeg, [
    '-hide_banner', '-nostdin', '-y', '-loglevel', 'error',
    '-f', 'lavfi', '-i', `testsrc2=s=1920x1080:r=${fps}:d=${seconds}`,
    '-f', 'lavfi', '-i', `aevalsrc=${SPEECH}:s=48000:d=${seconds}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(2 * fps), '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file,
  ]);
}

/**
 * Submits `count` episodes of `objectPath` for `userId` at once (as submit_episode records them)
 * and answers the seconds until every one is delivered, with each one's outputs, and when the
 * first one's stage (episode_processing.stage, as the worker reports it) changed, in seconds from
 * the submission (polled every 250 ms).
 */
export async function processEpisodes(
  userId: string,
  objectPath: string,
  options: { count?: number; addLogo?: boolean } = {},
): Promise<{ seconds: number; outputs: unknown[]; stages: { stage: string; at: number }[] }> {
  const { withDb } = await import('../../tests/support/stack.ts');
  const { count = 1, addLogo = false } = options;
  const began = Date.now();
  const ids = await withDb(async (db) => {
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      const { rows } = await db.query(
        `with e as (insert into public.episodes (user_id, title, files) values ($1, $2, array[$3]) returning id)
         insert into public.submission_logs (episode_id, user_id, user_email, object_storage_files, submission_parameters)
         select e.id, $1, 'bench@example.com', array[$3], $4 from e returning id`,
        [userId, `Bench ${Date.now()}-${i}`, objectPath, { addIntroOutro: false, addLogo }],
      );
      out.push(rows[0].id as string);
    }
    return out;
  });
  const stages: { stage: string; at: number }[] = [];
  for (;;) {
    const { rows } = await withDb((db) =>
      db.query(`select submission_log_id, status, stage, failure_reason, outputs from public.episode_processing where submission_log_id = any ($1)`, [ids]),
    );
    const stage = rows.find((row) => row.submission_log_id === ids[0])?.stage as string | null | undefined;
    if (stage && stages[stages.length - 1]?.stage !== stage) stages.push({ stage, at: (Date.now() - began) / 1000 });
    const failed = rows.find((row) => row.status === 'failed');
    if (failed) throw new Error(`a bench job failed: ${failed.failure_reason}`);
    if (rows.length === count && rows.every((row) => row.status === 'delivered')) {
      return { seconds: (Date.now() - began) / 1000, outputs: rows.map((row) => row.outputs), stages };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
