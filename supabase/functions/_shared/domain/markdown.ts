// The blog post's Markdown as HTML: the subset the writing engines produce and a subscriber edits
// (headings, paragraphs, quotes, lists, emphasis, links), rendered the same way for the episode
// page's preview and for WordPress. Every text is escaped; a link keeps only an http(s) address.
// Pure: no dependency, so the SPA and the worker share it.

/** Text shown literally inside HTML: & < > " ' as character references. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

/** Backslash escapes the engines write (`\*`, `\#`...) become the characters they stand for. */
const unescapeMarkdown = (text: string) => text.replace(/\\([\\`*_[\]<>#|()!-])/g, '$1');

/** Inline Markdown of one line: links, **strong**, *emphasis*, escaped as HTML. */
function inline(text: string): string {
  const out: string[] = [];
  let rest = text;
  const link = /\[([^\]]+)\]\(([^)\s]+)\)/;
  for (let match = link.exec(rest); match; match = link.exec(rest)) {
    out.push(emphasis(rest.slice(0, match.index)));
    const href = unescapeMarkdown(match[2]);
    out.push(/^https?:\/\//i.test(href) ? `<a href="${escapeHtml(href)}">${emphasis(match[1])}</a>` : emphasis(match[1]));
    rest = rest.slice(match.index + match[0].length);
  }
  out.push(emphasis(rest));
  return out.join('');
}

function emphasis(text: string): string {
  // Escaped markers stay literal: private-use placeholders stand for them while the emphasis is read.
  const literal = text.replace(/\\\*/g, '\uE000').replace(/\\_/g, '\uE001');
  return escapeHtml(unescapeMarkdown(literal))
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>')
    .replace(/\uE000/g, '*')
    .replace(/\uE001/g, '_');
}

/** Markdown as HTML, block by block (blank lines end a block). */
export function markdownToHtml(markdown: string): string {
  const html: string[] = [];
  const blocks = markdown.replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    if (!lines.length) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(lines[0]);
    if (heading && lines.length === 1) {
      // The post's own title is WordPress's title: headings inside it start at level 2.
      const level = Math.max(2, heading[1].length);
      html.push(`<h${level}>${inline(heading[2])}</h${level}>`);
    } else if (lines.every((line) => /^>\s?/.test(line))) {
      html.push(`<blockquote><p>${lines.map((line) => inline(line.replace(/^>\s?/, ''))).join('<br>')}</p></blockquote>`);
    } else if (lines.every((line) => /^[-*]\s+/.test(line))) {
      html.push(`<ul>${lines.map((line) => `<li>${inline(line.replace(/^[-*]\s+/, ''))}</li>`).join('')}</ul>`);
    } else {
      html.push(`<p>${lines.map(inline).join('<br>')}</p>`);
    }
  }
  return html.join('\n');
}
