// GPT-2 (HF GPT2Model / GPT2LMHeadModel names) on the engine. Per block, with h the residual stream (T, E):
//   a = LN1(h);  qkv = a·c_attn.weight + c_attn.bias          Conv1D: weight [E, 3E] = [in, out], no transpose
//   q, k, v = qkv split into thirds, each split into heads      (H, T, hd); head h uses columns h·hd..
//   P = softmax(q·kᵀ/√hd + causal);  o = merge(P·v)·c_proj.weight + c_proj.bias;  h += o
//   m = act(LN2(h)·c_fc.weight + c_fc.bias)·mlp.c_proj.weight + mlp.c_proj.bias;  h += m   (act = gelu_new)
// then last_hidden = ln_f(h) and logits = last_hidden·wteᵀ (lm_head tied to wte unless the file has its own).
import { type Tensor, gatherRows, layerNorm, linear } from '../engine';
import type { ModelInfo, TokenInfo } from '../protocol/engine';
import { type ActivationName, activateInPlace, checkActivation } from './activations';
import { type ConfigObject, configBoolean, configNonNegative, configPositiveInt, configString, resolveHeads } from './config';
import { checkLength, forwardResult, type LayerAttention, tokenIds } from './forward-result';
import { conv1d, mergeHeads, sliceColumns, splitHeads } from './layers';
import { addInPlace } from './row-loops';
import { attendLayer, maskSpec, shouldMaterialise } from './lazy-attention';
import { countParameters, formatCount, ParamReader } from './params';
import type { AttentionModel, ForwardOptions, ForwardResult, MaskSpec, TokenizerChoice } from './types';
import { ENGINE_PROGRESS } from '../protocol/engine-progress';
import { msg, type MessageParts } from '../protocol/message';
import { checkpointSummary, countOf, describedAs, MODEL_TEXT, sentences } from './model-text';
import { MODEL_ERRORS, modelError } from './errors';

export interface Gpt2Config {
  nLayer: number;
  nHead: number;
  nEmbd: number;
  nInner: number;
  vocabSize: number;
  nPositions: number;
  layerNormEpsilon: number;
  activation: ActivationName;
  /** Divide the scores by √hd (HF scale_attn_weights, default true). */
  scaleAttnWeights: boolean;
  /** Also divide layer l's scores by l + 1 (HF scale_attn_by_inverse_layer_idx, default false). */
  scaleByInverseLayerIdx: boolean;
  /** Where nHead came from (config.json or the default rule), for ModelInfo.detail. */
  headsSource: MessageParts;
}

interface Gpt2Block {
  ln1: { weight: Tensor; bias: Tensor };
  cAttn: { weight: Tensor; bias: Tensor }; // [E, 3E], [3E]
  attnProj: { weight: Tensor; bias: Tensor }; // [E, E], [E]
  ln2: { weight: Tensor; bias: Tensor };
  fc: { weight: Tensor; bias: Tensor }; // [E, inner], [inner]
  mlpProj: { weight: Tensor; bias: Tensor }; // [inner, E], [E]
}

export interface Gpt2Weights {
  wte: Tensor; // [V, E]
  wpe: Tensor; // [P, E]
  blocks: Gpt2Block[];
  lnF: { weight: Tensor; bias: Tensor };
  /** [V, E] when the file has its own lm_head.weight; logits use wte otherwise (tied). */
  lmHead?: Tensor;
}

export interface Gpt2Checkpoint {
  config: Gpt2Config;
  weights: Gpt2Weights;
}

/** Names that identify a GPT-2 checkpoint (after the prefix). */
export const GPT2_MARKERS = ['wte.weight', 'h.0.attn.c_attn.weight'] as const;

/** Number of blocks h.0 … h.{n-1}, counted from the c_attn weights; throws when the numbering has a gap. */
function countBlocks(tensors: Map<string, Tensor>, prefix: string, fileName: string): number {
  const found = new Set<number>();
  const pattern = /^h\.(\d+)\.attn\.c_attn\.weight$/;
  for (const name of tensors.keys()) {
    if (!name.startsWith(prefix)) continue;
    const m = pattern.exec(name.slice(prefix.length));
    if (m) found.add(Number(m[1]));
  }
  const n = found.size;
  for (let i = 0; i < n; i++) {
    if (!found.has(i)) throw modelError(MODEL_ERRORS.blocksMissing, fileName, [...found].sort((a, b) => a - b).join(', '), i);
  }
  return n;
}

