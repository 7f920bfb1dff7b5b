// Index reads that must be in range (parallel arrays, tables built beside them, positions a loop has just
// bounded): a read past the end is a bug in the caller or a table that does not match its vocabulary, reported
// with what was read instead of carrying `undefined` on into a token.

/** `list[index]`, or a RangeError naming `what` when the index is outside the list. */
export function itemAt<T>(list: ArrayLike<T>, index: number, what: string): T {
  const value = list[index];
  if (value === undefined) throw new RangeError(`${what}: index ${index} is outside 0..${list.length - 1}`);
  return value;
}
