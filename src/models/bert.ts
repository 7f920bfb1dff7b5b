// BERT (HF BertModel names, nn.Linear weights [out, in]) on the engine, one sequence at a time:
//   x = LN_emb(word[ids] + position[0..T-1] + token_type[0])                       (T, E)
//   per layer:  q, k, v = x·W_{q,k,v}ᵀ + b, split into heads                       (H, T, hd)
//               P = softmax(q·kᵀ/√hd + padding mask)   padded keys get weight 0 (HF adds finfo.min there)
//               a = LN_attn(merge(P·v)·W_oᵀ + b_o + x)
//               x = LN_out(act(a·W_iᵀ + b_i)·W_outᵀ + b_out + a)                   act = exact erf GELU
// hidden_states = [embeddings output, each layer's x]; last_hidden_state = the last x. No pooler.
import { type Tensor, gatherRows, layerNorm, linear } from '../engine';
import type { ModelInfo, TokenInfo } from '../protocol/engine';
import { type ActivationName, activateInPlace, checkActivation } from './activations';
import { type ConfigObject, configNonNegative, configPositiveInt, configString, resolveHeads } from './config';
import { checkLength, forwardResult, type LayerAttention, tokenIds } from './forward-result';
import { mergeHeads, splitHeads } from './layers';
import { addInPlace } from './row-loops';
import { attendLayer, maskSpec, shouldMaterialise } from './lazy-attention';
import { countParameters, formatCount, ParamReader } from './params';
import type { AttentionModel, ForwardOptions, ForwardResult, MaskSpec, TokenizerChoice } from './types';
import { ENGINE_PROGRESS } from '../protocol/engine-progress';
import { msg, type MessageParts } from '../protocol/message';
import { checkpointSummary, countOf, describedAs, MODEL_TEXT, sentences } from './model-text';
import { jsonText, MODEL_ERRORS, modelError } from './errors';

export interface BertConfig {
  nLayer: number;
  nHead: number;
  hidden: number;
  intermediate: number;
  vocabSize: number;
  maxPositions: number;
  typeVocabSize: number;
  layerNormEps: number;
  activation: ActivationName;
  headsSource: MessageParts;
  /**
   * RoBERTa / XLM-R: position ids start after the padding id — cumsum(ids ≠ pad)·(ids ≠ pad) + pad, so padded
   * tokens sit at position pad and real tokens at pad + 1, pad + 2, … (HF create_position_ids_from_input_ids).
   * Undefined for BERT (positions 0..T−1).
   */
  paddingIdx?: number;
  /** config.json model_type ('bert', 'roberta', 'xlm-roberta', …; 'bert' when there is no config). */
  modelType: string;
}

/** model_types that are BERT with RoBERTa's positions. */
export const ROBERTA_MODEL_TYPES: readonly string[] = ['roberta', 'xlm-roberta', 'camembert'];

/** The position ids of `ids`: 0..T−1, or RoBERTa's, counted from paddingIdx + 1 over the non-padding tokens. */
export function bertPositionIds(ids: readonly number[], paddingIdx: number | undefined): number[] {
  if (paddingIdx === undefined) return ids.map((_, i) => i);
  let seen = 0;
  return ids.map((id) => (id === paddingIdx ? paddingIdx : paddingIdx + ++seen));
}

interface Norm {
  weight: Tensor;
  bias: Tensor;
}

interface Affine {
  weight: Tensor; // [out, in]
  bias: Tensor; // [out]
}

interface BertLayer {
  query: Affine;
  key: Affine;
  value: Affine;
  attnOut: Affine;
  attnNorm: Norm;
  intermediate: Affine;
  output: Affine;
  outNorm: Norm;
}

export interface BertWeights {
  word: Tensor; // [V, E]
  position: Tensor; // [P, E]
  tokenType?: Tensor; // [types, E]
  embNorm: Norm;
  layers: BertLayer[];
}

export interface BertCheckpoint {
  config: BertConfig;
  weights: BertWeights;
}

/** Names that identify a BERT checkpoint (after the prefix). */
export const BERT_MARKERS = ['embeddings.word_embeddings.weight', 'encoder.layer.0.attention.self.query.weight'] as const;

