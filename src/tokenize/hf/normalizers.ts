// tokenizer.json normalizers (HF tokenizers/src/normalizers), applied to an aligned string so offsets survive.
// Supported: BertNormalizer, Lowercase, StripAccents, NFC, NFD, NFKC, NFKD, Strip, Replace (string or regex
// pattern), Prepend, Sequence.

import {
  AlignedBuilder,
  mapClusters,
  mapCodePoints,
  misaligned,
  prependAligned,
  replaceAligned,
  replaceRangesAligned,
  sliceAligned,
  type Aligned,
} from './aligned';
import { compilePattern, findMatches } from './regex';
import { asArray, asObject, asString, componentType, isObject, optBool, type JsonObject } from './json';

export type Normalizer = (a: Aligned) => Aligned;

const WHITE_SPACE = /^\p{White_Space}$/u;
const OTHER = /^\p{C}$/u; // Cc, Cf, Cn, Co, Cs: Rust's `char::is_other`
const NONSPACING_MARK = /\p{Mn}/gu;

/** BertNormalizer's whitespace test: \t \n \r or Unicode White_Space. */
function isBertWhitespace(c: string): boolean {
  return c === '\t' || c === '\n' || c === '\r' || WHITE_SPACE.test(c);
}

/** BertNormalizer's control test: Unicode "Other" categories except \t \n \r. */
function isBertControl(c: string): boolean {
  return c !== '\t' && c !== '\n' && c !== '\r' && OTHER.test(c);
}

/** The CJK ideograph blocks BERT puts spaces around (normalizers/bert.rs `is_chinese_char`). */
export function isBertChineseChar(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b920 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

const lowercase: Normalizer = (a) => mapCodePoints(a, (c) => c.toLowerCase());
const stripNonspacingMarks: Normalizer = (a) => mapClusters(a, (c) => c.replace(NONSPACING_MARK, ''));
const unicodeForm =
  (form: 'NFC' | 'NFD' | 'NFKC' | 'NFKD'): Normalizer =>
  (a) =>
    mapClusters(a, (c) => c.normalize(form));

function bertNormalizer(cfg: JsonObject, path: string): Normalizer {
  const cleanText = optBool(cfg, 'clean_text', path, true);
  const handleChinese = optBool(cfg, 'handle_chinese_chars', path, true);
  const lower = optBool(cfg, 'lowercase', path, true);
  const stripAccents = optBool(cfg, 'strip_accents', path, lower); // null → follows lowercase
  const general = (input: Aligned): Aligned => {
    let a = input;
    if (cleanText) {
      a = mapCodePoints(a, (c) => {
        const cp = c.codePointAt(0) ?? 0; // c is one code point
        if (cp === 0 || cp === 0xfffd || isBertControl(c)) return '';
        return isBertWhitespace(c) ? ' ' : c;
      });
    }
    if (handleChinese) a = mapCodePoints(a, (c) => (isBertChineseChar(c.codePointAt(0) ?? 0) ? ` ${c} ` : c));
    if (stripAccents) a = stripNonspacingMarks(unicodeForm('NFD')(a));
    if (lower) a = lowercase(a);
    return a;
  };
  // ASCII fast path (the same result, in one pass): BERT's steps reduce to dropping controls, mapping \t \n \r
  // to a space and lowercasing A-Z. Runs of non-ASCII text (with the ASCII character before them, which may be
  // the base of a combining mark) go through the general steps.
  const ascii = (a: Aligned, from: number, to: number, out: AlignedBuilder) => {
    for (let i = from; i < to; i++) {
      let c = a.text.charCodeAt(i);
      if (cleanText) {
        if (c === 9 || c === 10 || c === 13) c = 32;
        else if (c < 32 || c === 127) continue;
      }
      if (lower && c >= 65 && c <= 90) c += 32;
      const s = a.starts[i];
      const e = a.ends[i];
      if (s === undefined || e === undefined) throw misaligned(a, i, 'BertNormalizer input');
      out.push(String.fromCharCode(c), s, e);
    }
  };
  return (input) => {
    const out = new AlignedBuilder(input.text.length + 16);
    const re = /[^\x00-\x7f]+/g;
    let done = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(input.text)) !== null) {
      const from = m.index > done ? m.index - 1 : m.index; // keep a possible base letter with its marks
      ascii(input, done, from, out);
      out.append(general(sliceAligned(input, from, m.index + m[0].length)));
      done = m.index + m[0].length;
    }
    ascii(input, done, input.text.length, out);
    return out.build();
  };
}

