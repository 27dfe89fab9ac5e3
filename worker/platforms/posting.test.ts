import { describe, expect, it } from 'vitest';
import { clipCopy } from '../content/clip-copy.ts';
import { clipPost, withPublicEpisodeLinks } from './posting.ts';

describe('clipPost', () => {
  const copy = clipCopy(['why do budgets fail', 'they fail because savings come last'], ['budgets', 'savings'], 'Money Talk');
  if (!copy) throw new Error('no copy');

  it("posts each platform its own text from the clip's record", () => {
    const post = { title: copy.title, posts: copy.posts };
    expect(clipPost('x', post, 'f.mp4')).toEqual({ file: 'f.mp4', title: 'Why do budgets fail?', text: copy.posts.x.text });
    expect(clipPost('linkedin', post, 'f.mp4').text).toBe(copy.posts.linkedin.text);
    expect(clipPost('youtube', post, 'f.mp4')).toMatchObject({ title: copy.posts.youtube.title, body: copy.posts.youtube.description });
    expect(clipPost('wordpress', post, 'f.mp4')).toMatchObject({ title: 'Why do budgets fail?', body: copy.posts.wordpress.content });
  });

  it("ends the X and LinkedIn texts with the full episode's public address, and only those", () => {
    const post = { title: copy.title, posts: copy.posts };
    const video = 'https://www.youtube.com/watch?v=v1';
    expect(clipPost('x', post, 'f.mp4', video).text).toBe(`${copy.posts.x.text}\n\nFull episode: ${video}`);
    expect(clipPost('linkedin', post, 'f.mp4', video).text).toBe(`${copy.posts.linkedin.text}\n\nFull episode: ${video}`);
    expect(clipPost('youtube', post, 'f.mp4', video)).toEqual(clipPost('youtube', post, 'f.mp4'));
    expect(clipPost('wordpress', post, 'f.mp4', video)).toEqual(clipPost('wordpress', post, 'f.mp4'));
  });

  it("falls back to the clip's title where a platform's text is empty", () => {
    const empty = { youtube: { title: '', description: '' }, x: { text: '' }, linkedin: { text: '' }, wordpress: { title: '', content: '' } };
    for (const provider of ['youtube', 'x', 'linkedin', 'wordpress'] as const) {
      expect(clipPost(provider, { title: 'Show - clip 02', posts: empty }, 'f.mp4')).toMatchObject({ title: 'Show - clip 02', text: 'Show - clip 02' });
    }
  });
});

describe("the blog post's links to the episode", () => {
  it('point at its public address instead of its private Drive file, or become plain text without one', () => {
    const markdown = 'Text.\n\n[Watch the full episode](https://drive.google.com/file/d/abc-1_2/view)\n\n[Elsewhere](https://example.com/x)';
    expect(withPublicEpisodeLinks(markdown, 'abc-1_2', 'https://www.youtube.com/watch?v=v1')).toBe(
      'Text.\n\n[Watch the full episode](https://www.youtube.com/watch?v=v1)\n\n[Elsewhere](https://example.com/x)',
    );
    expect(withPublicEpisodeLinks(markdown, 'abc-1_2', null)).toBe('Text.\n\nWatch the full episode\n\n[Elsewhere](https://example.com/x)');
    expect(withPublicEpisodeLinks(markdown, null, null)).toBe(markdown);
  });
});
