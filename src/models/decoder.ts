// The RoPE decoders (HF LlamaForCausalLM and its relatives) on the engine, one sequence at a time. Per
// layer, with h the residual stream (T, E), as HF's eager forward computes it:
//   a = norm_in(h)
//   q = a·W_qᵀ (+b) → (H, T, hd);  k, v = a·W_{k,v}ᵀ (+b) → (H_kv, T, hd)       Phi-3: one fused qkv_proj
//   q, k = rmsnorm_head(q), rmsnorm_head(k)                                    Qwen3, Gemma 3
//   q, k = rope(q), rope(k)          positions 0..T−1, the layer's θ and scaling (Llama 3, Gemma 3 local)
//   P_h = softmax(mask(softcap(scale · q_h·k_gᵀ))),  g = the kv head of h      causal, padding, window
//   o = merge(P·v)·W_oᵀ;  o = norm_post_attn(o) (Gemma);  h += o
//   m = norm(h) → down(act(gate(m)) ⊙ up(m));  m = norm_post_ff(m) (Gemma);  h += m     Phi-3: fused gate_up
// then last_hidden = norm(h) and logits = last_hidden·W_lmᵀ (the embeddings when tied), Gemma 2 soft-capped.
// Embeddings are scaled by √E for Gemma. Weights are read from a TensorStore a layer at a time: bf16/f16
// checkpoints become float32 one layer at a time, and the vocabulary projection a block of rows at a time.
import { type Tensor, formatShape, getKernel, linear } from '../engine';
import type { ModelInfo, TokenInfo } from '../protocol/engine';
import type { StoredTensor, TensorStore } from '../weights/snapshot';
import { activateInPlace } from './activations';
import { type DecoderConfig, type DecoderFamily, FAMILY_LABEL, namedWithFamily, readDecoderConfig } from './decoder-config';
import type { ConfigObject } from './config';
import { checkLength, forwardResult, type LayerAttention, tokenIds } from './forward-result';
import { kvHeadMap } from './gqa';
import { groupedAttention } from './grouped-attention';
import { linearToHeads, mergeHeads, sliceColumns, splitHeads } from './layers';
import { addInPlace, multiplyInPlace, scaleInPlace } from './row-loops';
import { maskSpec, shouldMaterialise } from './lazy-attention';
import { formatCount } from './params';
import { rmsNorm, rmsNormInPlace } from './rms-norm';
import { applyRopeInPlace, ropeInverseFrequencies, type RopeSpec, ropeTables, type RopeTables } from '../engine/ops/rope';
import { softcapInPlace } from '../engine/ops/softcap';
import type { AttentionModel, ForwardOptions, ForwardResult, MaskSpec, TokenizerChoice } from './types';
import { ENGINE_PROGRESS } from '../protocol/engine-progress';
import { msg, type MessageArg, type MessageParts } from '../protocol/message';
import { concat, countOf, describedAs, MODEL_TEXT, sentences } from './model-text';
import { MODEL_ERRORS, modelError } from './errors';

/** Tensor names that identify a RoPE decoder (after its prefix, '' or 'model.'). */
export const DECODER_MARKERS = ['embed_tokens.weight', 'layers.0.self_attn.o_proj.weight'] as const;

/** The prefix ('' or 'model.', …) under which the store holds a decoder's layers, or undefined. */
export function decoderPrefix(names: Iterable<string>): string | undefined {
  const all = new Set(names);
  const found: string[] = [];
  for (const name of all) {
    if (!name.endsWith(DECODER_MARKERS[0])) continue;
    const prefix = name.slice(0, name.length - DECODER_MARKERS[0].length);
    if ((prefix === '' || prefix.endsWith('.')) && all.has(prefix + DECODER_MARKERS[1])) found.push(prefix);
  }
  return found.sort((a, b) => a.length - b.length)[0];
}

/** Reads float32 weights from a store, checking shapes; every message names the file and the tensor. */
class StoreReader {
  constructor(
    private readonly store: TensorStore,
    readonly prefix: string,
    private readonly label: string,
    private readonly what: MessageArg,
  ) {}

