// The settings of a RoPE decoder (Llama, Mistral, Qwen2, Qwen3, Gemma 2, Gemma 3 text, Phi-3), read from
// its config.json — the source of truth for every hyper-parameter. A field the config states is always
// used; HF's class default applies only when the field is absent. Both config generations are read:
// transformers ≥ 5 (`rope_parameters`, `layer_types`) and 4.x (`rope_theta` + `rope_scaling`,
// `rope_local_base_freq`, `sliding_window_pattern`, `use_sliding_window` + `max_window_layers`).
import { type ActivationName, checkActivation } from './activations';
import { type ConfigObject, configBoolean, configNonNegative, configPositiveInt, configString } from './config';
import type { RmsNormKind } from './rms-norm';
import type { RopeScaling, RopeSpec } from '../engine/ops/rope';
import { checkWindow } from './sliding-window';
import { jsonText, MODEL_ERRORS, modelError } from './errors';

export const DECODER_FAMILIES = ['llama', 'mistral', 'qwen2', 'qwen3', 'gemma2', 'gemma3', 'phi3'] as const;
export type DecoderFamily = (typeof DECODER_FAMILIES)[number];

/** config.json model_type → family. */
export const MODEL_TYPES: Readonly<Record<string, DecoderFamily>> = {
  llama: 'llama',
  mistral: 'mistral',
  qwen2: 'qwen2',
  qwen3: 'qwen3',
  gemma2: 'gemma2',
  gemma3_text: 'gemma3',
  gemma3: 'gemma3',
  phi3: 'phi3',
};

export const FAMILY_LABEL: Readonly<Record<DecoderFamily, string>> = {
  llama: 'Llama',
  mistral: 'Mistral',
  qwen2: 'Qwen2',
  qwen3: 'Qwen3',
  gemma2: 'Gemma 2',
  gemma3: 'Gemma 3',
  phi3: 'Phi-3',
};

/**
 * The model's display name: the family's label before the checkpoint's own label, unless that label already
 * names the family (`llama` → "Llama", not "Llama llama"; `gemma-2-2b` → "gemma-2-2b").
 */
export function namedWithFamily(family: DecoderFamily, label: string): string {
  const letters = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  return letters(label).includes(letters(FAMILY_LABEL[family])) ? label : `${FAMILY_LABEL[family]} ${label}`;
}

/** The decoder family a config.json names (model_type), or undefined for another model type. */
export function decoderFamilyOf(modelType: string | undefined): DecoderFamily | undefined {
  return modelType !== undefined && Object.hasOwn(MODEL_TYPES, modelType) ? MODEL_TYPES[modelType] : undefined;
}

export interface DecoderLayerSpec {
  /** Sliding-window attention (the last `window` keys) or full causal attention. */
  window?: number;
  rope: RopeSpec;
}

export interface DecoderConfig {
  family: DecoderFamily;
  nLayer: number;
  hidden: number;
  nHead: number;
  nKvHead: number;
  headDim: number;
  intermediate: number;
  vocabSize: number;
  maxPositions: number;
  rmsNormEps: number;
  normKind: RmsNormKind;
  activation: ActivationName;
  /** Embeddings × this (Gemma: √hidden, as float32). */
  embedScale?: number;
  /** Multiplies q·kᵀ: head_dim^−½, or query_pre_attn_scalar^−½ (Gemma). */
  attnScale: number;
  attnSoftcap?: number;
  finalSoftcap?: number;
  layers: DecoderLayerSpec[];
  /** Per-head RMSNorm of q and k before RoPE (Qwen3, Gemma 3). */
  qkNorm: boolean;
  /** Gemma's extra norms: after attention and around the MLP (post_attention, pre/post_feedforward). */
  sandwichNorms: boolean;
  /** Phi-3: one qkv_proj and one gate_up_proj. */
  fused: boolean;
  /** Biases on q/k/v (Qwen2 always; attention_bias elsewhere). */
  qkvBias: boolean;
  /** Bias on o_proj (Llama's attention_bias). */
  oBias: boolean;
  /** Biases on the MLP projections (Llama's mlp_bias). */
  mlpBias: boolean;
  tieWordEmbeddings: boolean;
  /** What the config said, for ModelInfo.detail. */
  notes: string[];
}

type Num = (keys: readonly string[]) => number | undefined;