/**
 * Reads and shape-checks a GPT-2 checkpoint whose names start with `prefix` ('' or 'transformer.'), with
 * the settings of config.json when given (n_head, layer_norm_epsilon, activation_function, ...).
 */
export function readGpt2(
  tensors: Map<string, Tensor>,
  prefix: string,
  config: ConfigObject | undefined,
  fileName: string,
  configName = 'config.json',
): Gpt2Checkpoint {
  const p = new ParamReader(tensors, prefix, fileName, msg(MODEL_ERRORS.aGpt2Checkpoint));
  const wte = p.get('wte.weight', [null, null]);
  const vocabSize = p.dim('wte.weight', wte, 0);
  const nEmbd = p.dim('wte.weight', wte, 1);
  const wpe = p.get('wpe.weight', [null, nEmbd]);
  const nPositions = p.dim('wpe.weight', wpe, 0);
  const nLayer = countBlocks(tensors, prefix, fileName);
  const cfgLayers = configPositiveInt(config, ['n_layer', 'num_hidden_layers'], configName);
  if (cfgLayers !== undefined && cfgLayers !== nLayer) {
    throw modelError(MODEL_ERRORS.gpt2Layers, configName, cfgLayers, fileName, nLayer);
  }
  const cfgEmbd = configPositiveInt(config, ['n_embd', 'hidden_size'], configName);
  if (cfgEmbd !== undefined && cfgEmbd !== nEmbd) {
    throw modelError(MODEL_ERRORS.gpt2Embd, configName, cfgEmbd, fileName, vocabSize, nEmbd);
  }
  const heads = resolveHeads(config, ['n_head', 'num_attention_heads'], nEmbd, configName);
  const nInner = p.dim('h.0.mlp.c_fc.weight', p.get('h.0.mlp.c_fc.weight', [nEmbd, null]), 1);
  const cfgInner = configPositiveInt(config, ['n_inner'], configName);
  if (cfgInner !== undefined && cfgInner !== nInner) {
    throw modelError(MODEL_ERRORS.gpt2Inner, configName, cfgInner, fileName, nInner);
  }
  const activationName = configString(config, ['activation_function'], configName) ?? 'gelu_new';
  const norm = (name: string) => ({ weight: p.get(`${name}.weight`, [nEmbd]), bias: p.get(`${name}.bias`, [nEmbd]) });
  const affine = (name: string, inF: number, outF: number) => ({ weight: p.get(`${name}.weight`, [inF, outF]), bias: p.get(`${name}.bias`, [outF]) });
  const blocks: Gpt2Block[] = [];
  for (let i = 0; i < nLayer; i++) {
    blocks.push({
      ln1: norm(`h.${i}.ln_1`),
      cAttn: affine(`h.${i}.attn.c_attn`, nEmbd, 3 * nEmbd),
      attnProj: affine(`h.${i}.attn.c_proj`, nEmbd, nEmbd),
      ln2: norm(`h.${i}.ln_2`),
      fc: affine(`h.${i}.mlp.c_fc`, nEmbd, nInner),
      mlpProj: affine(`h.${i}.mlp.c_proj`, nInner, nEmbd),
    });
  }
  // GPT2LMHeadModel files may carry lm_head.weight next to the 'transformer.' prefix (usually equal to wte).
  const lmName = prefix.endsWith('transformer.') ? prefix.slice(0, -'transformer.'.length) + 'lm_head.weight' : prefix + 'lm_head.weight';
  const lmHead = tensors.get(lmName);
  if (lmHead && (lmHead.shape.length !== 2 || lmHead.shape[1] !== nEmbd)) {
    throw modelError(MODEL_ERRORS.gpt2LmHead, fileName, lmName, `[${lmHead.shape.join(', ')}]`, nEmbd);
  }
  return {
    config: {
      nLayer,
      nHead: heads.nHead,
      nEmbd,
      nInner,
      vocabSize,
      nPositions,
      layerNormEpsilon: configNonNegative(config, ['layer_norm_epsilon'], configName) ?? 1e-5,
      activation: checkActivation(activationName, configName),
      scaleAttnWeights: configBoolean(config, ['scale_attn_weights'], configName) ?? true,
      scaleByInverseLayerIdx: configBoolean(config, ['scale_attn_by_inverse_layer_idx'], configName) ?? false,
      headsSource: heads.source,
    },
    weights: { wte, wpe, blocks, lnF: norm('ln_f'), lmHead },
  };
}

