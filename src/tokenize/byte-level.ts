// Pieces of GPT-2's byte-level scheme shared by the GPT-2 tokenizer and tokenizer.json's ByteLevel
// pre-tokenizer: the split regex and the byte ↔ printable-character table.

/**
 * GPT-2's pre-tokenization regex (openai/gpt-2 encoder.py; tiktoken r50k_base; HF ByteLevel). Its `\s` is
 * written as \p{White_Space} because the reference engines (Python `regex`, Rust `fancy-regex`, Oniguruma) use
 * Unicode White_Space, while JavaScript's `\s` also matches U+FEFF and misses U+0085.
 */
export const GPT2_SPLIT_SOURCE = String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\p{White_Space}\p{L}\p{N}]+|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+`;

/** A fresh global regex (callers own its lastIndex). */
export function gpt2SplitRegex(): RegExp {
  return new RegExp(GPT2_SPLIT_SOURCE, 'gu');
}

/**
 * Calls `onPiece(start, end)` for each regex piece of `text.slice(from, to)` (absolute UTF-16 offsets). The
 * pieces tile the range: the last alternative `\s+` and the others together match every character.
 */
export function forEachGpt2Piece(text: string, from: number, to: number, onPiece: (start: number, end: number) => boolean | void): void {
  const segment = from === 0 && to === text.length ? text : text.slice(from, to);
  const re = gpt2SplitRegex();
  let m: RegExpExecArray | null;
  let expected = 0;
  while ((m = re.exec(segment)) !== null) {
    if (m.index !== expected) {
      // A character no alternative matches (cannot happen for well-formed text); keep it as its own piece so
      // nothing is ever dropped.
      if (onPiece(from + expected, from + m.index) === false) return;
    }
    expected = m.index + m[0].length;
    if (onPiece(from + m.index, from + expected) === false) return;
  }
  if (expected < segment.length) onPiece(from + expected, to);
}

/** GPT-2's bytes_to_unicode(): printable bytes map to themselves, the others to U+0100 + n. */
function buildByteToChar(): string[] {
  const table = new Array<string>(256);
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let n = 0;
  for (let b = 0; b < 256; b++) table[b] = printable(b) ? String.fromCharCode(b) : String.fromCharCode(256 + n++);
  return table;
}

export const BYTE_TO_CHAR: readonly string[] = buildByteToChar();

export const CHAR_TO_BYTE: ReadonlyMap<string, number> = new Map(BYTE_TO_CHAR.map((c, b) => [c, b]));

/** The bytes a byte-level vocabulary entry stands for, or undefined if it has a character outside the table. */
export function byteLevelTokenBytes(token: string): Uint8Array | undefined {
  const out = new Uint8Array(token.length);
  for (let i = 0; i < token.length; i++) {
    const b = CHAR_TO_BYTE.get(token.charAt(i));
    if (b === undefined) return undefined;
    out[i] = b;
  }
  return out;
}
