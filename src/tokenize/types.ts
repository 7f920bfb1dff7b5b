// Shared result and interface types of every tokenizer in src/tokenize.
// Offsets are UTF-16 code-unit offsets into the string passed to `encode`, so the host can map a token back to
// the editor (vscode.Position works in UTF-16 units) and `input.slice(start, end)` is the token's source text.

/** One token of an encoded text. */
export interface Token {
  /** The source text this token covers, verbatim: always `input.slice(start, end)`. Never interpreted. */
  readonly text: string;
  /**
   * A readable form for the panel. Equals `text` for the words tokenizer (except that invisible and
   * direction-changing characters are escaped as `<U+202E>`); for vocabulary tokenizers it is the vocabulary
   * entry made readable: byte-level tokens show a leading space as `␣`, newline `↵`, tab `⇥`, carriage return
   * `␍`, and bytes that are only part of a UTF-8 character as `<0xE6>`; SentencePiece's `▁` shows as `␣`; a run
   * of byte-fallback tokens shows each character on the token holding its first byte and `⋯` on the others.
   * Plain text only: never HTML.
   */
  readonly display: string;
  /** Vocabulary id, exactly what the model consumes. Absent for the words tokenizer. */
  readonly id?: number;
  /** UTF-16 offset of the first code unit covered (inclusive). */
  readonly start: number;
  /** UTF-16 offset just past the last code unit covered (exclusive). `start === end` for tokens that own no
   * source text: [CLS]/[SEP] added by a post-processor, or a byte-level token holding only the trailing bytes of
   * a character whose first byte belongs to the previous token. */
  readonly end: number;
  /** True for special tokens ([CLS], [SEP], <|endoftext|>, ...), whether added by a post-processor or found in
   * the text. */
  readonly special?: boolean;
}

export interface EncodeOptions {
  /** Stop after this many tokens (a positive integer). Ask for one more than you show to detect overflow. With
   * post-processor specials, the text is truncated so that the specials still fit (as HF truncation does). */
  readonly maxTokens?: number;
  /** Add the post-processor's special tokens ([CLS] ... [SEP]). Default true. Only tokenizer.json tokenizers have
   * a post-processor. */
  readonly addSpecialTokens?: boolean;
}

export interface Tokenizer {
  /** Human-readable name, e.g. "words", "gpt2", "tokenizer.json (WordPiece)". */
  readonly name: string;
  /** Number of ids the model's embedding table must have (absent for the words tokenizer, which has no ids). */
  readonly vocabSize?: number;
  /** Tokens in source order; offsets non-decreasing and non-overlapping. Linear-ish in the text length. */
  encode(text: string, options?: EncodeOptions): Token[];
  /** Readable display text of each id (same rules as `Token.display`); throws on an id outside the vocabulary. */
  decodeForDisplay?(ids: readonly number[]): string[];
  /** The UTF-8 bytes an id stands for (byte-level vocabularies only). */
  tokenBytes?(id: number): Uint8Array;
  /** The vocabulary string of an id, as HF's `convert_ids_to_tokens` gives it ("Ġthe", "▁the", "<0x0A>", "[CLS]");
   * undefined for an id outside the vocabulary (tokenizer.json tokenizers). */
  idToToken?(id: number): string | undefined;
  /** Text of a list of ids through the tokenizer's decoder, as HF's `decode` (tokenizer.json tokenizers); throws on
   * an id outside the vocabulary or a decoder this implementation does not have. */
  decode?(ids: readonly number[], options?: DecodeOptions): string;
}

export interface DecodeOptions {
  /** Leave out special added tokens (<s>, [CLS], <|endoftext|>, ...). Default false, as in HF. */
  readonly skipSpecialTokens?: boolean;
}

export type TokenizerSpec =
  { readonly kind: 'words' } | { readonly kind: 'gpt2' } | { readonly kind: 'tokenizer-json'; readonly json: string | object; readonly name?: string };

/** Validates `options.maxTokens` and returns it (Infinity when absent). */
export function tokenLimit(options: EncodeOptions | undefined): number {
  const max = options?.maxTokens;
  if (max === undefined) return Infinity;
  if (!Number.isInteger(max) || max < 0) {
    throw new Error(`maxTokens must be a non-negative integer, got ${String(max)}`);
  }
  return max;
}
