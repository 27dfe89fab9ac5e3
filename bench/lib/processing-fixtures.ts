// What the processing benches share: the subscriber they submit as and the camera-like source.
// Imported only after benchStack has pointed the test support at the bench's own stack.
import { execFileSync } from 'node:child_process';

/** An onboarded Starter subscriber whose Google Drive is connected (the sandbox's token). */
export async function driveSubscriber() {
  const { createUser, storeOAuthTokens } = await import('../../tests/support/users.ts');
  const { withDb } = await import('../../tests/support/stack.ts');
  const user = await createUser('onboarded', { tier: 'starter' });
  await withDb(async (db) => {
    const { rows } = await db.query(
      `insert into public.oauth_connections (user_id, provider, connected, status, expires_at)
       values ($1, 'google', true, 'connected', now() + interval '1 day') returning id`,
      [user.id],
    );
    await storeOAuthTokens(db, rows[0].id, user.id, 'bench-token', 'r');
  });
  return user;
}

/** A camera-like 1080p source at `fps`: moving picture, speech-like sound, a keyframe every 2 s. */
export async function camera1080p(file: string, seconds: number, fps: number): Promise<void> {
  const { ffmpegPath } = await import('../../worker/media/ffmpeg.ts');
  const { SPEECH } = await import('../../tests/support/media.ts');
  execFileSync(ffmpegPath, [
    '-hide_banner', '-nostdin', '-y', '-loglevel', 'error',
    '-f', 'lavfi', '-i', `testsrc2=s=1920x1080:r=${fps}:d=${seconds}`,
    '-f', 'lavfi', '-i', `aevalsrc=${SPEECH}:s=48000:d=${seconds}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(2 * fps), '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', file,
  ]);
}
