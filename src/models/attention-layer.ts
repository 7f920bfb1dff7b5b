// A bare attention layer's weights (an nn.MultiheadAttention state_dict, or separate q/k/v projections) run
// on seeded token embeddings: the checkpoint has no vocabulary, so each distinct token gets a row of
// torch.manual_seed(seed); torch.randn(n_distinct, E), in first-seen order — the embeddings recipe of the
// seeded model (src/engine/random/seeded-attention.ts), so a seed gives the same inputs there and here.
//   q, k, v = x·W_{q,k,v}ᵀ + b, split into heads                   (H, T, hd)
//   P = softmax(q·kᵀ/√hd + mask)                                    nn.MultiheadAttention's scale
// The output projection is not needed for the attention weights; it is checked when present.
import { type BoolTensor, type Tensor, formatShape } from '../engine';
import { firstSeenIds, TorchGenerator } from '../engine/random';
import type { ModelInfo, TokenInfo } from '../protocol/engine';
import { type ConfigObject, resolveHeads } from './config';
import { forwardResult, type LayerAttention } from './forward-result';
import { attendAllHeads, linearToHeads } from './layers';
import { attendLayer, maskSpec, shouldMaterialise } from './lazy-attention';
import { ParamReader } from './params';
import type { AttentionModel, ForwardOptions, ForwardResult } from './types';
import { ENGINE_PROGRESS } from '../protocol/engine-progress';
import { msg, type MessageParts } from '../protocol/message';
import { countOf, describedAs, MODEL_TEXT, sentences } from './model-text';
import { MODEL_ERRORS, modelError } from './errors';

/** How the projections are stored, with their names relative to the layer's prefix. */
interface LayerLayout {
  /** For the model's description. */
  description: MessageParts;
  /** Packed [3D, E] in_proj_weight (rows W_q; W_k; W_v), or separate [D, E] matrices. */
  packed?: { weight: string; bias: string };
  separate?: { q: string; k: string; v: string; biases: [string, string, string] | { packedBias: string } };
  out: readonly string[];
  outBias: readonly string[];
}

const LAYOUTS: readonly LayerLayout[] = [
  {
    description: msg(MODEL_TEXT.layoutInProj),
    packed: { weight: 'in_proj_weight', bias: 'in_proj_bias' },
    out: ['out_proj.weight'],
    outBias: ['out_proj.bias'],
  },
  {
    description: msg(MODEL_TEXT.layoutSeparate),
    separate: { q: 'q_proj_weight', k: 'k_proj_weight', v: 'v_proj_weight', biases: { packedBias: 'in_proj_bias' } },
    out: ['out_proj.weight'],
    outBias: ['out_proj.bias'],
  },
  {
    description: msg(MODEL_TEXT.layoutProj),
    separate: { q: 'q_proj.weight', k: 'k_proj.weight', v: 'v_proj.weight', biases: ['q_proj.bias', 'k_proj.bias', 'v_proj.bias'] },
    out: ['out_proj.weight', 'o_proj.weight'],
    outBias: ['out_proj.bias', 'o_proj.bias'],
  },
  {
    description: msg(MODEL_TEXT.layoutQueryKeyValue),
    separate: { q: 'query.weight', k: 'key.weight', v: 'value.weight', biases: ['query.bias', 'key.bias', 'value.bias'] },
    out: ['out_proj.weight', 'o_proj.weight', 'out.weight'],
    outBias: ['out_proj.bias', 'o_proj.bias', 'out.bias'],
  },
  {
    description: msg(MODEL_TEXT.layoutUpperW),
    separate: { q: 'W_q', k: 'W_k', v: 'W_v', biases: ['b_q', 'b_k', 'b_v'] },
    out: ['W_o'],
    outBias: ['b_o'],
  },
  {
    description: msg(MODEL_TEXT.layoutLowerW),
    separate: { q: 'w_q', k: 'w_k', v: 'w_v', biases: ['b_q', 'b_k', 'b_v'] },
    out: ['w_o'],
    outBias: ['b_o'],
  },
];

/** Names (after the prefix) that mark an attention layer, for the "no family matched" message. */
export const ATTENTION_LAYER_MARKERS = ['in_proj_weight', 'q_proj.weight', 'query.weight', 'W_q'] as const;

export interface FoundAttentionLayer {
  prefix: string;
  layout: LayerLayout;
  /** Every prefix with a complete layer, sorted (the first is used). */
  allPrefixes: string[];
}

