// Axis labels of a recorded call: the token text of each position where the trace knows the token ids and the
// tokenizer that made them (the program's HF tokenizer, whose tokenizer.json the recorder wrote into the trace
// folder), the ids where only they are known, positions otherwise. Pure: the caller supplies the file's bytes.
import type { TokenInfo } from '../protocol/engine';
import { tokenizerFromJson, type Tokenizer } from '../tokenize';
import type { CapturedTensor, ReadTraceFile } from './tensors';
import { TraceError, type TraceCall, type TraceTokenizer, type TraceTokens } from './trace';
import { errorArg, messagePartsOf, msg } from '../protocol/message';
import { TRACE_FILE_ERRORS } from './messages';

/** Labels of a recorded run's axes for one batch element: the keys' (S) and the queries' (T, when T ≠ S). */
export interface RecordedLabels {
  keys: TokenInfo[] | null;
  queries: TokenInfo[] | null;
}

/** A recorded tokenizer.json larger than this is not read (as beside a checkpoint). */
export const MAX_TOKENIZER_JSON_BYTES = 128 * 1024 * 1024;

/** The tokenizer a call's ids came from, built from its recorded tokenizer.json; a TraceError when unreadable. */
export function recordedTokenizer(entry: TraceTokenizer, readFile: ReadTraceFile): Tokenizer {
  const file = entry.file;
  if (file === null) throw new TraceError(entry.name ?? 'the tokenizer', msg(TRACE_FILE_ERRORS.tokenizerNotSaved));
  let bytes: Uint8Array;
  try {
    bytes = readFile(file);
  } catch (e) {
    throw new TraceError(file, msg(TRACE_FILE_ERRORS.unreadable, errorArg(e)));
  }
  if (bytes.length > MAX_TOKENIZER_JSON_BYTES)
    throw new TraceError(
      file,
      msg(TRACE_FILE_ERRORS.tokenizerTooLarge, bytes.length.toLocaleString('en-US'), MAX_TOKENIZER_JSON_BYTES.toLocaleString('en-US')),
    );
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new TraceError(file, msg(TRACE_FILE_ERRORS.notUtf8));
  }
  try {
    return tokenizerFromJson(text, entry.name ?? file);
  } catch (e) {
    const parts = messagePartsOf(e);
    throw new TraceError(file, parts ?? (e as Error).message);
  }
}

/**
 * Labels of one sequence of `ids` (one batch element): the tokenizer's readable text of each id ("␣world"), the
 * id itself when there is no tokenizer or the id is outside its vocabulary ("[pad 0]" at the embedding's
 * padding_idx); padding positions are marked special. Plain text, never HTML.
 */
export function tokenLabels(ids: ArrayLike<number>, paddingIdx: number | null, tokenizer: Tokenizer | null): TokenInfo[] {
  const list = Array.from(ids, (x) => Math.round(x));
  const texts = displayTexts(list, tokenizer);
  return list.map((id, i) => {
    const pad = paddingIdx !== null && id === paddingIdx;
    const text = texts?.[i] ?? (pad ? `[pad ${id}]` : String(id));
    return { text, display: text, start: 0, end: 0, id, ...(pad ? { special: true } : {}) };
  });
}

function displayTexts(ids: number[], tokenizer: Tokenizer | null): string[] | null {
  if (!tokenizer?.decodeForDisplay) return null;
  const vocab = tokenizer.vocabSize ?? Infinity;
  if (ids.every((id) => id >= 0 && id < vocab)) {
    try {
      return tokenizer.decodeForDisplay(ids);
    } catch {
      // an id the vocabulary does not hold: label each id on its own below
    }
  }
  return ids.map((id) => {
    try {
      return id >= 0 && id < vocab ? (tokenizer.decodeForDisplay?.([id])[0] ?? String(id)) : String(id);
    } catch {
      return String(id);
    }
  });
}

/** Labels by position ("0", "1", …) for an axis whose ids were not captured; `prefix` marks queries ("q0"). */
export function positionLabels(n: number, prefix = ''): TokenInfo[] {
  return Array.from({ length: n }, (_, i) => {
    const text = `${prefix}${i}`;
    return { text, display: text, start: 0, end: 0 };
  });
}

/**
 * The axis labels of batch element `batch`: token text where the call's ids came from a tokenizer the recording
 * saved (ids when it could not be read), ids where only they are known; null for an axis without ids.
 */
export function recordedLabels(call: TraceCall, tensors: Map<string, CapturedTensor>, reader: ReadTraceFile, batch: number): RecordedLabels {
  const tokenizers = new Map<string, Tokenizer | null>();
  const tokenizerOf = (info: TraceTokens): Tokenizer | null => {
    const entry = info.tokenizer;
    if (!entry?.file) return null;
    if (!tokenizers.has(entry.file)) {
      let tok: Tokenizer | null = null;
      try {
        tok = recordedTokenizer(entry, reader);
      } catch {
        tok = null; // unreadable or a tokenizer.json this extension does not read: ids instead of text
      }
      tokenizers.set(entry.file, tok);
    }
    return tokenizers.get(entry.file) ?? null;
  };
  const axis = (info: TraceTokens | null, name: string): RecordedLabels['keys'] => {
    const ids = tensors.get(name);
    if (!info || !ids || ids.summarised || ids.tensor.shape.length !== 2) return null;
    const [B, L] = ids.tensor.shape; // two axes (checked above)
    if (B === undefined || L === undefined || batch >= B) return null;
    return tokenLabels(Array.from(ids.tensor.data.subarray(batch * L, (batch + 1) * L)), info.paddingIdx, tokenizerOf(info));
  };
  return { keys: axis(call.tokens, 'token_ids'), queries: axis(call.queryTokens, 'query_token_ids') };
}
