// A tokenizer built from a HuggingFace tokenizer.json: added tokens → normalizer → pre-tokenizer → model →
// post-processor, with every token's offsets mapped back to the original text (see ./aligned.ts).
//
// Why our own implementation rather than an npm package: the maintained pure-JS one (@huggingface/tokenizers,
// tokenizers.js) returns ids and token strings but no offsets, and offsets through normalisation are what the
// panel needs to point back at the editor. What is implemented is what the tokenizers of GPT-2, BERT, Llama,
// Qwen, Mistral, Gemma, Phi-3, RoBERTa and XLM-R use (see the SUPPORTED lists of each component); anything else is
// rejected with an Error naming it.

import { alignOriginal, misaligned, sliceAligned, type Aligned } from './aligned';
import { AddedTokenMatcher, parseAddedTokens, type AddedToken } from './added-tokens';
import { asObject, describe, TOKENIZER_ERRORS } from './json';
import { buildModel } from './models';
import { chunkEnd } from './chunks';
import { buildDecoder } from './decoders';
import { buildNormalizer, isChunkSafeNormalizer, spaceMarkerOf } from './normalizers';
import { buildPostProcessor } from './post-processors';
import { buildPreTokenizer } from './pre-tokenizers';
import { byteLevelTokenBytes } from '../byte-level';
import { displayBytes, displayText, mergeByteRuns } from '../display';
import { tokenLimit, type DecodeOptions, type EncodeOptions, type Token, type Tokenizer } from '../types';
import { errorArg, MessageError, msg } from '../../protocol/message';

/** Target chunk length in UTF-16 units (chunks end at the next safe cut after this). */
const CHUNK_UNITS = 8192;

/** A token before its offsets are made monotone: raw original range. */
interface RawToken {
  id: number;
  start: number;
  end: number;
  special?: boolean;
}

function parseJson(json: string | object): object {
  if (typeof json !== 'string') return json;
  try {
    return JSON.parse(json) as object;
  } catch (e) {
    throw new MessageError(msg(TOKENIZER_ERRORS.notJson, errorArg(e)));
  }
}

export interface TokenizerJsonOptions {
  /** Target chunk length for long texts (default 8192 UTF-16 units; tests use tiny values to exercise cuts). */
  readonly chunkUnits?: number;
}