function strip(cfg: JsonObject, path: string): Normalizer {
  const left = optBool(cfg, 'strip_left', path, true);
  const right = optBool(cfg, 'strip_right', path, true);
  return (a) => {
    let i = 0;
    let j = a.text.length;
    if (left) while (i < j && WHITE_SPACE.test(a.text.charAt(i))) i++;
    if (right) while (j > i && WHITE_SPACE.test(a.text.charAt(j - 1))) j--;
    return { text: a.text.slice(i, j), starts: a.starts.subarray(i, j), ends: a.ends.subarray(i, j) };
  };
}

function replace(cfg: JsonObject, path: string): Normalizer {
  const pattern = asObject(cfg.pattern, `${path}.pattern`);
  const to = asString(cfg.content, `${path}.content`);
  if ('String' in pattern) {
    const from = asString(pattern.String, `${path}.pattern.String`);
    return (a) => replaceAligned(a, from, to);
  }
  const re = compilePattern(pattern, `${path}.pattern`); // {"Regex": ...}, e.g. XLM-R's " {2,}" → " "
  return (a) => replaceRangesAligned(a, findMatches(re, a.text), to);
}

const SUPPORTED = ['BertNormalizer', 'Lowercase', 'StripAccents', 'NFC', 'NFD', 'NFKC', 'NFKD', 'Strip', 'Replace', 'Prepend', 'Sequence'];

/**
 * True if the normalizer works character by character (or cluster by cluster) and keeps white space white
 * space, so the text can be normalised in chunks cut at white space. Strip, Replace and Prepend look at the
 * whole text.
 */
export function isChunkSafeNormalizer(config: unknown): boolean {
  if (config === null || config === undefined) return true;
  const t = (config as { type?: unknown }).type;
  if (t === 'Sequence') {
    const parts = (config as { normalizers?: unknown }).normalizers;
    return Array.isArray(parts) && parts.every(isChunkSafeNormalizer);
  }
  return ['BertNormalizer', 'Lowercase', 'StripAccents', 'NFC', 'NFD', 'NFKC', 'NFKD'].includes(t as string);
}

/**
 * The character a normalizer puts in place of spaces (SentencePiece's ▁ in Llama-2/Mistral/Gemma-style
 * tokenizer.json: Replace " " → "▁"), or undefined.
 */
export function spaceMarkerOf(config: unknown): string | undefined {
  if (!isObject(config)) return undefined;
  if (config.type === 'Sequence' && Array.isArray(config.normalizers)) {
    for (const part of config.normalizers) {
      const m = spaceMarkerOf(part);
      if (m !== undefined) return m;
    }
    return undefined;
  }
  if (config.type !== 'Replace' || !isObject(config.pattern) || config.pattern.String !== ' ') return undefined;
  return typeof config.content === 'string' && [...config.content].length === 1 ? config.content : undefined;
}

/** Builds the normalizer described by `config` (null/undefined: none). */
export function buildNormalizer(config: unknown, path = 'normalizer'): Normalizer | undefined {
  if (config === null || config === undefined) return undefined;
  const cfg = asObject(config, path);
  switch (componentType(cfg, path, SUPPORTED)) {
    case 'BertNormalizer':
      return bertNormalizer(cfg, path);
    case 'Lowercase':
      return lowercase;
    case 'StripAccents':
      return stripNonspacingMarks;
    case 'NFC':
    case 'NFD':
    case 'NFKC':
    case 'NFKD':
      return unicodeForm(cfg.type as 'NFC' | 'NFD' | 'NFKC' | 'NFKD');
    case 'Strip':
      return strip(cfg, path);
    case 'Replace':
      return replace(cfg, path);
    case 'Prepend': {
      const s = asString(cfg.prepend, `${path}.prepend`);
      return (a) => prependAligned(a, s);
    }
    default: {
      const parts = asArray(cfg.normalizers, `${path}.normalizers`).map((c, i) =>
        buildNormalizer(asObject(c, `${path}.normalizers[${i}]`), `${path}.normalizers[${i}]`),
      );
      return (a) => parts.reduce((acc, n) => (n ? n(acc) : acc), a);
    }
  }
}