  stored(name: string, shape: readonly number[]): StoredTensor {
    const full = this.prefix + name;
    const t = this.store.get(full);
    if (!t) throw modelError(MODEL_ERRORS.decoderTensorMissing, this.label, full, this.what, `[${shape.join(', ')}]`);
    if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
      throw modelError(MODEL_ERRORS.decoderTensorShape, t.file, full, `[${t.shape.join(', ')}]`, this.what, `[${shape.join(', ')}]`);
    }
    return t;
  }

  /**
   * The tensor as float32. With a `pool`, a conversion (bf16, f16) goes into the pool's buffer for `slot`,
   * reused by the next layer's tensor of the same role: converting layer after layer then holds one layer's
   * float32 weights, instead of leaving each layer's behind for the garbage collector.
   */
  get(name: string, shape: readonly number[], pool?: Map<string, Float32Array>, slot = name): Tensor {
    const t = this.stored(name, shape);
    let buffer = pool?.get(slot);
    const n = shape.reduce((a, b) => a * b, 1);
    if (pool && t.dtype !== 'float32' && buffer?.length !== n) pool.set(slot, (buffer = new Float32Array(n)));
    return { data: t.float32(buffer), shape: [...shape] };
  }

  has(name: string): boolean {
    return this.store.has(this.prefix + name);
  }
}

interface LayerWeights {
  inputNorm: Tensor;
  postAttnNorm: Tensor;
  preFfNorm?: Tensor;
  postFfNorm?: Tensor;
  qkv?: Tensor; // Phi-3 [(H + 2H_kv)·hd, E]
  q?: Tensor; // [H·hd, E]
  k?: Tensor; // [H_kv·hd, E]
  v?: Tensor;
  qBias?: Tensor;
  kBias?: Tensor;
  vBias?: Tensor;
  qNorm?: Tensor; // [hd]
  kNorm?: Tensor;
  o: Tensor; // [E, H·hd]
  oBias?: Tensor;
  gateUp?: Tensor; // Phi-3 [2I, E]
  gate?: Tensor; // [I, E]
  up?: Tensor;
  down: Tensor; // [E, I]
  gateBias?: Tensor;
  upBias?: Tensor;
  downBias?: Tensor;
}

export interface DecoderCheckpoint {
  config: DecoderConfig;
  label: string;
  reader: StoreReader;
  embed: StoredTensor; // [V, E]
  lmHead: StoredTensor; // [V, E]: lm_head.weight, or the embeddings when tied
  finalNorm: Tensor;
  /** Parameters over every tensor read. */
  parameters: number;
}

/** Reads a decoder checkpoint: the config and the shapes of every tensor (nothing converted yet). */
export function readDecoder(
  store: TensorStore,
  prefix: string,
  config: ConfigObject,
  family: DecoderFamily,
  label: string,
  configName = 'config.json',
): DecoderCheckpoint {
  const c = readDecoderConfig(config, family, configName);
  const reader = new StoreReader(store, prefix, label, msg(MODEL_ERRORS.aFamilyCheckpoint, FAMILY_LABEL[family]));
  const embed = reader.stored('embed_tokens.weight', [c.vocabSize, c.hidden]);
  const lmName = prefix.endsWith('model.') ? prefix.slice(0, -'model.'.length) + 'lm_head.weight' : 'lm_head.weight';
  const ownHead = store.get(lmName);
  let lmHead = embed;
  if (ownHead && !c.tieWordEmbeddings) {
    if (ownHead.shape.length !== 2 || ownHead.shape[0] !== c.vocabSize || ownHead.shape[1] !== c.hidden) {
      throw modelError(MODEL_ERRORS.decoderLmHead, ownHead.file, lmName, `[${ownHead.shape.join(', ')}]`, c.vocabSize, c.hidden);
    }
    lmHead = ownHead;
  } else if (!c.tieWordEmbeddings) {
    throw modelError(MODEL_ERRORS.untiedWithoutHead, label, lmName);
  }
  const checkpoint: DecoderCheckpoint = { config: c, label, reader, embed, lmHead, finalNorm: reader.get('norm.weight', [c.hidden]), parameters: 0 };
  for (let l = 0; l < c.nLayer; l++) layerWeights(checkpoint, l, false); // shape-check every layer up front
  let n = 0;
  for (const t of store.values()) n += t.shape.reduce((a, b) => a * b, 1);
  checkpoint.parameters = n;
  const extra = `layers.${c.nLayer}.self_attn.o_proj.weight`;
  if (reader.has(extra)) throw modelError(MODEL_ERRORS.extraLayers, label, c.nLayer, `${prefix}${extra}`);
  return checkpoint;
}

