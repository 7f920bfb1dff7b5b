// Tokenizers: the words/CJK default, GPT-2 byte-level BPE, and a model's own tokenizer.json.
// Pure TypeScript (no vscode, DOM or node imports). Importing this module loads no vocabulary: GPT-2's is
// imported on the first createTokenizer({kind: 'gpt2'}).

import { createGpt2Tokenizer } from './gpt2';
import { tokenizerFromJson } from './hf/tokenizer';
import type { Tokenizer, TokenizerSpec } from './types';
import { wordsTokenizer } from './words';

export type { DecodeOptions, EncodeOptions, Token, Tokenizer, TokenizerSpec } from './types';
export { tokenizeWords, wordsTokenizer } from './words';
export { tokenizerFromJson } from './hf/tokenizer';
export { createGpt2Tokenizer } from './gpt2';
export { displayBytes, displayText } from './display';

/** One factory for every tokenizer. Rejects with an Error naming the problem for a bad spec or tokenizer.json. */
export async function createTokenizer(spec: TokenizerSpec): Promise<Tokenizer> {
  if (typeof spec !== 'object' || spec === null) throw new Error(`createTokenizer: spec must be an object, got ${String(spec)}`);
  switch (spec.kind) {
    case 'words':
      return wordsTokenizer;
    case 'gpt2':
      return createGpt2Tokenizer();
    case 'tokenizer-json':
      if (typeof spec.json !== 'string' && (typeof spec.json !== 'object' || spec.json === null)) {
        throw new Error('createTokenizer: spec.json must be the text or the parsed object of a tokenizer.json');
      }
      return tokenizerFromJson(spec.json, spec.name);
    default:
      throw new Error(`createTokenizer: unknown kind ${JSON.stringify((spec as { kind?: unknown }).kind)} (expected 'words', 'gpt2' or 'tokenizer-json')`);
  }
}
