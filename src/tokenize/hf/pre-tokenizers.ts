// tokenizer.json pre-tokenizers (HF tokenizers/src/pre_tokenizers): split an aligned string into words.
// Supported: ByteLevel, BertPreTokenizer, Whitespace, WhitespaceSplit, Metaspace, Split (string or regex
// pattern, every SplitDelimiterBehavior, invert), Punctuation, Digits, Sequence.

import { misaligned, prependAligned, replaceAligned, sliceAligned, type Aligned } from './aligned';
import { BYTE_TO_CHAR, forEachGpt2Piece } from '../byte-level';
import { asArray, asObject, asString, componentType, fail, isObject, optBool, TOKENIZER_ERRORS, type JsonObject } from './json';
import { compilePattern, findMatches } from './regex';
import { MessageError, msg } from '../../protocol/message';

export type PreTokenizer = (a: Aligned) => Aligned[];

const WHITE_SPACE = /^\p{White_Space}$/u;
/** Rust's `char::is_ascii_punctuation() || char::is_punctuation()` (BertPreTokenizer). */
const BERT_PUNCT = /^[!-/:-@[-`{-~\p{P}]$/u;

/** Splits on code points: `classify` says 'remove' (a separator), 'isolate' (its own word) or 'keep'. */
function splitByCodePoint(a: Aligned, classify: (c: string) => 'remove' | 'isolate' | 'keep'): Aligned[] {
  const words: Aligned[] = [];
  let wordStart = -1;
  const text = a.text;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) ?? 0; // i < text.length: a code point is there
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

const bertPreTokenizer: PreTokenizer = (a) => splitByCodePoint(a, (c) => (WHITE_SPACE.test(c) ? 'remove' : BERT_PUNCT.test(c) ? 'isolate' : 'keep'));

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

/** ASCII text: one byte per unit, so the alignment can be kept as it is. */
const ONE_BYTE_PER_UNIT = /^[\x00-\x7f]*$/;

/** Maps ASCII text to the byte alphabet, one character per unit. */
function asciiToByteLevel(text: string): string {
  let mapped = '';
  for (let i = 0; i < text.length; i++) mapped += BYTE_TO_CHAR[text.charCodeAt(i)];
  return mapped;
}

/**
 * Maps text to GPT-2's byte alphabet: one character per UTF-8 byte, each aligned to its source character.
 * With `withUnits`, `byteOfUnit[u]` (u in 0..length) is where unit u's bytes start, to cut the result at unit
 * boundaries. ASCII text (one byte per unit) keeps its alignment arrays (views, no copy).
 */
export function toByteLevel(a: Aligned, withUnits: true): Aligned & { byteOfUnit: Int32Array };
export function toByteLevel(a: Aligned, withUnits?: false): Aligned;
export function toByteLevel(a: Aligned, withUnits = false): Aligned & { byteOfUnit?: Int32Array } {
  const text = a.text;
  const n = text.length;
  if (!withUnits && ONE_BYTE_PER_UNIT.test(text)) return { text: asciiToByteLevel(text), starts: a.starts, ends: a.ends };
  // exact byte count first, so the alignment arrays are allocated once at their size
  let size = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) size += 1;
    else if (c < 0x800) size += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      size += 4;
      i++;
    } else size += 3; // BMP, or a lone surrogate (encoded as U+FFFD)
  }
  const starts = new Int32Array(size);
  const ends = new Int32Array(size);
  const byteOfUnit = withUnits ? new Int32Array(n + 1) : undefined;
  let mapped = '';
  let k = 0;
  const put = (b: number, s: number, e: number) => {
    mapped += BYTE_TO_CHAR[b];
    starts[k] = s;
    ends[k++] = e;
  };
  for (let i = 0; i < n;) {
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
    if (s === undefined || e === undefined) throw misaligned(a, s === undefined ? i : j - 1, 'ByteLevel input');
    if (byteOfUnit) {
      byteOfUnit[i] = k;
      if (j > i + 1) byteOfUnit[i + 1] = k;
    }
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
  if (byteOfUnit) byteOfUnit[n] = k;
  return { text: mapped, starts, ends, byteOfUnit };
}

function byteLevel(cfg: JsonObject, path: string): PreTokenizer {
  const addPrefixSpace = optBool(cfg, 'add_prefix_space', path, true);
  const useRegex = optBool(cfg, 'use_regex', path, true);
  return (input) => {
    const a = addPrefixSpace && !input.text.startsWith(' ') ? prependAligned(input, ' ') : input;
    if (a.text.length === 0) return [];
    if (!useRegex) return [toByteLevel(a)];
    const bytes = toByteLevel(a, true); // one pass over the whole text; pieces are views into it
    const pieces: Aligned[] = [];
    const byteOfUnit = bytes.byteOfUnit; // units 0..length of a.text
    forEachGpt2Piece(a.text, 0, a.text.length, (s, e) => {
      const from = byteOfUnit[s];
      const to = byteOfUnit[e];
      if (from === undefined || to === undefined) throw new RangeError(`ByteLevel: piece [${s}, ${e}) is outside the text's ${a.text.length} units`);
      pieces.push(sliceAligned(bytes, from, to));
    });
    return pieces;
  };
}

