// Index reads that must be in range (parallel arrays, rows named by the trace itself): a read past the end is a bug
// in the data the panel was given, reported with what was read instead of drawing `undefined`.

/** `list[index]`, or an error naming `what` when the index is past the end. */
export function itemAt<T>(list: ArrayLike<T>, index: number, what: string): T {
  const value = list[index];
  if (value === undefined) throw new Error(`${what}: index ${index} is outside 0..${list.length - 1}`);
  return value;
}