/** The attention layers in the file (q, k and v all present), the first one by name; null when none. */
export function findAttentionLayer(tensors: Map<string, Tensor>): FoundAttentionLayer | null {
  for (const layout of LAYOUTS) {
    const qName = layout.packed?.weight ?? layout.separate!.q;
    const prefixes: string[] = [];
    for (const name of tensors.keys()) {
      if (!name.endsWith(qName)) continue;
      const prefix = name.slice(0, name.length - qName.length);
      if (prefix !== '' && !prefix.endsWith('.')) continue; // 'xin_proj_weight' is not ours
      if (layout.separate && !(tensors.has(prefix + layout.separate.k) && tensors.has(prefix + layout.separate.v))) continue;
      prefixes.push(prefix);
    }
    prefixes.sort();
    const first = prefixes[0];
    if (first !== undefined) return { prefix: first, layout, allPrefixes: prefixes };
  }
  // A file holding one [3E, E] matrix under any name (a .npy is named after the file) is an in_proj_weight.
  const [only] = tensors.size === 1 ? [...tensors] : [];
  if (only !== undefined) {
    const [name, t] = only;
    const [rows, cols] = t.shape;
    if (t.shape.length === 2 && cols !== undefined && cols > 0 && rows === 3 * cols) {
      const layout: LayerLayout = {
        description: msg(MODEL_TEXT.layoutSingleMatrix, name),
        packed: { weight: name, bias: `${name}.bias` },
        out: [],
        outBias: [],
      };
      return { prefix: '', layout, allPrefixes: [''] };
    }
  }
  return null;
}

export interface AttentionLayerWeights {
  /** Model (input) width E: the embeddings' width. */
  embedDim: number;
  /** Projection width D (= E for nn.MultiheadAttention); split into nHead heads. */
  projDim: number;
  nHead: number;
  q: { weight: Tensor; bias?: Tensor }; // [D, E], [D]
  k: { weight: Tensor; bias?: Tensor };
  v: { weight: Tensor; bias?: Tensor };
  hasOutProj: boolean;
  headsSource: MessageParts;
  /** True when the number of heads is the default rule's guess. */
  headsAssumed: boolean;
}

function subTensor(t: Tensor, part: number, rows: number): Tensor {
  const width = t.shape.length === 2 ? (t.shape[1] ?? 1) : 1;
  const data = t.data.subarray(part * rows * width, (part + 1) * rows * width);
  return { data, shape: t.shape.length === 2 ? [rows, width] : [rows] };
}

/** Reads and shape-checks the layer at `found.prefix`. */
export function readAttentionLayer(
  tensors: Map<string, Tensor>,
  found: FoundAttentionLayer,
  config: ConfigObject | undefined,
  fileName: string,
  configName = 'config.json',
): AttentionLayerWeights {
  const p = new ParamReader(tensors, found.prefix, fileName, msg(MODEL_ERRORS.anAttentionLayer));
  const { layout } = found;
  let q: AttentionLayerWeights['q'];
  let k: AttentionLayerWeights['k'];
  let v: AttentionLayerWeights['v'];
  if (layout.packed) {
    const w = p.get(layout.packed.weight, [null, null]); // [3D, E]
    const rows = p.dim(layout.packed.weight, w, 0);
    if (rows % 3 !== 0) throw modelError(MODEL_ERRORS.packedRows, fileName, p.fullName(layout.packed.weight), rows);
    const D = rows / 3;
    const b = p.optional(layout.packed.bias, [3 * D]);
    const part = (i: number) => ({ weight: subTensor(w, i, D), bias: b ? subTensor(b, i, D) : undefined });
    [q, k, v] = [part(0), part(1), part(2)];
  } else {
    const s = layout.separate!;
    const wq = p.get(s.q, [null, null]);
    const D = p.dim(s.q, wq, 0);
    const E = p.dim(s.q, wq, 1);
    const wk = p.get(s.k, [D, E]);
    const wv = p.get(s.v, [D, E]);
    let biases: Array<Tensor | undefined>;
    if (Array.isArray(s.biases)) {
      biases = s.biases.map((name) => p.optional(name, [D]));
    } else {
      const packedBias = p.optional(s.biases.packedBias, [3 * D]);
      biases = [0, 1, 2].map((part) => (packedBias ? subTensor(packedBias, part, D) : undefined));
    }
    q = { weight: wq, bias: biases[0] };
    k = { weight: wk, bias: biases[1] };
    v = { weight: wv, bias: biases[2] };
  }
  const [D, E] = q.weight.shape;
  if (D === undefined || E === undefined) throw new Error(`${fileName}: the query weight has shape ${formatShape(q.weight.shape)}, not [D, E]`);
  const out = p.optionalAny(layout.out, [null, D]);
  p.optionalAny(layout.outBias, [out?.shape[0] ?? null]);
  const heads = resolveHeads(config, ['num_heads', 'num_attention_heads', 'n_head'], D, configName);
  return { embedDim: E, projDim: D, nHead: heads.nHead, q, k, v, hasOutProj: out !== undefined, headsSource: heads.source, headsAssumed: heads.assumed };
}

