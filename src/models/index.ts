// Models on the engine: recognise a checkpoint's family from its tensor names (and config.json when there is
// one) and build the AttentionModel that runs it. Pure TypeScript: the caller reads the files.
//   GPT-2 family   wte.weight + h.{i}.attn.c_attn.weight (Conv1D [in, out]); also under 'transformer.'
//   BERT family    embeddings.word_embeddings.weight + encoder.layer.{i}.attention.self.query.weight
//                  (nn.Linear [out, in]); also under 'bert.'
//   attention layer  in_proj_weight (nn.MultiheadAttention) or q/k/v projections, on seeded embeddings
import type { Tensor } from '../engine/tensor';
import { ATTENTION_LAYER_MARKERS, createAttentionLayerModel, findAttentionLayer } from './attention-layer';
import { materialiseStore, storeFromTensors, type TensorStore } from '../weights/snapshot';
import { BERT_MARKERS, createBertModel, ROBERTA_MODEL_TYPES } from './bert';
import { createDecoderModel, DECODER_MARKERS, decoderPrefix } from './decoder';
import { decoderFamilyOf, MODEL_TYPES as DECODER_MODEL_TYPES } from './decoder-config';
import { type ConfigObject, configString, parseConfigJson } from './config';
import { createGpt2Model, GPT2_MARKERS } from './gpt2';
import type { AttentionModel } from './types';
import { msg, type MessageParts } from '../protocol/message';
import { MODEL_ERRORS, modelError } from './errors';

export type { AttentionModel, ForwardOptions, ForwardResult, HeadInputs, MaskSpec, TokenizerChoice } from './types';
export { MATERIALISED_ATTENTION_BYTES } from './types';
export { maskSpec, allowedRows, allowedMatrix, shouldMaterialise, attendLayer, headRows } from './lazy-attention';
export { createSeededModel, attendMask, type SeededModelConfig } from './seeded-model';
export { readGpt2, gpt2Forward, createGpt2Model, type Gpt2Checkpoint, type Gpt2Config, type Gpt2Outputs, type Gpt2RunOptions } from './gpt2';
export { readBert, bertForward, bertPositionIds, createBertModel, type BertCheckpoint, type BertConfig, type BertOutputs, type BertRunOptions } from './bert';
export {
  readDecoder,
  decoderForward,
  createDecoderModel,
  decoderPrefix,
  lmHeadLogits,
  type DecoderCheckpoint,
  type DecoderOutputs,
  type DecoderRunOptions,
} from './decoder';
export { readDecoderConfig, decoderFamilyOf, DECODER_FAMILIES, type DecoderConfig, type DecoderFamily } from './decoder-config';
export {
  findAttentionLayer,
  readAttentionLayer,
  attentionLayerForward,
  attentionLayerProjections,
  seededEmbeddings,
  createAttentionLayerModel,
  type AttentionLayerWeights,
  type FoundAttentionLayer,
} from './attention-layer';
export { parseConfigJson, defaultHeadCount, resolveHeads, DEFAULT_HEAD_DIM, type ConfigObject } from './config';
import { HEADS_CHOSEN_WHEN_LOADING } from './config';
export type { LayerAttention } from './forward-result';

export interface LoadModelOptions {
  /** The weight file's name, used in every message. */
  fileName: string;
  /** Text of a HF config.json beside the weights (n_head, epsilons, activation, ...). */
  configJson?: string;
  /** Text of a HF tokenizer.json beside the weights. */
  tokenizerJson?: string;
  /** Seed of the token embeddings for a bare attention layer (default 0). */
  seed?: number;
  /** Heads of a bare attention layer when no config.json gives them (the shapes cannot tell): the user's choice. */
  heads?: number;
}

export type DetectedFamily =
  | { family: 'gpt2'; prefix: string }
  | { family: 'bert'; prefix: string }
  | { family: 'attention-layer'; found: NonNullable<ReturnType<typeof findAttentionLayer>> };

/**
 * The prefixes p ('' or ending in '.') such that every marker name exists as p + marker, sorted; the first
 * marker locates the candidates.
 */
function prefixesWith(tensors: Map<string, Tensor>, markers: readonly string[]): string[] {
  const out: string[] = [];
  const first = markers[0];
  if (first === undefined) return out;
  for (const name of tensors.keys()) {
    if (!name.endsWith(first)) continue;
    const prefix = name.slice(0, name.length - first.length);
    if (prefix !== '' && !prefix.endsWith('.')) continue;
    if (markers.every((m) => tensors.has(prefix + m))) out.push(prefix);
  }
  return out.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
}

/** Which family the tensors belong to (GPT-2, then BERT, then a bare attention layer), or null. */
export function detectFamily(tensors: Map<string, Tensor>): DetectedFamily | null {
  const [gpt2] = prefixesWith(tensors, GPT2_MARKERS);
  if (gpt2 !== undefined) return { family: 'gpt2', prefix: gpt2 };
  const [bert] = prefixesWith(tensors, BERT_MARKERS);
  if (bert !== undefined) return { family: 'bert', prefix: bert };
  const layer = findAttentionLayer(tensors);
  if (layer) return { family: 'attention-layer', found: layer };
  return null;
}

/** The error for a file no family recognises: what was found and what was expected. */
export function unrecognisedModelError(tensors: Map<string, Tensor>, fileName: string): Error {
  const names = [...tensors.keys()];
  return modelError(
    names.length === 1 ? MODEL_ERRORS.unrecognisedOne : MODEL_ERRORS.unrecognised,
    fileName,
    names.length,
    GPT2_MARKERS.join(', '),
    BERT_MARKERS.join(', '),
    `model.${DECODER_MARKERS.join(', model.')}`,
    ATTENTION_LAYER_MARKERS[0],
    describeNames(names),
  );
}