/** Layer l's weights (float32 when `load`, converted into `pool`'s buffers when given; else only shape-checked). */
function layerWeights(cp: DecoderCheckpoint, l: number, load: boolean, pool?: Map<string, Float32Array>): LayerWeights {
  const c = cp.config;
  const { hidden: E, headDim: hd, nHead: H, nKvHead: Hkv, intermediate: I } = c;
  const r = cp.reader;
  const at = `layers.${l}`;
  const get = (name: string, shape: number[]): Tensor =>
    load ? r.get(`${at}.${name}`, shape, pool, name) : (r.stored(`${at}.${name}`, shape), { data: new Float32Array(0), shape });
  const opt = (name: string, shape: number[], present: boolean): Tensor | undefined => (present ? get(name, shape) : undefined);
  const w: LayerWeights = {
    inputNorm: get('input_layernorm.weight', [E]),
    postAttnNorm: get('post_attention_layernorm.weight', [E]),
    o: get('self_attn.o_proj.weight', [E, H * hd]),
    oBias: opt('self_attn.o_proj.bias', [E], c.oBias),
    down: get('mlp.down_proj.weight', [E, I]),
    downBias: opt('mlp.down_proj.bias', [E], c.mlpBias),
  };
  if (c.sandwichNorms) {
    w.preFfNorm = get('pre_feedforward_layernorm.weight', [E]);
    w.postFfNorm = get('post_feedforward_layernorm.weight', [E]);
  }
  if (c.qkNorm) {
    w.qNorm = get('self_attn.q_norm.weight', [hd]);
    w.kNorm = get('self_attn.k_norm.weight', [hd]);
  }
  if (c.fused) {
    w.qkv = get('self_attn.qkv_proj.weight', [(H + 2 * Hkv) * hd, E]);
    w.gateUp = get('mlp.gate_up_proj.weight', [2 * I, E]);
  } else {
    w.q = get('self_attn.q_proj.weight', [H * hd, E]);
    w.k = get('self_attn.k_proj.weight', [Hkv * hd, E]);
    w.v = get('self_attn.v_proj.weight', [Hkv * hd, E]);
    w.qBias = opt('self_attn.q_proj.bias', [H * hd], c.qkvBias);
    w.kBias = opt('self_attn.k_proj.bias', [Hkv * hd], c.qkvBias);
    w.vBias = opt('self_attn.v_proj.bias', [Hkv * hd], c.qkvBias);
    w.gate = get('mlp.gate_proj.weight', [I, E]);
    w.up = get('mlp.up_proj.weight', [I, E]);
    w.gateBias = opt('mlp.gate_proj.bias', [I], c.mlpBias);
    w.upBias = opt('mlp.up_proj.bias', [I], c.mlpBias);
  }
  return w;
}

export interface DecoderRunOptions extends ForwardOptions {
  /** Also compute the logits (T, V), a block of vocabulary rows at a time. */
  logits?: boolean;
}

export interface DecoderOutputs {
  /** [embeddings (scaled), each layer's output], each (T, E), before the final norm. */
  hiddenStates: Tensor[];
  /** (T, E): the final norm of the last layer's output. */
  lastHidden: Tensor;
  layers: LayerAttention[];
  /** (T, V) when asked, soft-capped when the model does. */
  logits?: Tensor;
  /** The causal (+ padding) mask; sliding layers carry their own in layers[l].mask. */
  mask: MaskSpec;
}

/** Vocabulary rows per block of the lm_head product. */
const LM_HEAD_BLOCK_FLOATS = 4 * 1024 * 1024;

