// The modern checkpoint families' fixtures (test/fixtures/modern/<family>/: what HF save_pretrained writes,
// plus expected.json from the eager forward of transformers 5.12.1): folder files and the oracle.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonTensor } from '../helpers/fixtures';

export const MODERN_DIR = join(__dirname, '..', '..', 'fixtures', 'modern');

export const DECODER_FIXTURES = ['llama', 'qwen2', 'qwen3', 'mistral', 'gemma2', 'gemma3', 'phi3'] as const;
export const ENCODER_FIXTURES = ['roberta', 'xlm_roberta'] as const;

export interface ModernExpected {
  family: string;
  model_class: string;
  texts: string[];
  input_ids: number[][];
  attention_mask: number[][];
  expected: {
    attentions: JsonTensor; // [n_layer, batch, heads, T, T]
    hidden_states: JsonTensor; // [n_layer + 1, batch, T, E]
    logits?: JsonTensor; // [batch, T, V]
    last_hidden_state?: JsonTensor; // [batch, T, E]
  };
}

export function modernPath(family: string, file = ''): string {
  return join(MODERN_DIR, family, file);
}

export function modernFile(family: string, file: string): Uint8Array {
  return new Uint8Array(readFileSync(modernPath(family, file)));
}

export function modernText(family: string, file: string): string {
  return readFileSync(modernPath(family, file), 'utf8');
}

const cache = new Map<string, ModernExpected>();
export function modernExpected(family: string): ModernExpected {
  if (!cache.has(family)) cache.set(family, JSON.parse(modernText(family, 'expected.json')));
  return cache.get(family)!;
}
