// Index reads that must be in range (parallel arrays, tables built beside them, positions a loop has just
// bounded): a read past the end is a bug in the caller or a table that does not match its vocabulary, reported
// with what was read instead of carrying `undefined` on into a token.
// `itemAt` takes any list, for code that runs once per text or per vocabulary; the hot loops (per unit, per byte,
// per token) use the helper for their one array type, so that each call site's read stays monomorphic and is
// inlined (one generic helper reading five kinds of arrays made the tokenizers up to twice as slow); the BPE merge loop and
// the Unigram Viterbi search are typed-array kernels left out of the check.

function outside(what: string, index: number, length: number): RangeError {
  return new RangeError(`${what}: index ${index} is outside 0..${length - 1}`);
}

/** `list[index]`, or a RangeError naming `what` when the index is outside the list. */
export function itemAt<T>(list: ArrayLike<T>, index: number, what: string): T {
  const value = list[index];
  if (value === undefined) throw outside(what, index, list.length);
  return value;
}

/** `itemAt` for an Int32Array. */
export function int32At(list: Int32Array, index: number, what: string): number {
  const value = list[index];
  if (value === undefined) throw outside(what, index, list.length);
  return value;
}

/** `itemAt` for an array of numbers. */
export function numberAt(list: readonly number[], index: number, what: string): number {
  const value = list[index];
  if (value === undefined) throw outside(what, index, list.length);
  return value;
}

/** `itemAt` for a Uint8Array. */
export function uint8At(list: Uint8Array, index: number, what: string): number {
  const value = list[index];
  if (value === undefined) throw outside(what, index, list.length);
  return value;
}