/** Reads a decoder's config.json. `configName` names it in messages. */
export function readDecoderConfig(config: ConfigObject, family: DecoderFamily, configName = 'config.json'): DecoderConfig {
  const int: Num = (keys) => configPositiveInt(config, keys, configName);
  const num: Num = (keys) => configNonNegative(config, keys, configName);
  const need = (keys: readonly string[]): number => {
    const v = int(keys);
    if (v === undefined) throw modelError(MODEL_ERRORS.configKeyMissing, configName, keys[0] ?? '', FAMILY_LABEL[family]);
    return v;
  };
  const hidden = need(['hidden_size']);
  const nLayer = need(['num_hidden_layers']);
  const nHead = need(['num_attention_heads']);
  const nKvHead = int(['num_key_value_heads']) ?? nHead;
  if (nHead % nKvHead !== 0) throw modelError(MODEL_ERRORS.kvHeads, configName, nKvHead, nHead);
  const headDim = int(['head_dim']) ?? hidden / nHead;
  if (!Number.isInteger(headDim)) throw modelError(MODEL_ERRORS.noHeadDim, configName, nHead, hidden);
  const isGemma = family === 'gemma2' || family === 'gemma3';
  const notes: string[] = [];
  const activationName =
    configString(config, isGemma ? ['hidden_activation', 'hidden_act'] : ['hidden_act'], configName) ?? (isGemma ? 'gelu_pytorch_tanh' : 'silu');
  const queryPreAttnScalar = isGemma ? num(['query_pre_attn_scalar']) : undefined;
  if (queryPreAttnScalar !== undefined) notes.push(`scale query_pre_attn_scalar^−½ = 1/√${queryPreAttnScalar}`);
  const attnSoftcap = family === 'gemma2' || family === 'gemma3' ? positiveOrNull(config, 'attn_logit_softcapping', configName) : undefined;
  const finalSoftcap = isGemma ? positiveOrNull(config, 'final_logit_softcapping', configName) : undefined;
  const layers = readLayers(config, family, nLayer, headDim, configName, notes);
  const attentionBias = configBoolean(config, ['attention_bias'], configName) ?? false;
  return {
    family,
    nLayer,
    hidden,
    nHead,
    nKvHead,
    headDim,
    intermediate: need(['intermediate_size']),
    vocabSize: need(['vocab_size']),
    maxPositions: need(['max_position_embeddings']),
    rmsNormEps: num(['rms_norm_eps']) ?? 1e-6,
    normKind: isGemma ? 'one-plus-weight' : 'weight',
    activation: checkActivation(activationName, configName),
    embedScale: isGemma ? Math.fround(Math.sqrt(hidden)) : undefined,
    attnScale: 1 / Math.sqrt(queryPreAttnScalar ?? headDim),
    attnSoftcap,
    finalSoftcap,
    layers,
    qkNorm: family === 'qwen3' || family === 'gemma3',
    sandwichNorms: isGemma,
    fused: family === 'phi3',
    qkvBias: family === 'qwen2' ? true : attentionBias,
    oBias: family === 'llama' || family === 'mistral' ? attentionBias : false,
    mlpBias: configBoolean(config, ['mlp_bias'], configName) ?? false,
    tieWordEmbeddings: configBoolean(config, ['tie_word_embeddings'], configName) ?? (isGemma || family === 'qwen2'),
    notes,
  };
}

/** A positive number, or undefined for null / absent (Gemma's soft-caps are disabled by null). */
function positiveOrNull(config: ConfigObject, key: string, configName: string): number | undefined {
  const v = config[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) throw modelError(MODEL_ERRORS.positiveOrNull, configName, key, jsonText(v));
  return v;
}

const LAYER_TYPES = ['full_attention', 'sliding_attention'] as const;
type LayerType = (typeof LAYER_TYPES)[number];

function readLayers(config: ConfigObject, family: DecoderFamily, nLayer: number, headDim: number, configName: string, notes: string[]): DecoderLayerSpec[] {
  const types = layerTypes(config, family, nLayer, configName);
  const rawWindow = config.sliding_window;
  let window: number | undefined;
  if (types.includes('sliding_attention')) {
    if (typeof rawWindow !== 'number') throw modelError(MODEL_ERRORS.slidingWindow, configName, jsonText(rawWindow ?? null));
    window = checkWindow(rawWindow, configName);
  }
  const ropes = ropeByLayerType(config, family, headDim, configName);
  if (window !== undefined)
    notes.push(
      `sliding window ${window} on layers ${types
        .map((t, i) => (t === 'sliding_attention' ? i : -1))
        .filter((i) => i >= 0)
        .join(', ')}`,
    );
  return types.map((t) => ({ ...(t === 'sliding_attention' ? { window } : {}), rope: ropes[t] }));
}