/** Runs the decoder on `ids` (one sequence, positions 0..T−1). */
export async function decoderForward(cp: DecoderCheckpoint, ids: readonly number[], options: DecoderRunOptions = {}): Promise<DecoderOutputs> {
  const c = cp.config;
  const T = ids.length;
  const label = FAMILY_LABEL[c.family];
  checkLength(T, c.maxPositions, label);
  const { hidden: E, headDim: hd, nHead: H, nKvHead: Hkv, intermediate: I } = c;
  const h = new Float32Array(T * E); // residual stream (T, E)
  ids.forEach((id, t) => h.set(cp.embed.rows(id, id + 1), t * E));
  if (c.embedScale !== undefined) scaleInPlace(h, c.embedScale);
  const hiddenStates: Tensor[] = [{ data: new Float32Array(h), shape: [T, E] }];
  const mask: MaskSpec = { ...maskSpec(T, { causal: true, attentionMask: options.attentionMask }), fullyMasked: 'uniform' };
  const materialise = shouldMaterialise(c.nLayer, H, T, options.materialiseBytes);
  const kvHeads = kvHeadMap(H, Hkv);
  const positions = Array.from({ length: T }, (_, i) => i);
  const tables = new Map<RopeSpec, { tables: RopeTables; invFreq: Float32Array }>();
  const tablesFor = (spec: RopeSpec) => {
    let t = tables.get(spec);
    if (!t) {
      const invFreq = ropeInverseFrequencies(spec);
      tables.set(spec, (t = { tables: ropeTables(invFreq, positions), invFreq }));
    }
    return t;
  };
  const eps = c.rmsNormEps;
  const layers: LayerAttention[] = [];
  const pool = new Map<string, Float32Array>(); // one layer's converted weights, reused layer after layer
  for (let l = 0; l < c.nLayer; l++) {
    await options.checkpoint?.();
    const w = layerWeights(cp, l, true, pool);
    const spec = c.layers[l];
    if (spec === undefined) throw new Error(`${label}: the configuration describes ${c.layers.length} layers, not the ${c.nLayer} it names`);
    const a: Tensor = { data: rmsNorm(h, E, w.inputNorm.data, eps, c.normKind), shape: [T, E] }; // (T, E)
    let q: Tensor, k: Tensor, v: Tensor;
    if (w.qkv) {
      const qkv = linear(a, w.qkv, undefined, `${label} layer ${l} qkv_proj`); // (T, (H + 2H_kv)·hd)
      q = splitHeads(sliceColumns(qkv, 0, H * hd), H); // (H, T, hd)
      k = splitHeads(sliceColumns(qkv, H * hd, Hkv * hd), Hkv); // (H_kv, T, hd)
      v = splitHeads(sliceColumns(qkv, (H + Hkv) * hd, Hkv * hd), Hkv);
    } else {
      q = linearToHeads(a, w.q!, w.qBias, H, `${label} layer ${l} q_proj`); // (H, T, hd)
      k = linearToHeads(a, w.k!, w.kBias, Hkv, `${label} layer ${l} k_proj`); // (H_kv, T, hd)
      v = linearToHeads(a, w.v!, w.vBias, Hkv, `${label} layer ${l} v_proj`);
    }
    if (w.qNorm && w.kNorm) {
      rmsNormInPlace(q.data, hd, w.qNorm.data, eps, c.normKind);
      rmsNormInPlace(k.data, hd, w.kNorm.data, eps, c.normKind);
    }
    const rope = tablesFor(spec.rope);
    applyRopeInPlace(q.data, H, T, hd, rope.tables);
    applyRopeInPlace(k.data, Hkv, T, hd, rope.tables);
    const layerMask: MaskSpec = spec.window !== undefined ? { ...mask, window: spec.window } : mask;
    const { context, probs } = await groupedAttention(q, k, v, {
      mask: layerMask,
      scale: c.attnScale,
      softcap: c.attnSoftcap,
      kvHeads,
      materialise,
      checkpoint: options.checkpoint,
    });
    layers.push({
      q,
      k,
      v,
      scale: c.attnScale,
      probs,
      kvHeads,
      ...(c.attnSoftcap !== undefined ? { softcap: c.attnSoftcap } : {}),
      ...(spec.window !== undefined ? { mask: layerMask } : {}),
      rope,
    });
    let o = linear(mergeHeads(context), w.o, w.oBias, `${label} layer ${l} o_proj`); // (T, E)
    if (w.postFfNorm) o = { data: rmsNorm(o.data, E, w.postAttnNorm.data, eps, c.normKind), shape: [T, E] };
    addInPlace(h, o.data);
    const m: Tensor = { data: rmsNorm(h, E, (w.preFfNorm ?? w.postAttnNorm).data, eps, c.normKind), shape: [T, E] }; // (T, E)
    let gate: Tensor, up: Tensor;
    if (w.gateUp) {
      const gu = linear(m, w.gateUp, undefined, `${label} layer ${l} gate_up_proj`); // (T, 2I)
      gate = sliceColumns(gu, 0, I);
      up = sliceColumns(gu, I, I);
    } else {
      gate = linear(m, w.gate!, w.gateBias, `${label} layer ${l} gate_proj`); // (T, I)
      up = linear(m, w.up!, w.upBias, `${label} layer ${l} up_proj`);
    }
    activateInPlace(gate.data, c.activation);
    multiplyInPlace(gate.data, up.data); // gate (T, I) *= up (T, I)
    let down = linear(gate, w.down, w.downBias, `${label} layer ${l} down_proj`); // (T, E)
    if (w.postFfNorm) down = { data: rmsNorm(down.data, E, w.postFfNorm.data, eps, c.normKind), shape: [T, E] };
    addInPlace(h, down.data);
    hiddenStates.push({ data: new Float32Array(h), shape: [T, E] });
    options.progress?.((l + 1) / c.nLayer, msg(ENGINE_PROGRESS.decoderLayer, label, l + 1, c.nLayer));
  }
  const lastHidden: Tensor = { data: rmsNorm(h, E, cp.finalNorm.data, eps, c.normKind), shape: [T, E] };
  const out: DecoderOutputs = { hiddenStates, lastHidden, layers, mask };
  if (options.logits) out.logits = lmHeadLogits(lastHidden, cp.lmHead, c.vocabSize, c.finalSoftcap);
  return out;
}

