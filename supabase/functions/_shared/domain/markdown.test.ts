import { describe, expect, it } from 'vitest';
import { markdownToHtml } from './markdown.ts';

describe('markdownToHtml', () => {
  it('renders the blog subset: headings, paragraphs, quotes, lists, emphasis and links', () => {
    const markdown = [
      '# Why Budgets Fail',
      'We talk about **savings** and *habits*.\nA second line.',
      '## Saving first (00:01:30)',
      '> Pay yourself first. (00:02:10)',
      '- one\n- two',
      'Read [the notes](https://example.com/notes?a=1&b=2).',
    ].join('\n\n');
    expect(markdownToHtml(markdown)).toBe(
      [
        '<h2>Why Budgets Fail</h2>',
        '<p>We talk about <strong>savings</strong> and <em>habits</em>.<br>A second line.</p>',
        '<h2>Saving first (00:01:30)</h2>',
        '<blockquote><p>Pay yourself first. (00:02:10)</p></blockquote>',
        '<ul><li>one</li><li>two</li></ul>',
        '<p>Read <a href="https://example.com/notes?a=1&amp;b=2">the notes</a>.</p>',
      ].join('\n'),
    );
  });

  it('escapes what a subscriber types, keeps escaped markers literal, and drops links that are not web addresses', () => {
    expect(markdownToHtml('<script>alert(1)</script> \\*not emphasis\\* [x](javascript:void)')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; *not emphasis* x</p>',
    );
    expect(markdownToHtml('Tom & "Jerry"')).toBe('<p>Tom &amp; &quot;Jerry&quot;</p>');
  });
});