function countLayers(tensors: Map<string, Tensor>, prefix: string, fileName: string): number {
  const found = new Set<number>();
  const pattern = /^encoder\.layer\.(\d+)\.attention\.self\.query\.weight$/;
  for (const name of tensors.keys()) {
    if (!name.startsWith(prefix)) continue;
    const m = pattern.exec(name.slice(prefix.length));
    if (m) found.add(Number(m[1]));
  }
  for (let i = 0; i < found.size; i++) {
    if (!found.has(i)) throw modelError(MODEL_ERRORS.bertLayersMissing, fileName, [...found].sort((a, b) => a - b).join(', '), i);
  }
  return found.size;
}

/** Reads and shape-checks a BERT checkpoint whose names start with `prefix` ('' or 'bert.'). */
export function readBert(
  tensors: Map<string, Tensor>,
  prefix: string,
  config: ConfigObject | undefined,
  fileName: string,
  configName = 'config.json',
): BertCheckpoint {
  const p = new ParamReader(tensors, prefix, fileName, msg(MODEL_ERRORS.aBertCheckpoint));
  const word = p.get('embeddings.word_embeddings.weight', [null, null]);
  const vocabSize = p.dim('embeddings.word_embeddings.weight', word, 0);
  const E = p.dim('embeddings.word_embeddings.weight', word, 1);
  const position = p.get('embeddings.position_embeddings.weight', [null, E]);
  const tokenType = p.optional('embeddings.token_type_embeddings.weight', [null, E]);
  const nLayer = countLayers(tensors, prefix, fileName);
  const cfgLayers = configPositiveInt(config, ['num_hidden_layers', 'n_layer'], configName);
  if (cfgLayers !== undefined && cfgLayers !== nLayer) {
    throw modelError(MODEL_ERRORS.bertLayers, configName, cfgLayers, fileName, nLayer);
  }
  const cfgHidden = configPositiveInt(config, ['hidden_size'], configName);
  if (cfgHidden !== undefined && cfgHidden !== E) {
    throw modelError(MODEL_ERRORS.bertHidden, configName, cfgHidden, fileName, vocabSize, E);
  }
  const heads = resolveHeads(config, ['num_attention_heads', 'n_head'], E, configName);
  const intermediate = p.dim('encoder.layer.0.intermediate.dense.weight', p.get('encoder.layer.0.intermediate.dense.weight', [null, E]), 0);
  const positionType = configString(config, ['position_embedding_type'], configName) ?? 'absolute';
  if (positionType !== 'absolute') {
    throw modelError(MODEL_ERRORS.bertPositions, configName, positionType);
  }
  // Old BERT checkpoints (Google's conversion) name LayerNorm parameters gamma/beta.
  const norm = (name: string): Norm => ({
    weight: p.getAny([`${name}.weight`, `${name}.gamma`], [E]),
    bias: p.getAny([`${name}.bias`, `${name}.beta`], [E]),
  });
  const affine = (name: string, outF: number, inF: number): Affine => ({ weight: p.get(`${name}.weight`, [outF, inF]), bias: p.get(`${name}.bias`, [outF]) });
  const layers: BertLayer[] = [];
  for (let i = 0; i < nLayer; i++) {
    const at = `encoder.layer.${i}`;
    layers.push({
      query: affine(`${at}.attention.self.query`, E, E),
      key: affine(`${at}.attention.self.key`, E, E),
      value: affine(`${at}.attention.self.value`, E, E),
      attnOut: affine(`${at}.attention.output.dense`, E, E),
      attnNorm: norm(`${at}.attention.output.LayerNorm`),
      intermediate: affine(`${at}.intermediate.dense`, intermediate, E),
      output: affine(`${at}.output.dense`, E, intermediate),
      outNorm: norm(`${at}.output.LayerNorm`),
    });
  }
  const modelType = configString(config, ['model_type'], configName) ?? 'bert';
  let paddingIdx: number | undefined;
  if (ROBERTA_MODEL_TYPES.includes(modelType)) {
    const pad = config?.pad_token_id;
    if (typeof pad !== 'number' || !Number.isInteger(pad) || pad < 0) throw modelError(MODEL_ERRORS.bertPad, configName, modelType, jsonText(pad));
    paddingIdx = pad;
  }
  return {
    config: {
      modelType,
      paddingIdx,
      nLayer,
      nHead: heads.nHead,
      hidden: E,
      intermediate,
      vocabSize,
      maxPositions: p.dim('embeddings.position_embeddings.weight', position, 0),
      typeVocabSize: tokenType?.shape[0] ?? 0,
      layerNormEps: configNonNegative(config, ['layer_norm_eps'], configName) ?? 1e-12,
      activation: checkActivation(configString(config, ['hidden_act'], configName) ?? 'gelu', configName),
      headsSource: heads.source,
    },
    weights: { word, position, tokenType, embNorm: norm('embeddings.LayerNorm'), layers },
  };
}