/** Builds a tokenizer from the text or parsed object of a tokenizer.json. Throws an Error naming any problem. */
export function tokenizerFromJson(json: string | object, name?: string, options: TokenizerJsonOptions = {}): Tokenizer {
  const chunkUnits = options.chunkUnits ?? CHUNK_UNITS;
  if (!Number.isInteger(chunkUnits) || chunkUnits < 1) throw new Error(`chunkUnits must be a positive integer, got ${String(chunkUnits)}`);
  const parsed = parseJson(json);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new MessageError(msg(TOKENIZER_ERRORS.notObject, describe(parsed)));
  }
  const root = asObject(parsed, 'tokenizer.json');
  if (!('model' in root)) throw new MessageError(msg(TOKENIZER_ERRORS.noModel));
  const model = buildModel(root.model);
  const normalizer = buildNormalizer(root.normalizer);
  const pre = buildPreTokenizer(root.pre_tokenizer);
  const post = buildPostProcessor(root.post_processor);
  const added = parseAddedTokens(root.added_tokens);
  const decoderJson = root.decoder;
  const decoder = buildDecoder(decoderJson);
  const byteLevel = pre.byteLevel || (typeof decoderJson === 'object' && decoderJson !== null && (decoderJson as { type?: unknown }).type === 'ByteLevel');
  // The character that stands for a space in SentencePiece-style vocabularies (▁), shown as ␣ like a space.
  const spaceMarker = pre.metaspace?.replacement ?? spaceMarkerOf(root.normalizer);

  // id → token string (model vocabulary, then added tokens, which win as in HF)
  const tokenOfId = new Map<number, string>();
  for (const [tok, id] of model.vocab) tokenOfId.set(id, tok);
  const addedById = new Map<number, AddedToken>();
  for (const t of added) {
    tokenOfId.set(t.id, t.content);
    addedById.set(t.id, t);
  }
  for (const p of [...post.before, ...post.after]) if (!tokenOfId.has(p.id)) tokenOfId.set(p.id, p.token);
  let vocabSize = 0;
  for (const id of tokenOfId.keys()) vocabSize = Math.max(vocabSize, id + 1);

  const normalize = (a: Aligned): Aligned => (normalizer ? normalizer(a) : a);
  const rawMatcher = new AddedTokenMatcher(added.filter((t) => !t.normalized).map((t) => [t.content, t] as const));
  const normMatcher = new AddedTokenMatcher(
    added.filter((t) => t.normalized).map((t) => [normalize(alignOriginal(t.content, 0, t.content.length)).text, t] as const),
  );

  // Long texts are normalised and tokenised in chunks cut where the pipeline breaks anyway (./chunks.ts), unless
  // a component could see across such a cut.
  const normalizedAdded = added.filter((t) => t.normalized);
  const chunkBreaks =
    isChunkSafeNormalizer(root.normalizer) && normalizedAdded.every((t) => !t.lstrip && !t.rstrip && !/\p{White_Space}/u.test(t.content)) ? pre.breaks : 'none';

  // Byte-fallback tokens (<0x41>): id → byte, for merging runs of them into characters for display.
  const byteOfId = new Map<number, number>();
  if (model.byteFallback) {
    for (const [tok, id] of model.vocab) {
      const hex = /^<0x([0-9A-F]{2})>$/.exec(tok)?.[1];
      if (hex !== undefined && !addedById.has(id)) byteOfId.set(id, parseInt(hex, 16));
    }
  }

  const displayCache = new Map<number, string>();
  const displayOf = (id: number): string => {
    let d = displayCache.get(id);
    if (d !== undefined) return d;
    const tok = tokenOfId.get(id);
    if (tok === undefined) throw new Error(`token id ${id} is not in this tokenizer's vocabulary (size ${vocabSize})`);
    const bytes = byteLevel && !addedById.has(id) ? byteLevelTokenBytes(tok) : undefined;
    if (bytes) d = displayBytes(bytes);
    else if (spaceMarker && !addedById.has(id)) d = displayText(tok.split(spaceMarker).join(' '));
    else d = displayText(tok);
    displayCache.set(id, d);
    return d;
  };
  /** Displays of a sequence of ids: each id's own, with runs of byte-fallback tokens merged into characters. */
  const displaysOf = (ids: readonly number[]): string[] => {
    const out = ids.map(displayOf);
    if (byteOfId.size) mergeByteRuns(ids, byteOfId, out);
    return out;
  };

  const specialContents = new Set(added.filter((t) => t.special).map((t) => t.content));
  const idToToken = (id: number): string | undefined => tokenOfId.get(id);
  const decode = (ids: readonly number[], options?: DecodeOptions): string => {
    const skip = options?.skipSpecialTokens ?? false;
    const tokens: string[] = [];
    for (const id of ids) {
      const tok = tokenOfId.get(id);
      if (tok === undefined) throw new Error(`token id ${id} is not in this tokenizer's vocabulary (size ${vocabSize})`);
      if (skip && specialContents.has(tok)) continue;
      tokens.push(tok);
    }
    return decoder ? decoder(tokens).join('') : tokens.join(' ');
  };

  /** Tokens of one normalised piece without added tokens. Returns false once `limit` is reached. */
  const encodeNormalized = (a: Aligned, out: RawToken[], limit: number): boolean => {
    for (const word of pre.preTokenize(a)) {
      const { ids, lens } = model.tokenize(word.text);
      let u = 0;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k];
        const len = lens[k];
        if (id === undefined || len === undefined) throw new RangeError(`${model.type} model: ${ids.length} token ids but ${lens.length} lengths`);
        const from = u;
        u += len;
        if (u > from) {
          const start = word.starts[from];
          const end = word.ends[u - 1];
          if (start === undefined || end === undefined) {
            throw new RangeError(`${model.type} model: tokens of ${u} units for a word of ${word.text.length} (${JSON.stringify(word.text.slice(0, 40))})`);
          }
          out.push({ id, start, end });
        } else {
          const prevEnd = out[out.length - 1]?.end ?? 0;
          out.push({ id, start: prevEnd, end: prevEnd }); // covers no source text
        }
        if (out.length >= limit) return false;
      }
    }
    return true;
  };

  const encode = (text: string, options?: EncodeOptions): Token[] => {
    if (typeof text !== 'string') throw new Error(`${tokenizerName}: text must be a string, got ${typeof text}`);
    const limit = tokenLimit(options);
    const addSpecial = options?.addSpecialTokens ?? true;
    const nSpecial = addSpecial ? post.before.length + post.after.length : 0;
    const contentLimit = Math.max(0, limit - nSpecial);
    const raw: RawToken[] = [];
    const pushAdded = (t: AddedToken, start: number, end: number) => raw.push({ id: t.id, start, end, special: t.special || undefined });
    if (contentLimit > 0) {
      outer: for (const piece of rawMatcher.split(text)) {
        if (piece.token) {
          pushAdded(piece.token, piece.start, piece.end);
          if (raw.length >= contentLimit) break;
          continue;
        }
        for (let from = piece.start; from < piece.end;) {
          const to = chunkEnd(text, from, piece.end, chunkBreaks, chunkUnits);
          const normalized = normalize(alignOriginal(text, from, to));
          for (const sub of normMatcher.split(normalized.text)) {
            if (sub.token) {
              const start = normalized.starts[sub.start];
              const end = normalized.ends[sub.end - 1];
              if (start === undefined || end === undefined) throw misaligned(normalized, start === undefined ? sub.start : sub.end - 1, 'added token');
              pushAdded(sub.token, start, end);
              if (raw.length >= contentLimit) break outer;
            } else if (!encodeNormalized(sliceAligned(normalized, sub.start, sub.end), raw, contentLimit)) break outer;
          }
          from = to;
        }
      }
    }
    // Offsets in order and non-overlapping: a character split over several tokens (byte-level) belongs to the
    // first of them; the later ones get an empty range where it ends.
    const tokens: Token[] = [];
    const special = (p: { id: number; token: string }, at: number): Token => ({
      text: '',
      display: displayText(p.token),
      id: p.id,
      start: at,
      end: at,
      special: true,
    });
    if (addSpecial) for (const p of post.before) tokens.push(special(p, 0));
    let prevEnd = 0;
    const displays = displaysOf(raw.map((r) => r.id));
    for (const [k, r] of raw.entries()) {
      const start = Math.max(r.start, prevEnd);
      const end = Math.max(r.end, start);
      prevEnd = end;
      const display = displays[k];
      if (display === undefined) throw new RangeError(`${tokenizerName}: ${raw.length} tokens but ${displays.length} displays`);
      const t: Token = { text: text.slice(start, end), display, id: r.id, start, end };
      tokens.push(r.special ? { ...t, special: true } : t);
    }
    if (addSpecial) for (const p of post.after) tokens.push(special(p, text.length));
    return tokens.length > limit ? tokens.slice(0, limit) : tokens;
  };

  const tokenizerName = name ?? `tokenizer.json (${model.type})`;
  const tokenizer: Tokenizer = {
    name: tokenizerName,
    vocabSize,
    encode,
    decodeForDisplay: displaysOf,
    idToToken,
    decode,
  };
  if (!byteLevel) return tokenizer;
  return {
    ...tokenizer,
    tokenBytes: (id) => {
      const tok = tokenOfId.get(id);
      if (tok === undefined) throw new Error(`token id ${id} is not in this tokenizer's vocabulary (size ${vocabSize})`);
      return (!addedById.has(id) && byteLevelTokenBytes(tok)) || new TextEncoder().encode(tok);
    },
  };
}
