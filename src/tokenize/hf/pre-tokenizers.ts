// tokenizer.json pre-tokenizers (HF tokenizers/src/pre_tokenizers): split an aligned string into words.
// Supported: ByteLevel, BertPreTokenizer, Whitespace, WhitespaceSplit, Sequence.

import { prependAligned, sliceAligned, type Aligned } from './aligned';
import { BYTE_TO_CHAR, forEachGpt2Piece } from '../byte-level';
import { asArray, asObject, componentType, optBool, type JsonObject } from './json';

export type PreTokenizer = (a: Aligned) => Aligned[];

const WHITE_SPACE = /^\p{White_Space}$/u;
/** Rust's `char::is_ascii_punctuation() || char::is_punctuation()` (BertPreTokenizer). */
const BERT_PUNCT = /^[!-/:-@[-`{-~\p{P}]$/u;

/** Splits on code points: `classify` says 'remove' (a separator), 'isolate' (its own word) or 'keep'. */
function splitByCodePoint(a: Aligned, classify: (c: string) => 'remove' | 'isolate' | 'keep'): Aligned[] {
  const words: Aligned[] = [];
  let wordStart = -1;
  const text = a.text;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const j = i + (cp > 0xffff ? 2 : 1);
    const kind = classify(text.slice(i, j));
    if (kind === 'keep') {
      if (wordStart < 0) wordStart = i;
    } else {
      if (wordStart >= 0) words.push(sliceAligned(a, wordStart, i));
      wordStart = -1;
      if (kind === 'isolate') words.push(sliceAligned(a, i, j));
    }
    i = j;
  }
  if (wordStart >= 0) words.push(sliceAligned(a, wordStart, text.length));
  return words;
}

const bertPreTokenizer: PreTokenizer = (a) =>
  splitByCodePoint(a, (c) => (WHITE_SPACE.test(c) ? 'remove' : BERT_PUNCT.test(c) ? 'isolate' : 'keep'));

const whitespaceSplit: PreTokenizer = (a) => splitByCodePoint(a, (c) => (WHITE_SPACE.test(c) ? 'remove' : 'keep'));

/** HF `Whitespace`: the regex \w+|[^\w\s]+ with Rust's Unicode \w and \s. */
const WHITESPACE_WORDS = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]+|[^\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}\p{White_Space}]+/gu;
const whitespace: PreTokenizer = (a) => {
  const words: Aligned[] = [];
  const re = new RegExp(WHITESPACE_WORDS);
  let m: RegExpExecArray | null;
  while ((m = re.exec(a.text)) !== null) words.push(sliceAligned(a, m.index, m.index + m[0].length));
  return words;
};

/**
 * Maps text to GPT-2's byte alphabet: one character per UTF-8 byte, each aligned to its source character.
 * `byteOfUnit[u]` (u in 0..length) is where unit u's bytes start, to cut the result at unit boundaries.
 */
export function toByteLevel(a: Aligned): Aligned & { byteOfUnit: Int32Array } {
  const text = a.text;
  const n = text.length;
  const starts = new Int32Array(3 * n); // at most 3 bytes per UTF-16 unit
  const ends = new Int32Array(3 * n);
  const byteOfUnit = new Int32Array(n + 1);
  let mapped = '';
  let k = 0;
  const put = (b: number, s: number, e: number) => {
    mapped += BYTE_TO_CHAR[b];
    starts[k] = s;
    ends[k++] = e;
  };
  for (let i = 0; i < n; ) {
    let cp = text.charCodeAt(i);
    let j = i + 1;
    if (cp >= 0xd800 && cp <= 0xdbff && j < n) {
      const lo = text.charCodeAt(j);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        j++;
      }
    }
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // a lone surrogate is encoded as U+FFFD, as TextEncoder does
    const s = a.starts[i];
    const e = a.ends[j - 1];
    byteOfUnit[i] = k;
    if (j > i + 1) byteOfUnit[i + 1] = k;
    if (cp < 0x80) put(cp, s, e);
    else if (cp < 0x800) {
      put(0xc0 | (cp >> 6), s, e);
      put(0x80 | (cp & 0x3f), s, e);
    } else if (cp < 0x10000) {
      put(0xe0 | (cp >> 12), s, e);
      put(0x80 | ((cp >> 6) & 0x3f), s, e);
      put(0x80 | (cp & 0x3f), s, e);
    } else {
      put(0xf0 | (cp >> 18), s, e);
      put(0x80 | ((cp >> 12) & 0x3f), s, e);
      put(0x80 | ((cp >> 6) & 0x3f), s, e);
      put(0x80 | (cp & 0x3f), s, e);
    }
    i = j;
  }
  byteOfUnit[n] = k;
  return { text: mapped, starts: starts.subarray(0, k), ends: ends.subarray(0, k), byteOfUnit };
}

function byteLevel(cfg: JsonObject, path: string): PreTokenizer {
  const addPrefixSpace = optBool(cfg, 'add_prefix_space', path, true);
  const useRegex = optBool(cfg, 'use_regex', path, true);
  return (input) => {
    const a = addPrefixSpace && !input.text.startsWith(' ') ? prependAligned(input, ' ') : input;
    if (a.text.length === 0) return [];
    const bytes = toByteLevel(a); // one pass over the whole text; pieces are views into it
    if (!useRegex) return [bytes];
    const pieces: Aligned[] = [];
    forEachGpt2Piece(a.text, 0, a.text.length, (s, e) => void pieces.push(sliceAligned(bytes, bytes.byteOfUnit[s], bytes.byteOfUnit[e])));
    return pieces;
  };
}

const SUPPORTED = ['ByteLevel', 'BertPreTokenizer', 'Whitespace', 'WhitespaceSplit', 'Sequence'];

/**
 * Where the input may be cut into chunks that tokenise independently (see ./chunks.ts):
 * 'whitespace' — after any white space (it is removed and always ends a word);
 * 'space-before-word' — before a space that follows a non-space (GPT-2's regex always starts a piece there);
 * 'none' — nowhere.
 */
export type ChunkBreaks = 'whitespace' | 'space-before-word' | 'none';

export interface PreTokenizerInfo {
  readonly preTokenize: PreTokenizer;
  /** True when words come out in GPT-2's byte alphabet (tokens are then displayed through their bytes). */
  readonly byteLevel: boolean;
  readonly breaks: ChunkBreaks;
}

/** Builds the pre-tokenizer described by `config` (null/undefined: the whole text is one word). */
export function buildPreTokenizer(config: unknown, path = 'pre_tokenizer'): PreTokenizerInfo {
  if (config === null || config === undefined) return { preTokenize: (a) => (a.text.length ? [a] : []), byteLevel: false, breaks: 'none' };
  const cfg = asObject(config, path);
  switch (componentType(cfg, path, SUPPORTED)) {
    case 'ByteLevel':
      return { preTokenize: byteLevel(cfg, path), byteLevel: true, breaks: optBool(cfg, 'use_regex', path, true) ? 'space-before-word' : 'none' };
    case 'BertPreTokenizer':
      return { preTokenize: bertPreTokenizer, byteLevel: false, breaks: 'whitespace' };
    case 'Whitespace':
      return { preTokenize: whitespace, byteLevel: false, breaks: 'whitespace' };
    case 'WhitespaceSplit':
      return { preTokenize: whitespaceSplit, byteLevel: false, breaks: 'whitespace' };
    default: {
      const parts = asArray(cfg.pretokenizers, `${path}.pretokenizers`).map((c, i) =>
        buildPreTokenizer(asObject(c, `${path}.pretokenizers[${i}]`), `${path}.pretokenizers[${i}]`),
      );
      return {
        preTokenize: (a) => parts.reduce<Aligned[]>((words, p) => words.flatMap((w) => p.preTokenize(w)), [a]),
        byteLevel: parts.some((p) => p.byteLevel),
        // later pre-tokenizers only split the first one's words further, so its breaks hold for the sequence
        breaks: parts.length ? parts[0].breaks : 'none',
      };
    }
  }
}
