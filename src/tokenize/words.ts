// The default tokenizer: words, punctuation and CJK characters, with no vocabulary and no ids.
//
// Rules (in the order the regex tries them at each position):
//   1. White space (Unicode White_Space) separates tokens and is dropped.
//   2. A Hangul syllable is one token (a precomposed syllable or a conjoining-jamo sequence L* V+ T*).
//   3. Every Han ideograph, Hiragana and Katakana character (and the prolonged sound mark ー) is its own token:
//      "我爱自然语言处理。" gives 我 爱 自 然 语 言 处 理 。 (nine tokens).
//   4. A regional-indicator pair (a flag) is one token; an emoji with its modifiers, variation selectors, tags and
//      ZWJ-joined continuation emoji is one token.
//   5. A word is a run of letters and digits (any script other than those of rule 3), with combining marks, and
//      with an apostrophe (' or ’) or a zero-width (non-)joiner allowed *between* two letters/digits: "don't",
//      "l’homme", "می‌خواهم".
//   6. Anything else (each punctuation mark, symbol, control character, lone surrogate) is its own token, with the
//      combining marks that follow it.
// Combining marks always stay with the character before them and surrogate pairs are never split, because the
// regex works on code points (flag u) and every branch absorbs trailing marks.

import { displayText } from './display';
import { tokenLimit, type EncodeOptions, type Token, type Tokenizer } from './types';

const MARKS = String.raw`\p{M}*`;
const CJK_CHAR = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30FC\p{Script=Hangul}]`;
const HANGUL_L = String.raw`[\u1100-\u115F\uA960-\uA97C]`;
const HANGUL_V = String.raw`[\u1160-\u11A7\uD7B0-\uD7C6]`;
const HANGUL_T = String.raw`[\u11A8-\u11FF\uD7CB-\uD7FB]`;
const HANGUL_SYLLABLE = String.raw`(?:${HANGUL_L}*(?:${HANGUL_V}+|[\uAC00-\uD7A3]${HANGUL_V}*)${HANGUL_T}*|${HANGUL_L}+|${HANGUL_T}+)${MARKS}`;
const EMOJI_EXTEND = String.raw`(?:\p{M}|\p{Emoji_Modifier}|[\u{E0020}-\u{E007F}])*`;
const EMOJI = String.raw`\p{Extended_Pictographic}${EMOJI_EXTEND}(?:\u200D\p{Extended_Pictographic}${EMOJI_EXTEND})*`;
const FLAG = String.raw`\p{Regional_Indicator}{2}${EMOJI_EXTEND}`;
const WORD_CHAR = String.raw`(?:(?!${CJK_CHAR})[\p{L}\p{N}])${MARKS}`;
const WORD = String.raw`${WORD_CHAR}(?:['\u2019\u200C\u200D]?${WORD_CHAR})*`;
const OTHER = String.raw`[^]${MARKS}`;

/** Group 1 captures white space (skipped); every other match is one token. Always matches at lastIndex. */
const TOKEN_RE = new RegExp(String.raw`(\p{White_Space}+)|${HANGUL_SYLLABLE}|${CJK_CHAR}${MARKS}|${FLAG}|${EMOJI}|${WORD}|${OTHER}`, 'gu');

/** Splits `text` into word, punctuation and CJK-character tokens (no ids). */
export function tokenizeWords(text: string, options?: EncodeOptions): Token[] {
  if (typeof text !== 'string') throw new Error(`tokenizeWords: text must be a string, got ${typeof text}`);
  const limit = tokenLimit(options);
  const tokens: Token[] = [];
  if (limit === 0) return tokens;
  const re = new RegExp(TOKEN_RE); // own lastIndex: safe under re-entrancy
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[1] !== undefined) continue;
    const piece = m[0];
    const start = m.index;
    tokens.push({ text: piece, display: displayText(piece), start, end: start + piece.length });
    if (tokens.length >= limit) break;
  }
  return tokens;
}

export const wordsTokenizer: Tokenizer = {
  name: 'words',
  encode: tokenizeWords,
};