export interface BertRunOptions extends ForwardOptions {
  /** Segment ids (default all 0), one per token. */
  tokenTypeIds?: readonly number[];
}

export interface BertOutputs {
  /** [embeddings output, layer 1 output, …], each (T, E). */
  hiddenStates: Tensor[];
  layers: LayerAttention[];
  /** The mask applied: padded keys when an attention mask was given (BERT is never causal). */
  mask: MaskSpec;
}

/**
 * Runs BERT on one sequence. `attentionMask` (1 = token, 0 = padding) masks the padded keys. Short runs keep
 * every layer's probabilities; long ones (options.materialiseBytes) run each layer tiled.
 */
export async function bertForward(checkpoint: BertCheckpoint, ids: readonly number[], options: BertRunOptions = {}): Promise<BertOutputs> {
  const { config: c, weights: w } = checkpoint;
  const T = ids.length;
  const positions = bertPositionIds(ids, c.paddingIdx);
  checkLength(positions.reduce((a, b) => Math.max(a, b), 0) + 1, c.maxPositions, c.paddingIdx === undefined ? 'BERT' : 'RoBERTa');
  const E = c.hidden;
  const hd = E / c.nHead;
  const x = gatherRows(w.word, ids); // (T, E)
  addInPlace(x.data, gatherRows(w.position, positions).data);
  if (w.tokenType) {
    const types = options.tokenTypeIds ?? new Array<number>(T).fill(0);
    if (types.length !== T) throw new Error(`BERT: ${types.length} token type ids for ${T} tokens`);
    addInPlace(x.data, gatherRows(w.tokenType, types).data);
  } else if (options.tokenTypeIds?.some((t) => t !== 0)) {
    throw new Error('BERT: token type ids were given but the checkpoint has no token_type_embeddings');
  }
  const eps = c.layerNormEps;
  let hidden = layerNorm(x, { weight: w.embNorm.weight, bias: w.embNorm.bias, eps }); // (T, E)
  const mask = maskSpec(T, { attentionMask: options.attentionMask });
  const materialise = shouldMaterialise(c.nLayer, c.nHead, T, options.materialiseBytes);
  const scale = 1 / Math.sqrt(hd);
  const hiddenStates: Tensor[] = [hidden];
  const layers: LayerAttention[] = [];
  for (let l = 0; l < c.nLayer; l++) {
    await options.checkpoint?.();
    const b = w.layers[l];
    if (b === undefined) throw new Error(`BERT: layer ${l} is missing (${w.layers.length} layers read for ${c.nLayer})`);
    const q = splitHeads(linear(hidden, b.query.weight, b.query.bias, `BERT layer ${l} query`), c.nHead); // (H, T, hd)
    const k = splitHeads(linear(hidden, b.key.weight, b.key.bias, `BERT layer ${l} key`), c.nHead); // (H, T, hd)
    const v = splitHeads(linear(hidden, b.value.weight, b.value.bias, `BERT layer ${l} value`), c.nHead); // (H, T, hd)
    const { context, probs } = await attendLayer(q, k, v, { mask, scale, materialise, needContext: true, checkpoint: options.checkpoint }); // (H, T, hd), (H, T, T) | undefined
    layers.push({ q, k, v, scale, probs });
    const attn = linear(mergeHeads(context!), b.attnOut.weight, b.attnOut.bias, `BERT layer ${l} attention.output`); // (T, E)
    addInPlace(attn.data, hidden.data);
    const a = layerNorm(attn, { weight: b.attnNorm.weight, bias: b.attnNorm.bias, eps }); // (T, E)
    const inter = linear(a, b.intermediate.weight, b.intermediate.bias, `BERT layer ${l} intermediate`); // (T, I)
    activateInPlace(inter.data, c.activation);
    const out = linear(inter, b.output.weight, b.output.bias, `BERT layer ${l} output`); // (T, E)
    addInPlace(out.data, a.data);
    hidden = layerNorm(out, { weight: b.outNorm.weight, bias: b.outNorm.bias, eps }); // (T, E)
    hiddenStates.push(hidden);
    options.progress?.((l + 1) / c.nLayer, msg(ENGINE_PROGRESS.bertLayer, l + 1, c.nLayer));
  }
  return { hiddenStates, layers, mask };
}

