// Each platform reads the text of a post in its own format; every text the worker sends is
// encoded here for the platform it goes to (issue 39, item 4: a title with `<script>` was stored
// as HTML in a published WordPress post). Pure.
//   WordPress  titles are HTML (the REST API stores and shows them as markup): & < > " ' as
//              character references, so the title reads as it was written.
//   YouTube    refuses '<' and '>' in a title or description (invalidTitle / invalidDescription):
//              they become the single angle quotation marks, which read alike.
//   LinkedIn   commentary is "little text": \ | { } @ [ ] ( ) < > # * _ ~ are reserved and
//              escaped with a backslash; a hashtag becomes LinkedIn's hashtag template so it
//              stays a hashtag.
//   X          plain text: sent as it is (X escapes it where it shows it).

/** Text shown literally inside HTML (WordPress titles, and text in the blocks the worker builds). */
export const htmlText = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

/** A YouTube title or description: no angle brackets. */
export const youtubeText = (text: string) => text.replace(/</g, '\u2039').replace(/>/g, '\u203A');

const LITTLE_TEXT_RESERVED = /[\\|{}@[\]()<>#*_~]/g;
const HASHTAG = /#([\p{L}\p{N}_]+)/gu;

/** A LinkedIn commentary in little text: reserved characters escaped, hashtags as hashtag templates. */
export function linkedinCommentary(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(HASHTAG)) {
    out += text.slice(last, match.index).replace(LITTLE_TEXT_RESERVED, '\\$&');
    out += `{hashtag|\\#|${match[1].replace(LITTLE_TEXT_RESERVED, '\\$&')}}`;
    last = match.index + match[0].length;
  }
  return out + text.slice(last).replace(LITTLE_TEXT_RESERVED, '\\$&');
}