/** Each layer's attention type: layer_types when the config has it, else the family's 4.x rule. */
function layerTypes(config: ConfigObject, family: DecoderFamily, nLayer: number, configName: string): LayerType[] {
  const raw = config.layer_types;
  if (raw !== undefined && raw !== null) {
    if (!Array.isArray(raw) || raw.length !== nLayer || !raw.every((t) => (LAYER_TYPES as readonly unknown[]).includes(t))) {
      throw modelError(MODEL_ERRORS.layerTypes, configName, nLayer, LAYER_TYPES.join(' / '), jsonText(raw).slice(0, 120));
    }
    return raw as LayerType[];
  }
  const hasWindow = typeof config.sliding_window === 'number';
  const all = (t: LayerType) => new Array<LayerType>(nLayer).fill(t);
  switch (family) {
    case 'mistral':
    case 'phi3':
      return all(hasWindow ? 'sliding_attention' : 'full_attention');
    case 'qwen2':
    case 'qwen3': {
      const use = configBoolean(config, ['use_sliding_window'], configName) ?? false;
      const from = configNonNegative(config, ['max_window_layers'], configName) ?? nLayer;
      return Array.from({ length: nLayer }, (_, i) => (use && hasWindow && i >= from ? 'sliding_attention' : 'full_attention'));
    }
    case 'gemma2':
      return Array.from({ length: nLayer }, (_, i) => (i % 2 === 0 ? 'sliding_attention' : 'full_attention'));
    case 'gemma3': {
      const pattern = configPositiveInt(config, ['sliding_window_pattern', '_sliding_window_pattern'], configName) ?? 6;
      return Array.from({ length: nLayer }, (_, i) => ((i + 1) % pattern !== 0 ? 'sliding_attention' : 'full_attention'));
    }
    case 'llama':
      return all('full_attention');
  }
}

/** The RoPE of full and sliding layers (they differ in Gemma 3: a local base for the sliding ones). */
function ropeByLayerType(config: ConfigObject, family: DecoderFamily, headDim: number, configName: string): Record<LayerType, RopeSpec> {
  const params = config.rope_parameters;
  const partial = (p: Record<string, unknown> | undefined) => {
    const factor = (p?.partial_rotary_factor ?? config.partial_rotary_factor ?? 1) as unknown;
    if (typeof factor !== 'number' || !(factor > 0) || factor > 1) throw modelError(MODEL_ERRORS.rotaryFactor, configName, jsonText(factor));
    const dim = Math.floor(headDim * factor);
    return dim - (dim % 2);
  };
  if (params !== undefined && params !== null) {
    if (typeof params !== 'object' || Array.isArray(params)) throw modelError(MODEL_ERRORS.ropeParameters, configName);
    const p = params as Record<string, unknown>;
    const perType = LAYER_TYPES.every((t) => typeof p[t] === 'object' && p[t] !== null);
    if (perType) {
      const full = ropeSpec(
        p.full_attention as Record<string, unknown>,
        partial(p.full_attention as Record<string, unknown>),
        `${configName} rope_parameters.full_attention`,
      );
      const sliding = ropeSpec(
        p.sliding_attention as Record<string, unknown>,
        partial(p.sliding_attention as Record<string, unknown>),
        `${configName} rope_parameters.sliding_attention`,
      );
      return { full_attention: full, sliding_attention: sliding };
    }
    const one = ropeSpec(p, partial(p), `${configName} rope_parameters`);
    return { full_attention: one, sliding_attention: one };
  }
  // transformers 4.x: rope_theta + rope_scaling (+ Gemma 3's rope_local_base_freq for sliding layers)
  const theta = config.rope_theta ?? 10000;
  const scaling = config.rope_scaling ?? undefined;
  const full = ropeSpec(
    { ...(typeof scaling === 'object' && scaling !== null ? (scaling as Record<string, unknown>) : {}), rope_theta: theta },
    partial(undefined),
    configName,
  );
  if (family === 'gemma3') {
    const local = config.rope_local_base_freq ?? 10000;
    return { full_attention: full, sliding_attention: ropeSpec({ rope_theta: local }, partial(undefined), configName) };
  }
  return { full_attention: full, sliding_attention: full };
}

function ropeSpec(p: Record<string, unknown>, rotaryDim: number, where: string): RopeSpec {
  const theta = p.rope_theta ?? 10000;
  if (typeof theta !== 'number' || !(theta > 0)) throw modelError(MODEL_ERRORS.ropeTheta, where, jsonText(theta));
  const type = p.rope_type ?? p.type ?? 'default';
  const factor = (): number => {
    const v = p.factor;
    if (typeof v !== 'number' || !(v > 0)) throw modelError(MODEL_ERRORS.ropeFactor, where, String(type), jsonText(v));
    return v;
  };
  let scaling: RopeScaling;
  switch (type) {
    case 'default':
      scaling = { type: 'default' };
      break;
    case 'linear':
      scaling = { type: 'linear', factor: factor() };
      break;
    case 'llama3': {
      const field = (k: string): number => {
        const v = p[k];
        if (typeof v !== 'number' || !(v > 0)) throw modelError(MODEL_ERRORS.llama3Key, where, k, jsonText(v));
        return v;
      };
      scaling = {
        type: 'llama3',
        factor: factor(),
        lowFreqFactor: field('low_freq_factor'),
        highFreqFactor: field('high_freq_factor'),
        originalMaxPositions: field('original_max_position_embeddings'),
      };
      break;
    }
    default:
      throw modelError(MODEL_ERRORS.ropeType, where, String(type));
  }
  return { theta, rotaryDim, scaling };
}