export interface BertModelOptions {
  fileName: string;
  prefix: string;
  tensors: Map<string, Tensor>;
  config?: ConfigObject;
  configName?: string;
  tokenizerJson?: string;
}

const NO_TOKENIZER_HINT = msg(MODEL_ERRORS.bertNoTokenizer);

/** The AttentionModel of a BERT checkpoint: bidirectional, padding via the attention mask. */
export function createBertModel(options: BertModelOptions): AttentionModel {
  const { fileName, prefix, tensors } = options;
  const checkpoint = readBert(tensors, prefix, options.config, fileName, options.configName);
  const c = checkpoint.config;
  const hasTokenizer = options.tokenizerJson !== undefined;
  // Without a tokenizer.json the words tokenizer stands in: its tokens carry no ids, so forward() explains.
  const tokenizer: TokenizerChoice = hasTokenizer ? { kind: 'tokenizer-json', json: options.tokenizerJson! } : { kind: 'words' };
  const roberta = c.paddingIdx !== undefined;
  const familyName = c.modelType === 'xlm-roberta' ? 'XLM-RoBERTa' : roberta ? 'RoBERTa' : 'BERT';
  const info: ModelInfo = {
    family: c.modelType === 'xlm-roberta' ? 'xlm-roberta' : roberta ? 'roberta' : 'bert',
    ...describedAs(
      msg(MODEL_TEXT.checkpointName, familyName, fileName, countOf(c.nLayer, 'layer'), countOf(c.nHead, 'head'), c.hidden),
      sentences(
        checkpointSummary(fileName, familyName, prefix, formatCount(countParameters(tensors, prefix)), tensors.size),
        msg(
          MODEL_TEXT.bertShape,
          countOf(c.nLayer, 'layer'),
          c.hidden,
          countOf(c.nHead, 'head'),
          c.hidden / c.nHead,
          c.headsSource,
          c.intermediate,
          c.activation,
          String(c.layerNormEps),
        ),
        c.paddingIdx !== undefined
          ? msg(MODEL_TEXT.robertaAttention, c.vocabSize, c.maxPositions, c.paddingIdx)
          : msg(MODEL_TEXT.bertAttention, c.vocabSize, c.maxPositions),
        hasTokenizer ? msg(MODEL_TEXT.tokenizerJson) : msg(MODEL_TEXT.noTokenizer, msg(MODEL_TEXT.bertNoTokenizerHint)),
      ),
    ),
    nLayer: c.nLayer,
    nHead: c.nHead,
    dModel: c.hidden,
    headDim: c.hidden / c.nHead,
    causal: false,
    tokenizer: hasTokenizer ? 'tokenizer.json' : 'ids only (no tokenizer.json)',
    vocabSize: c.vocabSize,
    maxPositions: c.maxPositions,
  };
  return {
    info,
    tokenizer,
    async forward(tokens: TokenInfo[], forwardOptions: ForwardOptions = {}): Promise<ForwardResult> {
      const ids = tokenIds(tokens, c.vocabSize, 'BERT', hasTokenizer ? msg(MODEL_ERRORS.needsIdsFromTokenizerJson, 'BERT') : NO_TOKENIZER_HINT);
      const out = await bertForward(checkpoint, ids, forwardOptions);
      return forwardResult(out.layers, c.nHead, ids.length, out.mask, 'BERT');
    },
  };
}
