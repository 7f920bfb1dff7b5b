// Byte-pair-encoding merge loop shared by the GPT-2 tokenizer and tokenizer.json BPE models.
//
// Semantics are those of HuggingFace tokenizers' `Word::merge_all` (models/bpe/word.rs): repeatedly apply the
// applicable merge with the lowest rank, the leftmost one on ties. A priority queue with lazy invalidation
// makes it O(n log n) in the number of symbols (the plain "scan for the minimum, splice" loop of tiktoken-style
// ports is O(n²), which hangs on a megabyte-long run of one character). With rank = id of the merged token this
// is also exactly tiktoken's rank-based merge.
// A typed-array kernel, left out of noUncheckedIndexedAccess by name (scripts/typecheck-strict-index.mjs): the merge
// loop reads symbols through a linked list in Int32Arrays whose links are all below the word's length; checking
// each read cost a third of the time of a megabyte-long word.

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
    const m = lookup(ids[i], ids[i + 1]);
    if (m) queue.push(m.rank, i, m.newId);
  }
  while (queue.size > 0) {
    queue.pop();
    const pos = queue.topPos;
    const newId = queue.topNewId;
    if (removed[pos]) continue; // removed symbol
    const right = next[pos];
    if (right < 0) continue; // last symbol
    const current = lookup(ids[pos], ids[right]);
    if (current === undefined || current.newId !== newId) continue; // expired entry
    ids[pos] = newId;
    lens[pos] += lens[right];
    removed[right] = 1;
    const after = next[right];
    next[pos] = after;
    if (after >= 0) prev[after] = pos;
    const before = prev[pos];
    if (before >= 0) {
      const m = lookup(ids[before], ids[pos]);
      if (m) queue.push(m.rank, before, m.newId);
    }
    if (after >= 0) {
      const m = lookup(ids[pos], ids[after]);
      if (m) queue.push(m.rank, pos, m.newId);
    }
  }
  const out: Symbols = { ids: [], lens: [] };
  for (let i = 0; i >= 0; i = next[i]) {
    out.ids.push(ids[i]);
    out.lens.push(lens[i]);
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