export interface Gpt2RunOptions extends ForwardOptions {
  /** Also compute the logits (T, V) — a V×E product, skipped unless asked (attention does not need it). */
  logits?: boolean;
}

export interface Gpt2Outputs {
  /** (T, E): wte[ids] + wpe[0..T-1]. */
  embeddings: Tensor;
  layers: LayerAttention[];
  /** Per layer (T, E): the attention output after c_proj, before the residual add. */
  attnOutputs: Tensor[];
  /** Per layer (T, E): the residual stream after the block (before ln_f). */
  blockOutputs: Tensor[];
  /** (T, E): ln_f of the last block's output. */
  lastHidden: Tensor;
  /** (T, V), when asked. */
  logits?: Tensor;
  /** The mask applied in every layer: causal, plus padded keys when an attention mask was given. */
  mask: MaskSpec;
}

/**
 * Runs GPT-2 on `ids` (one sequence). Awaits `options.checkpoint` between blocks. Short runs keep every
 * layer's probabilities; long ones (options.materialiseBytes) run each layer tiled and keep q, k, v only.
 */
export async function gpt2Forward(checkpoint: Gpt2Checkpoint, ids: readonly number[], options: Gpt2RunOptions = {}): Promise<Gpt2Outputs> {
  const { config: c, weights: w } = checkpoint;
  const T = ids.length;
  checkLength(T, c.nPositions, 'GPT-2');
  const E = c.nEmbd;
  const hd = E / c.nHead;
  const positions = Array.from({ length: T }, (_, i) => i);
  const embeddings = gatherRows(w.wte, ids); // (T, E)
  addInPlace(embeddings.data, gatherRows(w.wpe, positions).data);
  const mask = maskSpec(T, { causal: true, attentionMask: options.attentionMask });
  const materialise = shouldMaterialise(c.nLayer, c.nHead, T, options.materialiseBytes);
  const h = new Float32Array(embeddings.data); // residual stream (T, E)
  const layers: LayerAttention[] = [];
  const attnOutputs: Tensor[] = [];
  const blockOutputs: Tensor[] = [];
  const eps = c.layerNormEpsilon;
  for (let l = 0; l < c.nLayer; l++) {
    await options.checkpoint?.();
    const b = w.blocks[l];
    if (b === undefined) throw new Error(`GPT-2: block ${l} is missing (${w.blocks.length} blocks read for ${c.nLayer} layers)`);
    const hT = { data: h, shape: [T, E] };
    const a = layerNorm(hT, { weight: b.ln1.weight, bias: b.ln1.bias, eps }); // (T, E)
    const qkv = conv1d(a, b.cAttn.weight, b.cAttn.bias, `GPT-2 h.${l}.attn.c_attn`); // (T, 3E)
    const q = splitHeads(sliceColumns(qkv, 0, E), c.nHead); // (H, T, hd)
    const k = splitHeads(sliceColumns(qkv, E, E), c.nHead); // (H, T, hd)
    const v = splitHeads(sliceColumns(qkv, 2 * E, E), c.nHead); // (H, T, hd)
    let scale = c.scaleAttnWeights ? 1 / Math.sqrt(hd) : 1;
    if (c.scaleByInverseLayerIdx) scale /= l + 1;
    const { context, probs } = await attendLayer(q, k, v, { mask, scale, materialise, needContext: true, checkpoint: options.checkpoint }); // (H, T, hd), (H, T, T) | undefined
    layers.push({ q, k, v, scale, probs });
    const o = conv1d(mergeHeads(context!), b.attnProj.weight, b.attnProj.bias, `GPT-2 h.${l}.attn.c_proj`); // (T, E)
    attnOutputs.push(o);
    addInPlace(h, o.data);
    const m = conv1d(layerNorm(hT, { weight: b.ln2.weight, bias: b.ln2.bias, eps }), b.fc.weight, b.fc.bias, `GPT-2 h.${l}.mlp.c_fc`); // (T, inner)
    activateInPlace(m.data, c.activation);
    addInPlace(h, conv1d(m, b.mlpProj.weight, b.mlpProj.bias, `GPT-2 h.${l}.mlp.c_proj`).data); // (T, E)
    blockOutputs.push({ data: new Float32Array(h), shape: [T, E] });
    options.progress?.((l + 1) / c.nLayer, msg(ENGINE_PROGRESS.gpt2Block, l + 1, c.nLayer));
  }
  const lastHidden = layerNorm({ data: h, shape: [T, E] }, { weight: w.lnF.weight, bias: w.lnF.bias, eps }); // (T, E)
  const outputs: Gpt2Outputs = { embeddings, layers, attnOutputs, blockOutputs, lastHidden, mask };
  if (options.logits) outputs.logits = linear(lastHidden, w.lmHead ?? w.wte, undefined, 'GPT-2 lm_head'); // (T, V)
  return outputs;
}

