// Seeded self-attention weights that a user can reproduce in PyTorch: for a seed, a model width, a number of
// heads and a token list, draw token embeddings and the four projection matrices from a TorchGenerator in a
// fixed, documented order, and hand back the Python snippet that draws the very same numbers.
//
// The recipe (this order is part of the contract; `pythonSnippet` spells it out):
//   torch.manual_seed(seed)
//   emb = torch.randn(n_distinct_tokens, d_model)      # one row per distinct token, in first-seen order
//   W_q = torch.randn(d_model, d_model) / math.sqrt(d_model)
//   W_k = torch.randn(d_model, d_model) / math.sqrt(d_model)
//   W_v = torch.randn(d_model, d_model) / math.sqrt(d_model)
//   W_o = torch.randn(d_model, d_model) / math.sqrt(d_model)
//   x = emb[ids]                                        # (T, d_model)
//   in_proj_weight = cat([W_q, W_k, W_v]), out_proj.weight = W_o   (nn.MultiheadAttention, bias=False)
import type { Tensor } from '../tensor';
import { normalizeTorchSeed, TorchGenerator, type TorchSeed } from './torch-generator';

/** A token: its text (from a tokenizer) or an integer id. Equal tokens share one embedding row. */
export type SeededToken = string | number;

export interface SeededAttentionOptions {
  seed: TorchSeed;
  dModel: number;
  numHeads: number;
  tokens: readonly SeededToken[];
}

export interface SeededAttentionWeights {
  /** (T, dModel): the embedding row of each token, `emb[ids]`. */
  embeddings: Tensor;
  /** Length T: each token's index among the distinct tokens, numbered in first-seen order. */
  tokenIds: number[];
  /** (3·dModel, dModel): [W_q; W_k; W_v] stacked by rows, nn.MultiheadAttention's `in_proj_weight`. */
  inProjWeight: Tensor;
  /** (dModel, dModel): W_o, nn.MultiheadAttention's `out_proj.weight`. */
  outProjWeight: Tensor;
  numHeads: number;
  /** Python that reproduces every tensor above with PyTorch (and runs the attention layer on them). */
  pythonSnippet: string;
}

/** Upper bounds that keep one call's memory and time reasonable (4 · 4096² floats = 256 MiB is the most). */
export const SEEDED_ATTENTION_LIMITS = { maxDModel: 4096, maxTokens: 65536 } as const;

function checkPositiveInteger(name: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new Error(`seededAttentionWeights: ${name} must be a positive integer, got ${String(value)}`);
  }
  if (value > max) throw new Error(`seededAttentionWeights: ${name} must be at most ${max}, got ${value}`);
  return value;
}

/**
 * Numbers tokens by first occurrence. Strings and integers are accepted; a string and a number are different
 * tokens even if they print alike ("1" vs 1), as in Python.
 */
export function firstSeenIds(tokens: readonly SeededToken[]): { ids: number[]; distinct: SeededToken[] } {
  const index = new Map<SeededToken, number>();
  const ids: number[] = [];
  const distinct: SeededToken[] = [];
  tokens.forEach((tok, i) => {
    if (typeof tok !== 'string' && !(typeof tok === 'number' && Number.isSafeInteger(tok))) {
      throw new Error(`seededAttentionWeights: tokens[${i}] must be a string or a safe integer, got ${String(tok)}`);
    }
    const key = typeof tok === 'number' && Object.is(tok, -0) ? 0 : tok;
    let id = index.get(key);
    if (id === undefined) {
      id = distinct.length;
      index.set(key, id);
      distinct.push(key);
    }
    ids.push(id);
  });
  return { ids, distinct };
}

/**
 * Divides every element by sqrt(d) exactly as `tensor / math.sqrt(d)` does in float32 PyTorch on the CPU:
 * the Python float sqrt(d) (a correctly rounded float64) is converted to float32 when the scalar is promoted to
 * the tensor's dtype, and each element is then divided by it with one correctly rounded float32 division
 * (`div_true_kernel`, `a / b`; no multiplication by a reciprocal on the CPU for float32). In JS,
 * fround(a / b) of float32 a and b is that correctly rounded quotient.
 */
function divideBySqrtInPlace(data: Float32Array, d: number): void {
  const divisor = Math.fround(Math.sqrt(d));
  for (let i = 0; i < data.length; i++) data[i] = data[i] / divisor; // the Float32Array store rounds once
}

