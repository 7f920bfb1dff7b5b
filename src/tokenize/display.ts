// Readable display text for tokens. Display text is for people: it never changes ids or offsets, and it is
// plain text (the webview must still insert it as text, never as HTML).
//
// Conventions (documented in Token.display):
//   space → ␣ (U+2423), newline → ↵, tab → ⇥, carriage return → ␍;
//   other control characters, direction overrides/isolates/marks, line/paragraph separators, the BOM and lone
//   surrogates → <U+XXXX>;
//   bytes that are not a complete UTF-8 character inside one token → <0xXX>.

import { numberAt, uint8At } from './checked';

const VISIBLE_WHITESPACE: ReadonlyMap<number, string> = new Map([
  [0x20, '\u2423'], // ␣
  [0x0a, '\u21b5'], // ↵
  [0x09, '\u21e5'], // ⇥
  [0x0d, '\u240d'], // ␍
]);

/** Code points shown as <U+XXXX>: controls, bidi formatting, separators that break lines, BOM, surrogates. */
function isEscapedCodePoint(cp: number): boolean {
  return (
    cp < 0x20 ||
    (cp >= 0x7f && cp <= 0x9f) ||
    cp === 0x061c ||
    cp === 0x200e ||
    cp === 0x200f ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0xfeff ||
    (cp >= 0xd800 && cp <= 0xdfff)
  );
}

function hex(n: number, width: number): string {
  return n.toString(16).toUpperCase().padStart(width, '0');
}

/** Readable form of one code point. */
export function displayCodePoint(cp: number): string {
  const visible = VISIBLE_WHITESPACE.get(cp);
  if (visible !== undefined) return visible;
  if (isEscapedCodePoint(cp)) return `<U+${hex(cp, 4)}>`;
  return String.fromCodePoint(cp);
}

/** Any character displayCodePoint changes (a superset for surrogates: valid pairs take the slow path). */
const NEEDS_ESCAPE = /[\x00-\x20\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff\ud800-\udfff]/;

/** Readable form of a string: whitespace made visible, invisible/bidi characters escaped, everything else kept. */
export function displayText(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  let out = '';
  let plainFrom = 0;
  for (let i = 0; i < s.length;) {
    const cp = s.codePointAt(i) ?? 0; // i < s.length: a code point is there
    const width = cp > 0xffff ? 2 : 1;
    if (VISIBLE_WHITESPACE.has(cp) || isEscapedCodePoint(cp)) {
      out += s.slice(plainFrom, i) + displayCodePoint(cp);
      plainFrom = i + width;
    }
    i += width;
  }
  return plainFrom === 0 ? s : out + s.slice(plainFrom);
}

/** Byte escape used for bytes that are not a whole character: `<0xE6>`. */
export function byteEscape(b: number): string {
  return `<0x${hex(b, 2)}>`;
}

/**
 * Length of the well-formed UTF-8 sequence starting at `bytes[i]` (1..4), or 0 if the bytes there do not form a
 * complete, well-formed character (a continuation byte, a truncated sequence, an overlong form, a surrogate or a
 * value above U+10FFFF), following the Unicode "maximal subpart" rules.
 */
export function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i];
  if (b0 === undefined) return 0; // past the end: no character starts there
  if (b0 < 0x80) return 1;
  let len: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) len = 2;
  else if (b0 >= 0xe0 && b0 <= 0xef) {
    len = 3;
    if (b0 === 0xe0) lo = 0xa0;
    if (b0 === 0xed) hi = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    len = 4;
    if (b0 === 0xf0) lo = 0x90;
    if (b0 === 0xf4) hi = 0x8f;
  } else return 0;
  if (i + len > bytes.length) return 0;
  const b1 = bytes[i + 1];
  if (b1 === undefined || b1 < lo || b1 > hi) return 0;
  for (let k = 2; k < len; k++) {
    const b = bytes[i + k];
    if (b === undefined || b < 0x80 || b > 0xbf) return 0;
  }
  return len;
}

const UTF8_SEQUENCE = 'UTF-8 sequence';

/** The code point of the `len`-byte sequence at `bytes[i]`, a length `utf8SequenceLength` has just checked. */
function decodeSequence(bytes: Uint8Array, i: number, len: number): number {
  const b0 = uint8At(bytes, i, UTF8_SEQUENCE);
  if (len === 1) return b0;
  const b1 = uint8At(bytes, i + 1, UTF8_SEQUENCE) & 0x3f;
  if (len === 2) return ((b0 & 0x1f) << 6) | b1;
  const b2 = uint8At(bytes, i + 2, UTF8_SEQUENCE) & 0x3f;
  if (len === 3) return ((b0 & 0x0f) << 12) | (b1 << 6) | b2;
  return ((b0 & 0x07) << 18) | (b1 << 12) | (b2 << 6) | (uint8At(bytes, i + 3, UTF8_SEQUENCE) & 0x3f);
}

/**
 * Readable form of a byte-level token: complete UTF-8 characters are shown as characters (through
 * `displayCodePoint`), every byte that is not part of a complete character inside this token as `<0xXX>`.
 * Never produces U+FFFD for broken bytes (a real U+FFFD in the text is shown as itself).
 */
export function displayBytes(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const len = utf8SequenceLength(bytes, i);
    if (len === 0) {
      out += byteEscape(uint8At(bytes, i, 'token bytes'));
      i += 1;
    } else {
      out += displayCodePoint(decodeSequence(bytes, i, len));
      i += len;
    }
  }
  return out;
}

/** Display of a byte-fallback token that only continues the character shown on the token before it. */
export const CONTINUATION_DISPLAY = '\u22ef'; // ⋯

/**
 * Merges runs of byte-fallback tokens (<0xF0> <0x9F> <0x99> <0x82>) for display, in place: the token holding a
 * character's first byte shows the whole character (🙂), the tokens holding only its other bytes show ⋯. Bytes
 * that do not form a complete character keep their <0xXX> display. `byteOfId` maps byte-token ids to bytes.
 */
export function mergeByteRuns(ids: readonly number[], byteOfId: ReadonlyMap<number, number>, displays: string[]): void {
  for (let i = 0; i < ids.length;) {
    if (!byteOfId.has(numberAt(ids, i, 'token ids'))) {
      i++;
      continue;
    }
    const run: number[] = []; // the bytes of the byte tokens from i on
    for (let j = i; j < ids.length; j++) {
      const byte = byteOfId.get(numberAt(ids, j, 'token ids'));
      if (byte === undefined) break;
      run.push(byte);
    }
    const j = i + run.length;
    const bytes = Uint8Array.from(run);
    for (let b = 0; b < bytes.length;) {
      const len = utf8SequenceLength(bytes, b);
      if (len === 0)
        b++; // a broken byte: its own <0xXX> display stays
      else {
        displays[i + b] = displayCodePoint(decodeSequence(bytes, b, len));
        for (let k = 1; k < len; k++) displays[i + b + k] = CONTINUATION_DISPLAY;
        b += len;
      }
    }
    i = j;
  }
}
