// Byte-pair-encoding merge loop shared by the GPT-2 tokenizer and tokenizer.json BPE models.
//
// Semantics are those of HuggingFace tokenizers' `Word::merge_all` (models/bpe/word.rs): repeatedly apply the
// applicable merge with the lowest rank, the leftmost one on ties. A priority queue with lazy invalidation
// makes it O(n log n) in the number of symbols (the plain "scan for the minimum, splice" loop of tiktoken-style
// ports is O(n²), which hangs on a megabyte-long run of one character). With rank = id of the merged token this
// is also exactly tiktoken's rank-based merge.

import { int32At, numberAt } from './checked';
import { MergeQueue } from './merge-queue';

/** What merging the pair (left, right) gives: its priority (lower first) and the id of the merged symbol; both
 * are non-negative integers below 2^31. */
export interface PairMerge {
  readonly rank: number;
  readonly newId: number;
}

export type PairLookup = (left: number, right: number) => PairMerge | undefined;

/** Symbols of a word: parallel arrays of ids and lengths (in whatever unit the caller counts: bytes or chars). */
export interface Symbols {
  ids: number[];
  lens: number[];
}

/** Reads of the symbol arrays below: every index is a live symbol's (below the word's length). */
const SYMBOL = 'BPE merge: symbol';

/** Applies all merges to `word` (not modified) and returns the merged symbols. */
export function mergeSymbols(word: Symbols, lookup: PairLookup): Symbols {
  const n = word.ids.length;
  if (word.lens.length !== n) throw new RangeError(`BPE merge: ${n} symbol ids but ${word.lens.length} lengths`);
  if (n < 2) return { ids: word.ids.slice(), lens: word.lens.slice() };
  const ids = word.ids.slice();
  const lens = word.lens.slice();
  const removed = new Uint8Array(n); // lengths may legitimately be 0 (byte-fallback continuation bytes)
  const prev = new Int32Array(n);
  const next = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    prev[i] = i - 1;
    next[i] = i + 1 < n ? i + 1 : -1;
  }
  const queue = new MergeQueue(n);
  for (let i = 0; i + 1 < n; i++) {
    const m = lookup(numberAt(ids, i, SYMBOL), numberAt(ids, i + 1, SYMBOL));
    if (m) queue.push(m.rank, i, m.newId);
  }
  while (queue.size > 0) {
    queue.pop();
    const pos = queue.topPos;
    const newId = queue.topNewId;
    if (removed[pos] === 1) continue; // removed symbol
    const right = int32At(next, pos, SYMBOL);
    if (right < 0) continue; // last symbol
    const current = lookup(numberAt(ids, pos, SYMBOL), numberAt(ids, right, SYMBOL));
    if (current === undefined || current.newId !== newId) continue; // expired entry
    ids[pos] = newId;
    lens[pos] = numberAt(lens, pos, SYMBOL) + numberAt(lens, right, SYMBOL);
    removed[right] = 1;
    const after = int32At(next, right, SYMBOL);
    next[pos] = after;
    if (after >= 0) prev[after] = pos;
    const before = int32At(prev, pos, SYMBOL);
    if (before >= 0) {
      const m = lookup(numberAt(ids, before, SYMBOL), newId);
      if (m) queue.push(m.rank, before, m.newId);
    }
    if (after >= 0) {
      const m = lookup(newId, numberAt(ids, after, SYMBOL));
      if (m) queue.push(m.rank, pos, m.newId);
    }
  }
  const out: Symbols = { ids: [], lens: [] };
  for (let i = 0; i >= 0; i = int32At(next, i, SYMBOL)) {
    out.ids.push(numberAt(ids, i, SYMBOL));
    out.lens.push(numberAt(lens, i, SYMBOL));
  }
  return out;
}

/** A bounded memo keyed by word (cleared when full, so memory stays bounded on huge inputs). */
export class WordCache<V> {
  private readonly map = new Map<string, V>();
  constructor(
    private readonly capacity = 10_000,
    private readonly maxKeyLength = 256,
  ) {}

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    if (key.length > this.maxKeyLength) return;
    if (this.map.size >= this.capacity) this.map.clear();
    this.map.set(key, value);
  }
}
