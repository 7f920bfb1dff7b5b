// UTF-8 encoding of a slice of a JS string together with the map from byte offsets back to UTF-16 offsets.

import { int32At } from './checked';

export interface Utf8Slice {
  /** UTF-8 bytes of the slice; a lone surrogate is encoded as U+FFFD (EF BF BD), as TextEncoder does. */
  readonly bytes: Uint8Array;
  /**
   * `ceil[b]` (for b in 0..bytes.length) is the UTF-16 offset, relative to the slice start, of the first
   * character whose first byte is at or after byte b. So a character belongs to the token that holds its first
   * byte, and a token made only of continuation bytes maps to an empty range.
   */
  readonly ceil: Int32Array;
}

/** Encodes `s.slice(from, to)` as UTF-8 and records where each character starts. */
export function encodeUtf8WithOffsets(s: string, from = 0, to = s.length): Utf8Slice {
  const bytes = new Uint8Array((to - from) * 3);
  const charStart = new Int32Array((to - from) * 3 + 1).fill(-1);
  let n = 0;
  for (let i = from; i < to;) {
    let cp = s.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < to) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        width = 2;
      }
    }
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // lone surrogate
    charStart[n] = i - from;
    if (cp < 0x80) bytes[n++] = cp;
    else if (cp < 0x800) {
      bytes[n++] = 0xc0 | (cp >> 6);
      bytes[n++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      bytes[n++] = 0xe0 | (cp >> 12);
      bytes[n++] = 0x80 | ((cp >> 6) & 0x3f);
      bytes[n++] = 0x80 | (cp & 0x3f);
    } else {
      bytes[n++] = 0xf0 | (cp >> 18);
      bytes[n++] = 0x80 | ((cp >> 12) & 0x3f);
      bytes[n++] = 0x80 | ((cp >> 6) & 0x3f);
      bytes[n++] = 0x80 | (cp & 0x3f);
    }
    i += width;
  }
  const ceil = new Int32Array(n + 1);
  let next = to - from;
  ceil[n] = next;
  for (let b = n - 1; b >= 0; b--) {
    const start = int32At(charStart, b, 'UTF-8 character starts');
    if (start >= 0) next = start;
    ceil[b] = next;
  }
  return { bytes: bytes.subarray(0, n), ceil };
}
