// Duplicate keys in JSON text. JSON.parse keeps the last of two equal keys silently, so a header that names a
// tensor twice, or gives one tensor two dtypes, would read as whichever came last; the reference safetensors
// reader (serde) refuses a repeated field. This scan finds the first repeated key of any object.

/** The first key that occurs twice in one object of `text` (which must be valid JSON), with its object's path. */
export function firstDuplicateKey(text: string): { key: string; path: string[] } | undefined {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const open: (Set<string> | null)[] = [];
  const path: string[] = [];
  let lastKey = '';
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: find its end (escapes skip the next character).
      let j = i + 1;
      let escaped = false;
      for (;;) {
        const d = text.charCodeAt(j);
        if (d === 0x5c) {
          escaped = true;
          j += 2;
        } else if (d === 0x22 || j >= n) break;
        else j++;
      }
      const keys = open[open.length - 1];
      if (keys && expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        if (keys.has(key)) return { key, path: [...path] };
        keys.add(key);
        lastKey = key;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (open.length > 0) path.push(open[open.length - 1] ? lastKey : '[]');
      open.push(c === 0x7b ? new Set() : null);
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      path.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      expectKey = open[open.length - 1] !== null && open.length > 0;
    }
  }
  return undefined;
}