/** A cover of a string by ranges, each a match of the pattern or the text between (HF `Pattern::find_matches`). */
type Pieces = [start: number, end: number, isMatch: boolean][];

/** HF's five ways of treating the matched delimiters (tokenizer/normalizer.rs `NormalizedString::split`). */
export type SplitBehavior = 'Removed' | 'Isolated' | 'MergedWithPrevious' | 'MergedWithNext' | 'Contiguous';
const BEHAVIORS: readonly SplitBehavior[] = ['Removed', 'Isolated', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'];

/** Splits `a` by the pieces as `behavior` says; empty words are dropped (as PreTokenizedString::split does). */
export function splitPieces(a: Aligned, pieces: Pieces, behavior: SplitBehavior): Aligned[] {
  let kept: [number, number][] = [];
  if (behavior === 'Removed') kept = pieces.filter((p) => !p[2]).map((p) => [p[0], p[1]]);
  else if (behavior === 'Isolated') kept = pieces.map((p) => [p[0], p[1]]);
  else if (behavior === 'Contiguous' || behavior === 'MergedWithPrevious') {
    let previousMatch = false;
    for (const [s, e, isMatch] of pieces) {
      const joins = behavior === 'Contiguous' ? isMatch === previousMatch : isMatch && !previousMatch;
      const last = kept[kept.length - 1];
      if (joins && last) last[1] = e;
      else kept.push([s, e]);
      previousMatch = isMatch;
    }
  } else {
    let previousMatch = false; // walking backwards: "previous" is the piece after this one
    for (let k = pieces.length - 1; k >= 0; k--) {
      const piece = pieces[k];
      if (piece === undefined) throw new RangeError(`split pieces: piece ${k} of ${pieces.length} is missing`);
      const [s, e, isMatch] = piece;
      const last = kept[kept.length - 1];
      if (isMatch && !previousMatch && last) last[0] = s;
      else kept.push([s, e]);
      previousMatch = isMatch;
    }
    kept.reverse();
  }
  return kept.filter(([s, e]) => e > s).map(([s, e]) => sliceAligned(a, s, e));
}

/** Regex matches and the gaps between them, covering `s` (HF `Pattern for &SysRegex`). */
function regexPieces(re: RegExp, s: string, invert: boolean): Pieces {
  const out: Pieces = [];
  let prev = 0;
  for (const [start, end] of findMatches(re, s)) {
    if (prev !== start) out.push([prev, start, invert]);
    out.push([start, end, !invert]);
    prev = end;
  }
  if (prev !== s.length) out.push([prev, s.length, invert]);
  return out;
}

/** Each character for which `test` holds is a match of its own (HF `Pattern for Fn(char) -> bool`). */
function charPieces(s: string, test: (c: string) => boolean): Pieces {
  const out: Pieces = [];
  let last = 0;
  for (let i = 0; i < s.length;) {
    const j = i + ((s.codePointAt(i) ?? 0) > 0xffff ? 2 : 1); // i < s.length: a code point is there
    if (test(s.slice(i, j))) {
      if (last < i) out.push([last, i, false]);
      out.push([i, j, true]);
      last = j;
    }
    i = j;
  }
  if (last < s.length) out.push([last, s.length, false]);
  return out;
}

function behaviorOf(cfg: JsonObject, path: string, fallback?: SplitBehavior): SplitBehavior {
  const b = cfg.behavior ?? fallback;
  if (typeof b !== 'string' || !BEHAVIORS.includes(b as SplitBehavior)) fail(`${path}.behavior`, msg(TOKENIZER_ERRORS.oneOf, BEHAVIORS.join(', ')), b);
  return b as SplitBehavior;
}

function split(cfg: JsonObject, path: string): PreTokenizer {
  const re = compilePattern(asObject(cfg.pattern, `${path}.pattern`), `${path}.pattern`);
  const behavior = behaviorOf(cfg, path);
  const invert = optBool(cfg, 'invert', path, false);
  return (a) => splitPieces(a, regexPieces(re, a.text, invert), behavior);
}

/** Rust's `char::is_ascii_punctuation() || char::is_punctuation()`. */
const PUNCTUATION = /^[!-/:-@[-`{-~\p{P}]$/u;
const NUMERIC = /^\p{N}$/u; // Rust's char::is_numeric

/**
 * Split regexes known to start a match at every space that follows a non-space (so long texts can be cut there,
 * see ./chunks.ts): Llama-3's and Qwen2's. No alternative matches a non-space followed by a space, a white-space
 * run cannot end just before a non-space, and they have no lookbehind, so matching from that space is the same
 * with or without the text before it. Other patterns are not cut.
 */
const SPLITS_BEFORE_SPACE = new Set([
  String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
]);

export type PrependScheme = 'always' | 'first' | 'never';

/** HF Metaspace: spaces become the replacement (▁), which is prepended as the scheme says; split before each ▁. */
function metaspace(cfg: JsonObject, path: string): { preTokenize: PreTokenizer; replacement: string; scheme: PrependScheme; split: boolean } {
  const replacement = asString(cfg.replacement ?? '\u2581', `${path}.replacement`);
  if ([...replacement].length !== 1) fail(`${path}.replacement`, msg(TOKENIZER_ERRORS.oneCharacter), replacement);
  let scheme = (cfg.prepend_scheme ?? 'always') as PrependScheme;
  if (!['always', 'first', 'never'].includes(scheme)) fail(`${path}.prepend_scheme`, msg(TOKENIZER_ERRORS.oneOf, 'always, first, never'), cfg.prepend_scheme);
  if (cfg.add_prefix_space === false) {
    if (cfg.prepend_scheme !== undefined && cfg.prepend_scheme !== 'never') {
      throw new MessageError(msg(TOKENIZER_ERRORS.prefixSpace, path, String(JSON.stringify(cfg.prepend_scheme))));
    }
    scheme = 'never';
  }
  const doSplit = optBool(cfg, 'split', path, true);
  const preTokenize: PreTokenizer = (input) => {
    if (input.text.length === 0) return [];
    let a = replaceAligned(input, ' ', replacement);
    if (!a.text.startsWith(replacement) && (scheme === 'always' || (scheme === 'first' && a.starts[0] === 0))) a = prependAligned(a, replacement);
    if (!doSplit) return [a];
    return splitPieces(
      a,
      charPieces(a.text, (c) => c === replacement),
      'MergedWithNext',
    );
  };
  return { preTokenize, replacement, scheme, split: doSplit };
}

const SUPPORTED = ['ByteLevel', 'BertPreTokenizer', 'Whitespace', 'WhitespaceSplit', 'Metaspace', 'Split', 'Punctuation', 'Digits', 'Sequence'];

/**
 * Where the input may be cut into chunks that tokenise independently (see ./chunks.ts):
 * 'whitespace' — after white space that every chunk-safe normalizer keeps as white space (it is removed and
 *   always ends a word);
 * 'space-before-word' — before a space that follows a non-space (GPT-2's regex always starts a piece there);
 * 'before-space' — before any space (Metaspace turns it into ▁ and starts a word there);
 * 'none' — nowhere.
 */
export type ChunkBreaks = 'whitespace' | 'space-before-word' | 'before-space' | 'none';

export interface PreTokenizerInfo {
  readonly preTokenize: PreTokenizer;
  /** True when words come out in GPT-2's byte alphabet (tokens are then displayed through their bytes). */
  readonly byteLevel: boolean;
  readonly breaks: ChunkBreaks;
  /** The Metaspace replacement character (▁) when there is a Metaspace pre-tokenizer. */
  readonly metaspace?: { readonly replacement: string; readonly scheme: PrependScheme };
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
    case 'Metaspace': {
      const m = metaspace(cfg, path);
      // With split, a space always starts a new word and a chunk that starts with one gets no prefix: cut there.
      return {
        preTokenize: m.preTokenize,
        byteLevel: false,
        breaks: m.split ? 'before-space' : 'none',
        metaspace: { replacement: m.replacement, scheme: m.scheme },
      };
    }
    case 'Split': {
      const regex = isObject(cfg.pattern) ? cfg.pattern.Regex : undefined;
      const known = typeof regex === 'string' && SPLITS_BEFORE_SPACE.has(regex) && cfg.behavior === 'Isolated' && cfg.invert !== true;
      return { preTokenize: split(cfg, path), byteLevel: false, breaks: known ? 'space-before-word' : 'none' };
    }
    case 'Punctuation': {
      const behavior = behaviorOf(cfg, path, 'Isolated');
      return {
        preTokenize: (a) =>
          splitPieces(
            a,
            charPieces(a.text, (c) => PUNCTUATION.test(c)),
            behavior,
          ),
        byteLevel: false,
        breaks: 'none',
      };
    }
    case 'Digits': {
      const behavior: SplitBehavior = optBool(cfg, 'individual_digits', path, false) ? 'Isolated' : 'Contiguous';
      return {
        preTokenize: (a) =>
          splitPieces(
            a,
            charPieces(a.text, (c) => NUMERIC.test(c)),
            behavior,
          ),
        byteLevel: false,
        breaks: 'none',
      };
    }
    default: {
      const parts = asArray(cfg.pretokenizers, `${path}.pretokenizers`).map((c, i) =>
        buildPreTokenizer(asObject(c, `${path}.pretokenizers[${i}]`), `${path}.pretokenizers[${i}]`),
      );
      return {
        preTokenize: (a) => parts.reduce<Aligned[]>((words, p) => words.flatMap((w) => p.preTokenize(w)), [a]),
        byteLevel: parts.some((p) => p.byteLevel),
        // later pre-tokenizers only split the first one's words further, so its breaks hold for the sequence
        // (but a later one that adds a prefix to each word could see a cut: only the first may be Metaspace)
        breaks: parts[0] !== undefined && parts.slice(1).every((p) => !p.metaspace) ? parts[0].breaks : 'none',
        metaspace: parts.find((p) => p.metaspace)?.metaspace,
      };
    }
  }
}