export interface Gpt2ModelOptions {
  fileName: string;
  prefix: string;
  tensors: Map<string, Tensor>;
  config?: ConfigObject;
  configName?: string;
  tokenizerJson?: string;
}

/** The AttentionModel of a GPT-2 checkpoint: causal, GPT-2 byte-level BPE unless a tokenizer.json is given. */
export function createGpt2Model(options: Gpt2ModelOptions): AttentionModel {
  const { fileName, prefix, tensors } = options;
  const checkpoint = readGpt2(tensors, prefix, options.config, fileName, options.configName);
  const c = checkpoint.config;
  const tokenizer: TokenizerChoice = options.tokenizerJson !== undefined ? { kind: 'tokenizer-json', json: options.tokenizerJson } : { kind: 'gpt2' };
  const params = countParameters(tensors, prefix);
  const info: ModelInfo = {
    family: 'gpt2',
    ...describedAs(
      msg(MODEL_TEXT.checkpointName, 'GPT-2', fileName, countOf(c.nLayer, 'layer'), countOf(c.nHead, 'head'), c.nEmbd),
      sentences(
        checkpointSummary(fileName, 'GPT-2', prefix, formatCount(params), tensors.size),
        msg(
          MODEL_TEXT.gpt2Shape,
          countOf(c.nLayer, 'block'),
          c.nEmbd,
          countOf(c.nHead, 'head'),
          c.nEmbd / c.nHead,
          c.headsSource,
          c.nInner,
          c.activation,
          String(c.layerNormEpsilon),
        ),
        msg(
          MODEL_TEXT.gpt2Attention,
          c.vocabSize,
          c.nPositions,
          msg(
            c.scaleAttnWeights
              ? c.scaleByInverseLayerIdx
                ? MODEL_TEXT.scaledByLayer
                : MODEL_TEXT.scaled
              : c.scaleByInverseLayerIdx
                ? MODEL_TEXT.unscaledByLayer
                : MODEL_TEXT.unscaled,
          ),
        ),
        msg(tokenizer.kind === 'gpt2' ? MODEL_TEXT.tokenizerGpt2 : MODEL_TEXT.tokenizerJson),
      ),
    ),
    nLayer: c.nLayer,
    nHead: c.nHead,
    dModel: c.nEmbd,
    headDim: c.nEmbd / c.nHead,
    causal: true,
    tokenizer: tokenizer.kind === 'gpt2' ? 'gpt2' : 'tokenizer.json',
    vocabSize: c.vocabSize,
    maxPositions: c.nPositions,
  };
  return {
    info,
    tokenizer,
    async forward(tokens: TokenInfo[], forwardOptions: ForwardOptions = {}): Promise<ForwardResult> {
      const ids = tokenIds(tokens, c.vocabSize, 'GPT-2', msg(MODEL_ERRORS.gpt2NeedsIds));
      const out = await gpt2Forward(checkpoint, ids, forwardOptions);
      return forwardResult(out.layers, c.nHead, ids.length, out.mask, 'GPT-2');
    },
  };
}
