// tokenizer.json models (HF tokenizers/src/models): BPE, WordPiece, WordLevel, Unigram (./unigram.ts).
// A model turns one word into tokens: ids plus how many units of the word (UTF-16 units; for byte-level words,
// byte characters) each token covers.

import { mergeSymbols, WordCache, type PairMerge, type Symbols } from '../bpe';
import { asArray, asString, asVocab, componentType, fail, isObject, optBool, optCount, optString, TOKENIZER_ERRORS, type JsonObject } from './json';
import { unigramModel } from './unigram';
import { MessageError, msg } from '../../protocol/message';

export interface Model {
  readonly type: 'BPE' | 'WordPiece' | 'WordLevel' | 'Unigram';
  /** token string → id */
  readonly vocab: ReadonlyMap<string, number>;
  /** True when unknown characters become <0xNN> byte tokens (BPE or Unigram with byte_fallback). */
  readonly byteFallback?: boolean;
  tokenize(word: string): Symbols;
}

function bpeModel(cfg: JsonObject, path: string): Model {
  const vocab = asVocab(cfg.vocab, `${path}.vocab`);
  const mergesJson = asArray(cfg.merges, `${path}.merges`);
  const unkToken = optString(cfg, 'unk_token', path);
  const prefix = optString(cfg, 'continuing_subword_prefix', path) ?? '';
  const suffix = optString(cfg, 'end_of_word_suffix', path) ?? '';
  const fuseUnk = optBool(cfg, 'fuse_unk', path, false);
  const byteFallback = optBool(cfg, 'byte_fallback', path, false);
  const ignoreMerges = optBool(cfg, 'ignore_merges', path, false);
  let unkId: number | undefined;
  if (unkToken !== undefined) {
    unkId = vocab.get(unkToken);
    if (unkId === undefined) throw new MessageError(msg(TOKENIZER_ERRORS.unkNotInVocab, path, JSON.stringify(unkToken)));
  }
  // (left id, right id) → {rank = index in merges, newId = id of left + right-without-prefix}; later entries
  // win on duplicates, as when HF collects them into a map.
  const merges = new Map<number, Map<number, PairMerge>>(); // left id → right id → merge
  mergesJson.forEach((m, rank) => {
    const where = `${path}.merges[${rank}]`;
    let a: string;
    let b: string;
    if (typeof m === 'string') {
      const [left, right, ...rest] = m.split(' ');
      if (left === undefined || right === undefined || rest.length > 0) fail(where, msg(TOKENIZER_ERRORS.mergeWithSpace), m);
      [a, b] = [left, right];
    } else if (Array.isArray(m) && m.length === 2) {
      a = asString(m[0], `${where}[0]`);
      b = asString(m[1], `${where}[1]`);
    } else fail(where, msg(TOKENIZER_ERRORS.merge), m);
    const aId = vocab.get(a);
    const bId = vocab.get(b);
    const merged = a + b.slice(prefix.length);
    const newId = vocab.get(merged);
    const missing = aId === undefined ? a : bId === undefined ? b : newId === undefined ? merged : undefined;
    if (missing !== undefined || aId === undefined || bId === undefined || newId === undefined) {
      throw new MessageError(msg(TOKENIZER_ERRORS.mergeNotInVocab, where, JSON.stringify(missing), path));
    }
    let row = merges.get(aId);
    if (!row) merges.set(aId, (row = new Map()));
    row.set(bId, { rank, newId });
  });
  const lookup = (x: number, y: number) => merges.get(x)?.get(y);
  // byte fallback: the <0xNN> ids of a character's UTF-8 bytes (null if one is missing), memoised per character
  const utf8 = new TextEncoder();
  const byteIdCache = new Map<string, number[] | null>();
  const byteIdsOf = (s: string): number[] | null => {
    let ids = byteIdCache.get(s);
    if (ids === undefined) {
      const found = Array.from(utf8.encode(s), (b) => vocab.get(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`));
      ids = found.every((x) => x !== undefined) ? found : null;
      if (byteIdCache.size < 65536) byteIdCache.set(s, ids);
    }
    return ids;
  };
  const cache = new WordCache<Symbols>();

  const initialSymbols = (word: string): Symbols => {
    const ids: number[] = [];
    const lens: number[] = [];
    let unk: { id: number; len: number } | undefined;
    const flushUnk = () => {
      if (unk) {
        ids.push(unk.id);
        lens.push(unk.len);
        unk = undefined;
      }
    };
    for (let i = 0; i < word.length;) {
      const cp = word.codePointAt(i) ?? 0; // i < word.length: a code point is there
      const width = cp > 0xffff ? 2 : 1;
      let s = word.slice(i, i + width);
      if (i > 0) s = prefix + s;
      if (i + width >= word.length) s = s + suffix;
      const id = vocab.get(s);
      if (id !== undefined) {
        flushUnk();
        ids.push(id);
        lens.push(width);
      } else {
        let handled = false;
        if (byteFallback) {
          const byteIds = byteIdsOf(s);
          if (byteIds) {
            flushUnk();
            // The first byte token owns the character; the others cover no source text.
            byteIds.forEach((x, k) => {
              ids.push(x);
              lens.push(k === 0 ? width : 0);
            });
            handled = true;
          }
        }
        if (!handled && unkId !== undefined) {
          if (unk && fuseUnk) unk.len += width;
          else {
            flushUnk();
            unk = { id: unkId, len: width };
          }
        }
        // No unk token: HF drops the character.
      }
      i += width;
    }
    flushUnk();
    return { ids, lens };
  };

  return {
    type: 'BPE',
    vocab,
    byteFallback,
    tokenize(word) {
      if (word.length === 0) return { ids: [], lens: [] };
      if (ignoreMerges) {
        const id = vocab.get(word);
        if (id !== undefined) return { ids: [id], lens: [word.length] };
      }
      const cached = cache.get(word);
      if (cached) return cached;
      const result = mergeSymbols(initialSymbols(word), lookup);
      cache.set(word, result);
      return result;
    },
  };
}

function wordPieceModel(cfg: JsonObject, path: string): Model {
  const vocab = asVocab(cfg.vocab, `${path}.vocab`);
  const unkToken = optString(cfg, 'unk_token', path) ?? '[UNK]';
  const unkId = vocab.get(unkToken);
  if (unkId === undefined) throw new MessageError(msg(TOKENIZER_ERRORS.unkNotInVocab, path, JSON.stringify(unkToken)));
  const prefix = optString(cfg, 'continuing_subword_prefix', path) ?? '##';
  const maxChars = optCount(cfg, 'max_input_chars_per_word', path, 100);
  // No vocabulary entry is longer than this, so longer candidates need not be looked up (keeps the greedy
  // longest-match search O(word length × longest entry) instead of quadratic).
  let longest = 0;
  for (const key of vocab.keys()) longest = Math.max(longest, key.length);

  return {
    type: 'WordPiece',
    vocab,
    tokenize(word) {
      let chars = 0;
      for (let i = 0; i < word.length; i += (word.codePointAt(i) ?? 0) > 0xffff ? 2 : 1) chars++;
      if (chars === 0) return { ids: [], lens: [] };
      const unk = { ids: [unkId], lens: [word.length] };
      if (chars > maxChars) return unk;
      const ids: number[] = [];
      const lens: number[] = [];
      let start = 0;
      while (start < word.length) {
        const pre = start > 0 ? prefix : '';
        let end = Math.min(word.length, start + longest - pre.length);
        // never end inside a surrogate pair
        if (end < word.length && end > start && /[\uDC00-\uDFFF]/.test(word.charAt(end)) && /[\uD800-\uDBFF]/.test(word.charAt(end - 1))) end--;
        let found: number | undefined;
        while (end > start) {
          const id = vocab.get(pre + word.slice(start, end));
          if (id !== undefined) {
            found = id;
            break;
          }
          const last = word.charCodeAt(end - 1);
          end -= last >= 0xdc00 && last <= 0xdfff && end - 2 >= start ? 2 : 1;
        }
        if (found === undefined) return unk;
        ids.push(found);
        lens.push(end - start);
        start = end;
      }
      return { ids, lens };
    },
  };
}

function wordLevelModel(cfg: JsonObject, path: string): Model {
  const vocab = asVocab(cfg.vocab, `${path}.vocab`);
  const unkToken = optString(cfg, 'unk_token', path);
  const unkId = unkToken === undefined ? undefined : vocab.get(unkToken);
  if (unkToken !== undefined && unkId === undefined) {
    throw new MessageError(msg(TOKENIZER_ERRORS.unkNotInVocab, path, JSON.stringify(unkToken)));
  }
  return {
    type: 'WordLevel',
    vocab,
    tokenize(word) {
      const id = vocab.get(word) ?? unkId;
      if (id === undefined) throw new Error(`WordLevel tokenizer: ${JSON.stringify(word.slice(0, 40))} is not in the vocabulary and there is no unk_token`);
      return { ids: [id], lens: [word.length] };
    },
  };
}

const SUPPORTED = ['BPE', 'WordPiece', 'WordLevel', 'Unigram'];

/** Builds the model; a missing `type` is inferred from the fields, as HF's untagged deserialisation does. */
export function buildModel(config: unknown, path = 'model'): Model {
  if (!isObject(config)) fail(path, msg(TOKENIZER_ERRORS.anObject), config);
  let cfg = config;
  if (cfg.type === undefined) {
    const inferred =
      'merges' in cfg
        ? 'BPE'
        : 'continuing_subword_prefix' in cfg || 'max_input_chars_per_word' in cfg
          ? 'WordPiece'
          : Array.isArray(cfg.vocab)
            ? 'Unigram'
            : 'WordLevel';
    cfg = { ...cfg, type: inferred };
  }
  switch (componentType(cfg, path, SUPPORTED)) {
    case 'BPE':
      return bpeModel(cfg, path);
    case 'WordPiece':
      return wordPieceModel(cfg, path);
    case 'Unigram':
      return unigramModel(cfg, path);
    default:
      return wordLevelModel(cfg, path);
  }
}