/** Every head's q, k, v (H, T, hd) of the layer on inputs x (T, E), and the scale nn.MultiheadAttention applies. */
export function attentionLayerProjections(w: AttentionLayerWeights, x: Tensor): { q: Tensor; k: Tensor; v: Tensor; scale: number } {
  const q = linearToHeads(x, w.q.weight, w.q.bias, w.nHead, 'attention layer q'); // (H, T, hd)
  const k = linearToHeads(x, w.k.weight, w.k.bias, w.nHead, 'attention layer k'); // (H, T, hd)
  const v = linearToHeads(x, w.v.weight, w.v.bias, w.nHead, 'attention layer v'); // (H, T, hd)
  return { q, k, v, scale: 1 / Math.sqrt(w.projDim / w.nHead) };
}

/** The layer on inputs x (T, E): every head's q, k, v and probabilities under `allowed` (T, T), True = may attend. */
export function attentionLayerForward(w: AttentionLayerWeights, x: Tensor, allowed: BoolTensor | undefined): LayerAttention & { probs: Tensor } {
  const { q, k, v, scale } = attentionLayerProjections(w, x);
  const { probs } = attendAllHeads(q, k, v, allowed, scale); // (H, T, T)
  return { q, k, v, scale, probs };
}

/** torch.manual_seed(seed); emb = torch.randn(n_distinct, E); x = emb[first-seen ids] → (T, E). */
export function seededEmbeddings(seed: number, width: number, tokens: ReadonlyArray<string | number>): Tensor {
  const { ids, distinct } = firstSeenIds(tokens);
  const emb = new TorchGenerator(seed).randn(distinct.length, width); // (V, E)
  const x = new Float32Array(ids.length * width); // (T, E)
  ids.forEach((id, t) => x.set(emb.data.subarray(id * width, (id + 1) * width), t * width));
  return { data: x, shape: [ids.length, width] };
}

export interface AttentionLayerModelOptions {
  fileName: string;
  tensors: Map<string, Tensor>;
  found: FoundAttentionLayer;
  config?: ConfigObject;
  configName?: string;
  seed: number;
}

/** The AttentionModel of a bare attention layer: words tokenizer, seeded embeddings, optional causal/padding masks. */
export function createAttentionLayerModel(options: AttentionLayerModelOptions): AttentionModel {
  const { fileName, found, seed } = options;
  const w = readAttentionLayer(options.tensors, found, options.config, fileName, options.configName);
  const hd = w.projDim / w.nHead;
  const others = found.allPrefixes.length - 1;
  const info: ModelInfo = {
    family: 'attention-layer',
    ...describedAs(
      msg(MODEL_TEXT.attentionLayerName, fileName, countOf(w.nHead, 'head'), w.embedDim),
      sentences(
        found.prefix
          ? msg(
              MODEL_TEXT.attentionLayerAt,
              fileName,
              found.prefix.slice(0, -1),
              found.layout.description,
              w.embedDim,
              countOf(w.nHead, 'head'),
              hd,
              w.headsSource,
            )
          : msg(MODEL_TEXT.attentionLayer, fileName, found.layout.description, w.embedDim, countOf(w.nHead, 'head'), hd, w.headsSource),
        ...(others > 0
          ? [msg(others > 1 ? MODEL_TEXT.moreLayers : MODEL_TEXT.moreLayer, others, `${found.allPrefixes.slice(1, 4).join(', ')}${others > 3 ? ', …' : ''}`)]
          : []),
        msg(MODEL_TEXT.seededEmbeddings, seed, w.embedDim),
        ...(w.hasOutProj ? [] : [msg(MODEL_TEXT.noOutProj)]),
      ),
    ),
    nLayer: 1,
    nHead: w.nHead,
    headsAssumed: w.headsAssumed,
    dModel: w.embedDim,
    headDim: hd,
    causal: false,
    tokenizer: 'words',
  };
  return {
    info,
    tokenizer: { kind: 'words' },
    async forward(tokens: TokenInfo[], forwardOptions: ForwardOptions = {}): Promise<ForwardResult> {
      const T = tokens.length;
      if (T === 0) throw new Error('attention layer: there are no tokens to inspect');
      const x = seededEmbeddings(
        seed,
        w.embedDim,
        tokens.map((t) => t.text),
      ); // (T, E)
      await forwardOptions.checkpoint?.();
      const mask = maskSpec(T, forwardOptions);
      const { q, k, v, scale } = attentionLayerProjections(w, x);
      // One layer whose output nobody reads: the tiled path has nothing to compute until weights are asked for.
      const materialise = shouldMaterialise(1, w.nHead, T, forwardOptions.materialiseBytes);
      const { probs } = await attendLayer(q, k, v, { mask, scale, materialise, needContext: false, checkpoint: forwardOptions.checkpoint });
      forwardOptions.progress?.(1, msg(ENGINE_PROGRESS.attentionComputed));
      return forwardResult([{ q, k, v, scale, probs }], w.nHead, T, mask, 'attention layer');
    },
  };
}
