// Cutting a long text into chunks that tokenise independently, so that encode() with maxTokens stops early and a
// multi-megabyte input is normalised piece by piece instead of all at once. A cut is only made where the
// pipeline is known to break anyway, so the tokens are exactly those of the uncut text.

import type { ChunkBreaks } from './pre-tokenizers';

const WHITE_SPACE = /\p{White_Space}/u;
/**
 * White space that every chunk-safe normalizer keeps as white space. Other White_Space characters may be
 * removed: BertNormalizer's clean_text drops U+000B, U+000C and U+0085 (they are controls), which joins the
 * words on either side, so a cut after them would split a word the whole text keeps together.
 */
const KEPT_SPACE = /[ \t\n\r]/;
const MARK = /\p{M}/u;

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** True if a chunk may start at unit i of text (from < i < to). */
function canCut(text: string, i: number, to: number, breaks: ChunkBreaks): boolean {
  const here = text.charAt(i); // from < i < to: both are characters of text
  const before = text.charAt(i - 1);
  if (breaks === 'whitespace') {
    // after white space that stays white space, before something that is neither white space nor a mark
    return (
      KEPT_SPACE.test(before) && !WHITE_SPACE.test(here) && !isLowSurrogate(text.charCodeAt(i)) && !MARK.test(String.fromCodePoint(text.codePointAt(i) ?? 0))
    );
  }
  if (breaks === 'space-before-word') {
    // before " " that follows a non-space and is not followed by a combining mark: GPT-2's regex starts a piece
    // there whatever comes next, and a prefix space is not added to a chunk that starts with a space.
    if (here !== ' ' || WHITE_SPACE.test(before)) return false;
    return i + 1 >= to || !MARK.test(String.fromCodePoint(text.codePointAt(i + 1) ?? 0));
  }
  if (breaks === 'before-space') {
    // before " " not followed by a combining mark: Metaspace makes it ▁, which starts a word whatever precedes it,
    // and a chunk that starts with ▁ gets no prefix
    if (here !== ' ') return false;
    return i + 1 >= to || !MARK.test(String.fromCodePoint(text.codePointAt(i + 1) ?? 0));
  }
  return false;
}

/** End of the chunk that starts at `from`: the first cut position at or after from + target, else `to`. */
export function chunkEnd(text: string, from: number, to: number, breaks: ChunkBreaks, target: number): number {
  if (breaks === 'none') return to;
  for (let i = Math.max(from + 1, from + target); i < to; i++) if (canCut(text, i, to, breaks)) return i;
  return to;
}