/** x (T, E) · W (V, E)ᵀ → (T, V), converting a block of vocabulary rows at a time; soft-capped when asked. */
export function lmHeadLogits(x: Tensor, weight: StoredTensor, V: number, softcap?: number): Tensor {
  const [T, E] = x.shape;
  if (T === undefined || E === undefined) throw new Error(`lm_head: expected hidden states (T, E), got ${formatShape(x.shape)}`);
  const logits = new Float32Array(T * V);
  const rowsPerBlock = Math.max(1, Math.floor(LM_HEAD_BLOCK_FLOATS / E));
  const buffer = new Float32Array(Math.min(V, rowsPerBlock) * E); // reused for every full block
  for (let v0 = 0; v0 < V; v0 += rowsPerBlock) {
    const v1 = Math.min(V, v0 + rowsPerBlock);
    const block = weight.rows(v0, v1, v1 - v0 === rowsPerBlock ? buffer : undefined); // (v1 − v0, E) float32
    getKernel().gemm({ m: T, n: v1 - v0, k: E, a: x.data, aOff: 0, lda: E, b: block, bOff: 0, ldb: E, transB: true, c: logits, cOff: v0, ldc: V });
  }
  if (softcap !== undefined) softcapInPlace(logits, softcap);
  return { data: logits, shape: [T, V] };
}

export interface DecoderModelOptions {
  label: string;
  store: TensorStore;
  prefix: string;
  config: ConfigObject;
  family: DecoderFamily;
  configName?: string;
  tokenizerJson?: string;
}

const NO_TOKENIZER_HINT = msg(MODEL_ERRORS.noTokenizer);

