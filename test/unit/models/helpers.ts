// Shared by the model tests: fixture checkpoints as tensor maps, slices of fixture tensors, and an
// independent (plain loops, float64) softmax attention to check headInputs against.
import type { Tensor } from '../../../src/engine/tensor';
import type { TokenInfo } from '../../../src/protocol/engine';
import { readTensors } from '../../../src/weights';
import { loadFixtureBytes, toFloat, type JsonTensor } from '../helpers/fixtures';

export async function fixtureTensors(file: string): Promise<Map<string, Tensor>> {
  return readTensors(loadFixtureBytes(file), file);
}

/** The sub-tensor at leading indices `index` of a fixture tensor (e.g. attentions[l, 0]). */
export function fixtureSlice(json: JsonTensor, index: number[]): Tensor {
  const t = toFloat(json);
  const rest = t.shape.slice(index.length);
  const size = rest.reduce((p, d) => p * d, 1);
  let offset = 0;
  index.forEach((i, d) => {
    offset = offset * t.shape[d] + i;
  });
  offset *= size;
  return { data: t.data.subarray(offset, offset + size), shape: rest };
}

/** Tokens carrying only ids (what the session builds for --ids). */
export function idTokens(ids: readonly number[]): TokenInfo[] {
  return ids.map((id) => ({ text: String(id), display: String(id), start: 0, end: 0, id }));
}

/** Tokens of words without ids (the words tokenizer). */
export function wordTokens(words: readonly string[]): TokenInfo[] {
  let at = 0;
  return words.map((w) => {
    const t = { text: w, display: w, start: at, end: at + w.length };
    at += w.length + 1;
    return t;
  });
}

/** softmax(q·kᵀ·scale) over allowed keys (all when `allowed` is undefined), float64, row = query: (T, S). */
export function referenceProbs(q: Tensor, k: Tensor, scale: number, allowed?: Uint8Array): Float64Array {
  const [T, d] = q.shape;
  const S = k.shape[0];
  const out = new Float64Array(T * S);
  for (let i = 0; i < T; i++) {
    let max = -Infinity;
    const row = new Float64Array(S);
    for (let j = 0; j < S; j++) {
      if (allowed && !allowed[i * S + j]) {
        row[j] = -Infinity;
        continue;
      }
      let s = 0;
      for (let c = 0; c < d; c++) s += q.data[i * d + c] * k.data[j * d + c];
      row[j] = s * scale;
      max = Math.max(max, row[j]);
    }
    let z = 0;
    for (let j = 0; j < S; j++) z += row[j] === -Infinity ? 0 : Math.exp(row[j] - max);
    for (let j = 0; j < S; j++) out[i * S + j] = row[j] === -Infinity ? 0 : Math.exp(row[j] - max) / z;
  }
  return out;
}

/** Renames every tensor to prefix + name (how GPT2LMHeadModel / BertFor... save their base model). */
export function withPrefix(tensors: Map<string, Tensor>, prefix: string): Map<string, Tensor> {
  return new Map([...tensors].map(([name, t]) => [prefix + name, t]));
}
