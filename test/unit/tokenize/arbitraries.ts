// fast-check generators of awkward Unicode text shared by the tokenizer tests.
import fc from 'fast-check';

export const CJK = ['我', '爱', '自然', '语言', '处理', '。', '，', '「', '」', 'の', 'カタカナ', '한국어', 'ー', '𠀋'];
export const EMOJI = ['👨‍👩‍👧', '🇫🇷', '👍🏽', '#️⃣', '🌍', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '❤️'];
export const MARKS = ['e\u0301', '\u0301', 'n\u0303\u0323', '\u0300\u0301', 'a\u20dd'];
export const SPACES = [' ', '  ', '\n', '\t', '\r\n', '\u3000', '\u00a0', '\n\n'];
export const WORDS = ["don't", 'l’homme', 'Hello', 'world', 'café', 'ß', 'İ', 'Σ', 'x1', '3.14', "rock'n'roll"];
export const HOSTILE = ['<img src=x onerror=alert(1)>', '\u202e', '\u0000', '\u2066', '"\'`', '\\', '&amp;'];

export interface TextOptions {
  /** Exclude these substrings (e.g. U+FEFF when comparing with a package that treats it differently). */
  readonly exclude?: readonly string[];
  readonly maxPieces?: number;
}

/** Well-formed (no lone surrogates) text mixing CJK, emoji, combining marks, white space and hostile bits. */
export function unicodeText(options: TextOptions = {}): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc.constantFrom(...CJK),
    fc.constantFrom(...EMOJI),
    fc.constantFrom(...MARKS),
    fc.constantFrom(...SPACES),
    fc.constantFrom(...WORDS),
    fc.constantFrom(...HOSTILE),
    fc.string({ unit: 'binary', maxLength: 4 }),
    fc.string({ unit: 'grapheme', maxLength: 3 }),
  );
  const exclude = options.exclude ?? [];
  return fc
    .array(piece, { maxLength: options.maxPieces ?? 12 })
    .map((parts) => parts.join(''))
    .filter((s) => exclude.every((x) => !s.includes(x)));
}

/** True if `s` has a surrogate code unit that is not part of a pair. */
export function hasLoneSurrogate(s: string): boolean {
  return /(?:[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/.test(s);
}

/** Checks the offset invariants every tokenizer promises; throws with a message on the first violation. */
export function checkOffsets(input: string, tokens: readonly { text: string; start: number; end: number }[]): void {
  let prevEnd = 0;
  for (const [i, t] of tokens.entries()) {
    if (!Number.isInteger(t.start) || !Number.isInteger(t.end)) throw new Error(`token ${i}: non-integer offsets`);
    if (t.start < prevEnd) throw new Error(`token ${i} starts at ${t.start}, before the previous token's end ${prevEnd}`);
    if (t.end < t.start) throw new Error(`token ${i}: end ${t.end} < start ${t.start}`);
    if (t.end > input.length) throw new Error(`token ${i}: end ${t.end} beyond the input (${input.length})`);
    if (t.text !== input.slice(t.start, t.end)) throw new Error(`token ${i}: text ${JSON.stringify(t.text)} is not input.slice(${t.start}, ${t.end})`);
    // never split a surrogate pair
    const hiBefore = (k: number) => k > 0 && k < input.length && /[\uD800-\uDBFF]/.test(input[k - 1]) && /[\uDC00-\uDFFF]/.test(input[k]);
    if (t.end > t.start && (hiBefore(t.start) || hiBefore(t.end))) throw new Error(`token ${i} [${t.start}, ${t.end}) splits a surrogate pair`);
    prevEnd = t.end;
  }
}