/** The description's sentence on RoPE, the attention scale, soft-caps, sliding windows and q/k norms. */
function ropeSentence(c: DecoderConfig, rope: DecoderConfig['layers'][number]['rope'], windows: readonly (number | undefined)[]): MessageParts {
  const scaled = rope.scaling.type !== 'default';
  const partial = rope.rotaryDim < c.headDim;
  const clauses: MessageParts[] = [
    scaled && partial
      ? msg(MODEL_TEXT.ropeScaledPartial, rope.theta, rope.scaling.type, rope.rotaryDim, c.headDim)
      : scaled
        ? msg(MODEL_TEXT.ropeScaled, rope.theta, rope.scaling.type)
        : partial
          ? msg(MODEL_TEXT.ropePartial, rope.theta, rope.rotaryDim, c.headDim)
          : msg(MODEL_TEXT.rope, rope.theta),
    msg(MODEL_TEXT.attnScale, c.attnScale.toPrecision(4)),
  ];
  if (c.attnSoftcap) clauses.push(msg(MODEL_TEXT.attnSoftcap, c.attnSoftcap));
  if (c.finalSoftcap) clauses.push(msg(MODEL_TEXT.finalSoftcap, c.finalSoftcap));
  const window = windows.find((w) => w !== undefined);
  if (window !== undefined) clauses.push(msg(MODEL_TEXT.slidingWindow, window, windows.filter((w) => w !== undefined).length, c.nLayer));
  if (c.qkNorm) clauses.push(msg(MODEL_TEXT.qkNorm));
  return msg(MODEL_TEXT.sentence, concat(...clauses));
}

/** The AttentionModel of a RoPE decoder checkpoint: causal, GQA, its own tokenizer.json. */
export function createDecoderModel(options: DecoderModelOptions): AttentionModel {
  const cp = readDecoder(options.store, options.prefix, options.config, options.family, options.label, options.configName);
  const c = cp.config;
  const familyLabel = FAMILY_LABEL[c.family];
  const hasTokenizer = options.tokenizerJson !== undefined;
  const tokenizer: TokenizerChoice = hasTokenizer ? { kind: 'tokenizer-json', json: options.tokenizerJson! } : { kind: 'words' };
  const kvHeads = kvHeadMap(c.nHead, c.nKvHead);
  const windows = c.layers.map((s) => s.window);
  const first = c.layers[0];
  if (first === undefined) throw new Error(`${options.label}: the configuration describes no layers`);
  const rope = first.rope;
  const info: ModelInfo = {
    family: c.family,
    ...describedAs(
      msg(MODEL_TEXT.decoderName, namedWithFamily(c.family, options.label), countOf(c.nLayer, 'layer'), countOf(c.nHead, 'head'), c.hidden),
      sentences(
        msg(MODEL_TEXT.decoderSummary, options.label, familyLabel, formatCount(cp.parameters)),
        msg(
          MODEL_TEXT.decoderShape,
          countOf(c.nLayer, 'layer'),
          c.hidden,
          countOf(c.nHead, 'query head'),
          countOf(c.nKvHead, 'key/value head'),
          c.nHead / c.nKvHead,
          c.headDim,
          c.intermediate,
          c.activation,
          String(c.rmsNormEps),
        ),
        ropeSentence(c, rope, windows),
        msg(MODEL_TEXT.decoderAttention, c.vocabSize, c.maxPositions),
        hasTokenizer ? msg(MODEL_TEXT.tokenizerJson) : msg(MODEL_TEXT.noTokenizer, msg(MODEL_TEXT.noTokenizerHint)),
      ),
    ),
    nLayer: c.nLayer,
    nHead: c.nHead,
    dModel: c.hidden,
    headDim: c.headDim,
    causal: true,
    tokenizer: hasTokenizer ? 'tokenizer.json' : 'ids only (no tokenizer.json)',
    vocabSize: c.vocabSize,
    maxPositions: c.maxPositions,
    kvHeads,
    layerWindows: windows.map((w) => w ?? null),
    rope: true,
    ...(c.attnSoftcap !== undefined ? { attnSoftcap: c.attnSoftcap } : {}),
  };
  return {
    info,
    tokenizer,
    async forward(tokens: TokenInfo[], forwardOptions: ForwardOptions = {}): Promise<ForwardResult> {
      const ids = tokenIds(tokens, c.vocabSize, familyLabel, hasTokenizer ? msg(MODEL_ERRORS.needsIdsFromTokenizerJson, familyLabel) : NO_TOKENIZER_HINT);
      const out = await decoderForward(cp, ids, forwardOptions);
      return forwardResult(out.layers, c.nHead, ids.length, out.mask, familyLabel);
    },
  };
}
