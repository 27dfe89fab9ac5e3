import { describe, expect, it } from 'vitest';
import { clipCopy } from './media/clip-copy.ts';
import { clipPost } from './posting.ts';

describe('clipPost', () => {
  const copy = clipCopy(['why do budgets fail', 'they fail because savings come last'], ['budgets', 'savings'], 'Money Talk');

  it('posts each platform its own text from the clip\'s words', () => {
    const post = { clip_name: 'Money Talk - clip 01.mp4', output: copy };
    expect(clipPost('x', post, 'f.mp4')).toEqual({ file: 'f.mp4', title: 'Why do budgets fail?', text: copy?.posts.x.text });
    expect(clipPost('linkedin', post, 'f.mp4').text).toBe(copy?.posts.linkedin.text);
    expect(clipPost('youtube', post, 'f.mp4')).toMatchObject({ title: copy?.posts.youtube.title, body: copy?.posts.youtube.description });
    expect(clipPost('wordpress', post, 'f.mp4')).toMatchObject({ title: 'Why do budgets fail?', body: copy?.posts.wordpress.content });
  });

  it('falls back to the file\'s name for a clip without words (or recorded before them)', () => {
    for (const provider of ['youtube', 'x', 'linkedin', 'wordpress'] as const) {
      expect(clipPost(provider, { clip_name: 'Show - clip 02.mp4', output: null }, 'f.mp4')).toMatchObject({ title: 'Show - clip 02', text: 'Show - clip 02' });
    }
  });
});
