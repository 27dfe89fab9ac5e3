// A production build of the SPA without its settings stops and names them; it never fills in the
// local stack's address. Only the local stack builds against itself, by saying so.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigEnv, UserConfig } from 'vite';
import viteConfig from '../../vite.config.ts';
import { resolveSpaSettings } from '../../web/build-settings.ts';

const project = { VITE_SUPABASE_URL: 'https://abcdefghijklmnop.supabase.co', VITE_SUPABASE_ANON_KEY: 'anon-key' };

describe('the SPA build settings', () => {
  it('without any, the error names each missing setting', () => {
    expect(() => resolveSpaSettings({}, 'build')).toThrow(
      /VITE_SUPABASE_URL is not set; VITE_SUPABASE_ANON_KEY is not set/,
    );
    expect(() =>
      resolveSpaSettings({ VITE_SUPABASE_URL: project.VITE_SUPABASE_URL, VITE_SUPABASE_ANON_KEY: ' ' }, 'build'),
    ).toThrow(/^SPA configuration: VITE_SUPABASE_ANON_KEY is not set\./);
  });

  it("refuses a production build against this machine's address", () => {
    expect(() =>
      resolveSpaSettings({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'k' }, 'build'),
    ).toThrow(/VITE_SUPABASE_URL is this machine \(http:\/\/127\.0\.0\.1:54321\)/);
    expect(() =>
      resolveSpaSettings({ VITE_SUPABASE_URL: 'supabase.co', VITE_SUPABASE_ANON_KEY: 'k' }, 'build'),
    ).toThrow(/not an http\(s\) URL/);
  });

  it('takes an optional intro video only as an https URL', () => {
    expect(() => resolveSpaSettings({ ...project, VITE_INTRO_VIDEO_URL: 'youtube.com/embed/x' }, 'build')).toThrow(
      /VITE_INTRO_VIDEO_URL is not an https embed URL \("youtube.com\/embed\/x"\)/,
    );
    expect(() => resolveSpaSettings({ ...project, VITE_INTRO_VIDEO_URL: 'http://video.example/embed/x' }, 'build')).toThrow(
      /VITE_INTRO_VIDEO_URL/,
    );
    expect(resolveSpaSettings({ ...project, VITE_INTRO_VIDEO_URL: 'https://www.youtube-nocookie.com/embed/abc' }, 'build').supabaseUrl).toBe(
      project.VITE_SUPABASE_URL,
    );
    expect(resolveSpaSettings({ ...project, VITE_INTRO_VIDEO_URL: ' ' }, 'build').supabaseUrl).toBe(project.VITE_SUPABASE_URL);
  });

  it('takes the local address only when the local stack says so', () => {
    const local = {
      VITE_SUPABASE_URL: 'http://127.0.0.1:23321',
      VITE_SUPABASE_ANON_KEY: 'k',
      CASTLOOP_LOCAL_STACK: '1',
    };
    expect(resolveSpaSettings(local, 'build')).toEqual({
      supabaseUrl: 'http://127.0.0.1:23321',
    });
    expect(resolveSpaSettings({ ...local, CASTLOOP_LOCAL_STACK: undefined }, 'serve').supabaseUrl).toBe(
      'http://127.0.0.1:23321',
    );
  });

  it("builds with the project's settings", () => {
    expect(resolveSpaSettings(project, 'build')).toEqual({
      supabaseUrl: project.VITE_SUPABASE_URL,
    });
  });
});

describe('vite.config.ts', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const resolve = (command: ConfigEnv['command']) =>
    (viteConfig as (env: ConfigEnv) => UserConfig)({
      command,
      mode: 'production',
      isPreview: false,
      isSsrBuild: false,
    });

  it('stops a production build without its settings (no .env.example fallback)', () => {
    // Empty in the process environment wins over any .env file (as Vite's own loadEnv does).
    Object.assign(process.env, { VITE_SUPABASE_URL: '', VITE_SUPABASE_ANON_KEY: '', CASTLOOP_LOCAL_STACK: '' });
    expect(() => resolve('build')).toThrow(/VITE_SUPABASE_URL is not set; VITE_SUPABASE_ANON_KEY is not set/);
  });

  it("builds with them, and leaves /api to the host (the local stack's proxy is local/web.ts's)", () => {
    Object.assign(process.env, project, { CASTLOOP_LOCAL_STACK: '' });
    const config = resolve('build');
    expect(config.build?.outDir).toBe(path.resolve(import.meta.dirname, '..', '..', 'dist'));
    expect(config.server?.proxy).toBeUndefined();
    expect(config.preview?.proxy).toBeUndefined();
  });
});