const CONFIG_NAME = 'config.json';

/** Refuses a config.json whose model_type names another architecture than the tensors show. */
function checkModelType(config: ConfigObject | undefined, family: 'gpt2' | 'bert', fileName: string): void {
  const modelType = configString(config, ['model_type'], CONFIG_NAME);
  if (modelType === undefined || modelType === family) return;
  if (family === 'bert' && ROBERTA_MODEL_TYPES.includes(modelType)) return;
  const supported = family === 'bert' ? ['bert', ...ROBERTA_MODEL_TYPES] : [family];
  throw modelError(
    supported.length > 1 ? MODEL_ERRORS.modelTypeMismatchMany : MODEL_ERRORS.modelTypeMismatch,
    CONFIG_NAME,
    modelType,
    fileName,
    family === 'gpt2' ? 'GPT-2' : 'BERT',
    supported.map((t) => `'${t}'`).join(', '),
  );
}

/**
 * The decoder model when config.json names a RoPE decoder family (or refuses when the tensors are a
 * decoder's but the config is missing or names an unsupported model_type); undefined for other checkpoints.
 */
function decoderModel(store: TensorStore, config: ConfigObject | undefined, options: LoadModelOptions): AttentionModel | undefined {
  const modelType = configString(config, ['model_type'], CONFIG_NAME);
  const family = decoderFamilyOf(modelType);
  const prefix = decoderPrefix(store.keys());
  if (family) {
    if (prefix === undefined) {
      throw modelError(
        MODEL_ERRORS.decoderWithoutLayers,
        options.fileName,
        CONFIG_NAME,
        modelType ?? '',
        DECODER_MARKERS.map((m) => `model.${m}`).join(', '),
        describeNames(store.keys()),
      );
    }
    return createDecoderModel({
      label: options.fileName,
      store,
      prefix,
      config: config!,
      family,
      configName: CONFIG_NAME,
      tokenizerJson: options.tokenizerJson,
    });
  }
  if (prefix !== undefined) {
    const supported = Object.keys(DECODER_MODEL_TYPES).join(', ');
    throw modelType === undefined
      ? modelError(MODEL_ERRORS.decoderWithoutConfig, options.fileName, `${prefix}${DECODER_MARKERS[1]}`, CONFIG_NAME, supported)
      : modelError(MODEL_ERRORS.decoderUnsupported, options.fileName, `${prefix}${DECODER_MARKERS[1]}`, CONFIG_NAME, modelType, supported);
  }
  return undefined;
}

function describeNames(names: Iterable<string>): MessageParts {
  const sorted = [...names].sort();
  if (sorted.length === 0) return msg(MODEL_ERRORS.holdsNoTensors);
  const shown = sorted.slice(0, 6).join(', ');
  return sorted.length > 6 ? msg(MODEL_ERRORS.holdsMore, shown, sorted.length - 6) : msg(MODEL_ERRORS.holds, shown);
}

/**
 * The AttentionModel of a checkpoint whose tensors stay in their stored precision (a folder snapshot, or a
 * safetensors file): decoders convert a layer at a time; other families are converted to float32 whole.
 */
export function loadModelFromStore(store: TensorStore, options: LoadModelOptions): AttentionModel {
  const config = parseConfigJson(options.configJson, CONFIG_NAME);
  return decoderModel(store, config, options) ?? loadModel(materialiseStore(store), options);
}

/**
 * The AttentionModel for a checkpoint's tensors. Throws an Error naming the file and what was found and
 * expected when no family matches, and naming the tensor or config field for anything malformed.
 */
export function loadModel(tensors: Map<string, Tensor>, options: LoadModelOptions): AttentionModel {
  if (!(tensors instanceof Map)) throw new TypeError('loadModel: tensors must be a Map of name → Tensor (from readTensors)');
  const fileName = options?.fileName;
  if (typeof fileName !== 'string' || fileName === '') throw new TypeError('loadModel: options.fileName must be a non-empty string');
  const seed = options.seed ?? 0;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`loadModel: seed must be a non-negative integer, got ${String(seed)}`);
  const config = parseConfigJson(options.configJson, CONFIG_NAME);
  const decoder = decoderModel(storeFromTensors(tensors, fileName), config, options);
  if (decoder) return decoder;
  const detected = detectFamily(tensors);
  if (!detected) throw unrecognisedModelError(tensors, fileName);
  const common = { fileName, tensors, config, configName: CONFIG_NAME };
  switch (detected.family) {
    case 'gpt2':
      checkModelType(config, 'gpt2', fileName);
      return createGpt2Model({ ...common, prefix: detected.prefix, tokenizerJson: options.tokenizerJson });
    case 'bert':
      checkModelType(config, 'bert', fileName);
      return createBertModel({ ...common, prefix: detected.prefix, tokenizerJson: options.tokenizerJson });
    case 'attention-layer': {
      const heads = options.heads;
      const configHasHeads = ['num_heads', 'num_attention_heads', 'n_head'].some((key) => config?.[key] !== undefined);
      if (heads === undefined || configHasHeads) return createAttentionLayerModel({ ...common, found: detected.found, seed });
      return createAttentionLayerModel({
        ...common,
        config: { ...config, num_heads: heads },
        configName: HEADS_CHOSEN_WHEN_LOADING,
        found: detected.found,
        seed,
      });
    }
  }
}