/** A Python list literal (JSON string and safe-integer literals are valid Python literals; JSON writes −0 as 0). */
function pythonList(values: readonly (string | number)[], perLine = 16): string {
  if (values.length === 0) return '[]';
  // U+2028/U+2029 are legal inside Python strings but some editors break lines at them: escape them too.
  const items = values.map((v) =>
    JSON.stringify(v)
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
  const lines: string[] = [];
  for (let i = 0; i < items.length; i += perLine) lines.push('    ' + items.slice(i, i + perLine).join(', ') + ',');
  return '[\n' + lines.join('\n') + '\n]';
}

function buildPythonSnippet(seed: TorchSeed, dModel: number, numHeads: number, tokens: readonly SeededToken[]): string {
  return [
    "# Reproduces Attention Inspector's seeded weights with PyTorch (float32, CPU). The draws are bit-identical",
    '# on x86-64 builds (AVX2 kernels); other CPUs draw tensors of 16 or more elements slightly differently.',
    'import math, torch',
    '',
    `seed, d_model, n_heads = ${seed}, ${dModel}, ${numHeads}`,
    `tokens = ${pythonList(tokens)}`,
    'vocab = list(dict.fromkeys(tokens))                  # distinct tokens, first-seen order',
    'index = {t: i for i, t in enumerate(vocab)}',
    'ids = [index[t] for t in tokens]                     # first-seen index of each token',
    '',
    'torch.manual_seed(seed)',
    'emb = torch.randn(len(vocab), d_model)               # one row per distinct token',
    'W_q = torch.randn(d_model, d_model) / math.sqrt(d_model)',
    'W_k = torch.randn(d_model, d_model) / math.sqrt(d_model)',
    'W_v = torch.randn(d_model, d_model) / math.sqrt(d_model)',
    'W_o = torch.randn(d_model, d_model) / math.sqrt(d_model)',
    'x = emb[ids]                                         # (T, d_model)',
    '',
    'mha = torch.nn.MultiheadAttention(d_model, n_heads, bias=False, batch_first=True)',
    'mha.in_proj_weight.data = torch.cat([W_q, W_k, W_v])',
    'mha.out_proj.weight.data = W_o',
    '',
    '# Per-head weights, (1, n_heads, T, T). For causal attention pass',
    '# attn_mask=torch.ones(len(ids), len(ids), dtype=torch.bool).triu(1).',
    'out, weights = mha(x[None], x[None], x[None], average_attn_weights=False)',
    '',
  ].join('\n');
}

/**
 * Draws the embeddings and projection weights of one seeded self-attention layer (see the recipe at the top
 * of this file). Throws an Error naming the argument for a bad seed, a non-positive or oversized dModel or
 * numHeads, a dModel that numHeads does not divide, or an empty or oversized token list.
 */
export function seededAttentionWeights(options: SeededAttentionOptions): SeededAttentionWeights {
  const { seed, tokens } = options;
  normalizeTorchSeed(seed, 'seededAttentionWeights: seed');
  const dModel = checkPositiveInteger('dModel', options.dModel, SEEDED_ATTENTION_LIMITS.maxDModel);
  const numHeads = checkPositiveInteger('numHeads', options.numHeads, dModel);
  if (dModel % numHeads !== 0) {
    throw new Error(`seededAttentionWeights: dModel (${dModel}) must be divisible by numHeads (${numHeads})`);
  }
  if (!Array.isArray(tokens) || tokens.length === 0) {
    throw new Error('seededAttentionWeights: tokens must be a non-empty array');
  }
  if (tokens.length > SEEDED_ATTENTION_LIMITS.maxTokens) {
    throw new Error(`seededAttentionWeights: at most ${SEEDED_ATTENTION_LIMITS.maxTokens} tokens, got ${tokens.length}`);
  }
  const { ids, distinct } = firstSeenIds(tokens);

  const gen = new TorchGenerator(seed);
  const emb = gen.randn(distinct.length, dModel); // (V, d)
  const dd = dModel * dModel;
  const inProj = new Float32Array(3 * dd); // (3d, d) = [W_q; W_k; W_v]
  for (let m = 0; m < 3; m++) {
    const w = inProj.subarray(m * dd, (m + 1) * dd); // (d, d)
    gen.fillNormal(w);
    divideBySqrtInPlace(w, dModel);
  }
  const outProj = gen.fillNormal(new Float32Array(dd)); // (d, d)
  divideBySqrtInPlace(outProj, dModel);

  const x = new Float32Array(ids.length * dModel); // (T, d) = emb[ids]
  ids.forEach((id, t) => x.set(emb.data.subarray(id * dModel, (id + 1) * dModel), t * dModel));

  return {
    embeddings: { data: x, shape: [ids.length, dModel] },
    tokenIds: ids,
    inProjWeight: { data: inProj, shape: [3 * dModel, dModel] },
    outProjWeight: { data: outProj, shape: [dModel, dModel] },
    numHeads,
    pythonSnippet: buildPythonSnippet(seed, dModel, numHeads, tokens),
  };
}
