// tokenizer.json Unigram model (HF tokenizers/src/models/unigram/model.rs, `encode_optimized`): the SentencePiece
// Viterbi search for the segmentation of a word with the highest total score. Pieces are found with a trie over
// UTF-16 units (equivalent to HF's byte trie: pieces are whole strings, so both end on character boundaries). A
// character no piece starts with gets <unk> with the score min(score) - 10; runs of unknown characters are fused
// into one token, whose id is the vocabulary's id of the fused string if it has one, else unk_id (or its bytes as
// <0xNN> tokens when byte_fallback is set and the vocabulary has them all).
// A typed-array kernel, left out of noUncheckedIndexedAccess by name (scripts/typecheck-strict-index.mjs): the
// Viterbi search reads its Float64Array/Int32Array paths at unit offsets 0..n of the word, per prefix of every
// character; reading the tokenizer.json vocabulary has no index reads.

import type { Symbols } from '../bpe';
import { WordCache } from '../bpe';
import { asArray, asString, fail, optBool, TOKENIZER_ERRORS, type JsonObject } from './json';
import { PieceTrie } from './piece-trie';
import { MessageError, msg } from '../../protocol/message';

/** HF's K_UNK_PENALTY. */
const UNK_PENALTY = 10;

export interface UnigramModel {
  readonly type: 'Unigram';
  readonly vocab: ReadonlyMap<string, number>;
  readonly byteFallback: boolean;
  tokenize(word: string): Symbols;
}

export function unigramModel(cfg: JsonObject, path: string): UnigramModel {
  const entries = asArray(cfg.vocab, `${path}.vocab`);
  const vocab = new Map<string, number>();
  const scores = new Float64Array(entries.length);
  let minScore = Infinity;
  entries.forEach((entry, id) => {
    const where = `${path}.vocab[${id}]`;
    if (!Array.isArray(entry) || entry.length !== 2) fail(where, msg(TOKENIZER_ERRORS.pieceScorePair), entry);
    const piece = asString(entry[0], `${where}[0]`);
    const score = entry[1];
    if (typeof score !== 'number' || !Number.isFinite(score)) fail(`${where}[1]`, msg(TOKENIZER_ERRORS.logProbability), score);
    vocab.set(piece, id);
    scores[id] = score;
    if (score < minScore) minScore = score;
  });
  let unkId: number | undefined;
  const unk = cfg.unk_id;
  if (unk !== undefined && unk !== null) {
    if (typeof unk !== 'number' || !Number.isInteger(unk) || unk < 0) fail(`${path}.unk_id`, msg(TOKENIZER_ERRORS.aCount), unk);
    if (unk >= entries.length) throw new MessageError(msg(TOKENIZER_ERRORS.unkIdOutside, path, unk, entries.length));
    unkId = unk;
  }
  const byteFallback = optBool(cfg, 'byte_fallback', path, false);
  const unkScore = minScore - UNK_PENALTY;
  const trie = new PieceTrie();
  vocab.forEach((id, piece) => {
    if (piece.length > 0) trie.add(piece, id);
  });
  const cache = new WordCache<Symbols>();

  /** Ids for one piece of the best path (a vocabulary piece, or a fused run of unknown characters). */
  const emit = (piece: string, out: Symbols): void => {
    const id = vocab.get(piece);
    if (id !== undefined) {
      out.ids.push(id);
      out.lens.push(piece.length);
      return;
    }
    if (byteFallback) {
      const bytes = new TextEncoder().encode(piece);
      const byteIds = Array.from(bytes, (b) => vocab.get(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`));
      if (byteIds.every((x) => x !== undefined)) {
        // the first byte token owns the source text, the others cover none
        byteIds.forEach((x, k) => {
          out.ids.push(x);
          out.lens.push(k === 0 ? piece.length : 0);
        });
        return;
      }
    }
    if (unkId === undefined) throw new Error(`Unigram tokenizer: ${JSON.stringify(piece.slice(0, 20))} is not in the vocabulary and ${path}.unk_id is missing`);
    out.ids.push(unkId);
    out.lens.push(piece.length);
  };

  const viterbi = (word: string): Symbols => {
    const n = word.length;
    // best path ending at unit i: its score, where its last piece starts (-1: no path yet) and that piece's id
    const score = new Float64Array(n + 1);
    const from = new Int32Array(n + 1).fill(-1);
    const idAt = new Int32Array(n + 1);
    for (let start = 0; start < n;) {
      const c = word.charCodeAt(start);
      const width = c >= 0xd800 && c <= 0xdbff && start + 1 < n && (word.charCodeAt(start + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
      if (start > 0 && from[start] < 0) {
        start += width; // unreachable (cannot happen: every character has at least the unknown piece)
        continue;
      }
      const base = score[start];
      let single = false;
      trie.forEachPrefix(word, start, (end, id) => {
        const candidate = base + scores[id];
        if (from[end] < 0 || candidate > score[end]) {
          score[end] = candidate;
          from[end] = start;
          idAt[end] = id;
        }
        if (end - start === width) single = true;
      });
      if (!single) {
        const end = start + width;
        const candidate = base + unkScore;
        if (from[end] < 0 || candidate > score[end]) {
          if (unkId === undefined) throw new Error(`Unigram tokenizer: no piece for ${JSON.stringify(word.slice(start, end))} and ${path}.unk_id is missing`);
          score[end] = candidate;
          from[end] = start;
          idAt[end] = unkId;
        }
      }
      start += width;
    }
    // Walk back from the end; consecutive unknown pieces are fused into one (HF fuse_unk is always on).
    const pieces: string[] = [];
    let unknownRun = -1; // end of the run of unknown pieces being collected
    for (let end = n; end > 0;) {
      const start = from[end];
      if (unkId !== undefined && idAt[end] === unkId) {
        if (unknownRun < 0) unknownRun = end;
      } else {
        if (unknownRun >= 0) {
          pieces.push(word.slice(end, unknownRun));
          unknownRun = -1;
        }
        pieces.push(word.slice(start, end));
      }
      if (start === 0 && unknownRun >= 0) pieces.push(word.slice(0, unknownRun));
      end = start;
    }
    const out: Symbols = { ids: [], lens: [] };
    for (let k = pieces.length - 1; k >= 0; k--) emit(pieces[k], out);
    return out;
  };

  return {
    type: 'Unigram',
    vocab,
    byteFallback,
    tokenize(word) {
      if (word.length === 0) return { ids: [], lens: [] };
      const cached = cache.get(word);
      if (cached) return cached;
      const result = viterbi(word);
      cache.set(word, result);
      return result;
    },
  };
}
