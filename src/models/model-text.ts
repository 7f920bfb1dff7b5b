// A model's name and description (ModelInfo.name / detail) as templates and arguments under the l10n comment
// `model`: the engine builds the parts, the CLI prints their English rendering (ModelInfo.name / detail), the
// editor renders them in the display language (src/host/model-text.ts). Technical tokens (file names, d_model,
// activations, numbers) are arguments; a phrase that varies is its own template. A sentence whose clauses are
// optional is its clauses concatenated (CONCAT: templates with no words, so a translation may only reorder or
// drop the spaces), and a description is its sentences joined by SENTENCES ('{0} {1}', without spaces in zh-cn).
import type { ModelInfo } from '../protocol/engine';
import { defineTemplates, inDomain, msg, renderMessage, type MessageParts, type Template } from '../protocol/message';
import { MODEL_ERRORS } from './errors';

export const MODEL_TEXT = defineTemplates(
  {
    layer: '{0} layer',
    layers: '{0} layers',
    head: '{0} head',
    heads: '{0} heads',
    block: '{0} block',
    blocks: '{0} blocks',
    queryHead: '{0} query head',
    queryHeads: '{0} query heads',
    kvHead: '{0} key/value head',
    kvHeads: '{0} key/value heads',

    seededName: 'Seeded (seed {0}, {1} heads, d_model {2})',
    checkpointName: '{0} {1} ({2} × {3}, d_model {4})',
    decoderName: '{0} ({1} × {2}, d_model {3})',
    attentionLayerName: 'Attention layer {0} ({1}, d_model {2})',

    seededDetail: 'One self-attention layer with weights drawn by torch.manual_seed({0}); head dim {1}.',

    checkpoint: '{0}: {1} checkpoint, {2} parameters in {3} tensors.',
    checkpointPrefixed: "{0}: {1} checkpoint (names prefixed '{2}'), {3} parameters in {4} tensors.",
    headsFrom: 'from {0}',
    headsChosen: 'from the number of heads chosen when loading',
    headsAssumedWidth:
      "assumed: no config.json gives the number of heads, so the default rule applies, width {0} / {1} dims per head; put the model's config.json beside the weights to be sure",
    headsAssumedDivisor:
      "assumed: no config.json gives the number of heads, so the default rule applies, the largest divisor of width {0} that keeps heads at least {1} wide, or 1 head below width {1}; put the model's config.json beside the weights to be sure",
    tokenizerGpt2: 'Tokenizer: GPT-2 byte-level BPE.',
    tokenizerJson: 'Tokenizer: tokenizer.json.',
    noTokenizer: 'No tokenizer: {0}.',
    // The hints that also end the errors of a model without a tokenizer, declared here for the `model` comment.
    noTokenizerHint: MODEL_ERRORS.noTokenizer,
    bertNoTokenizerHint: MODEL_ERRORS.bertNoTokenizer,

    gpt2Shape: '{0}, d_model {1}, {2} of {3} dims ({4}), MLP {5} wide with {6}, LayerNorm eps {7}.',
    gpt2Attention: 'Vocabulary {0}, {1} positions; causal attention {2}.',
    scaled: 'scaled by 1/√d_head',
    scaledByLayer: 'scaled by 1/√d_head, and by 1/(layer+1)',
    unscaled: 'without scaling',
    unscaledByLayer: 'without scaling, and by 1/(layer+1)',

    bertShape: '{0}, hidden {1}, {2} of {3} dims ({4}), intermediate {5} with {6}, LayerNorm eps {7}.',
    bertAttention: 'Vocabulary {0}, {1} positions; bidirectional attention, padding masked through the attention mask.',
    robertaAttention: 'Vocabulary {0}, {1} positions (counted from padding id {2} + 1); bidirectional attention, padding masked through the attention mask.',

    decoderSummary: '{0}: {1} checkpoint, {2} parameters.',
    decoderShape: '{0}, d_model {1}, {2} sharing {3} ({4} per group), head_dim {5}, MLP {6} wide with {7}, RMSNorm eps {8}.',
    rope: 'RoPE θ {0}',
    ropeScaled: 'RoPE θ {0} with {1} scaling',
    ropePartial: 'RoPE θ {0} on {1} of {2} dims',
    ropeScaledPartial: 'RoPE θ {0} with {1} scaling on {2} of {3} dims',
    attnScale: '; scale {0}',
    attnSoftcap: '; attention soft-cap {0}',
    finalSoftcap: ', final soft-cap {0}',
    slidingWindow: '; sliding window {0} on {1} of {2} layers',
    qkNorm: '; q/k RMSNorm',
    sentence: '{0}.',
    decoderAttention: 'Vocabulary {0}, {1} positions; causal attention.',

    attentionLayer: '{0}: one attention layer, {1}; E {2}, {3} of {4} dims ({5}).',
    attentionLayerAt: "{0}: one attention layer at '{1}', {2}; E {3}, {4} of {5} dims ({6}).",
    moreLayer: 'The file holds {0} more attention layer ({1}); this one is shown.',
    moreLayers: 'The file holds {0} more attention layers ({1}); this one is shown.',
    seededEmbeddings:
      'The file has no embeddings: each distinct token gets a row of torch.manual_seed({0}); torch.randn(n_distinct, {1}), in first-seen order.',
    noOutProj: 'No output projection in the file (not needed for the attention weights).',
    layoutInProj: 'nn.MultiheadAttention (in_proj_weight)',
    layoutSeparate: 'nn.MultiheadAttention (q_proj_weight, k_proj_weight, v_proj_weight)',
    layoutProj: 'q_proj / k_proj / v_proj linear layers',
    layoutQueryKeyValue: 'query / key / value linear layers',
    layoutUpperW: 'W_q / W_k / W_v matrices (read as nn.Linear weights [out, in]: x·W_qᵀ)',
    layoutLowerW: 'w_q / w_k / w_v matrices (read as nn.Linear weights [out, in]: x·w_qᵀ)',
    layoutSingleMatrix: "a single [3E, E] matrix '{0}' read as nn.MultiheadAttention's in_proj_weight",

    recordedName: 'Recorded: {0} ({1})',
    recordedCall: 'call #{0}',
    recordedCalls1: '{0} recorded {1} call from {2}, batch element {3} of {4}',
    recordedCallsN: '{0} recorded {1} calls from {2}, batch element {3} of {4}',
    recordedShape1: ', {0} query × {1} keys',
    recordedShapeN: ', {0} queries × {1} keys',
    recordedTorch: '; torch {0}',
  },
  'model',
);

/** Clauses written one after another (CONCAT[n]: n placeholders, nothing between them). */
const CONCAT = defineTemplates(
  { 2: '{0}{1}', 3: '{0}{1}{2}', 4: '{0}{1}{2}{3}', 5: '{0}{1}{2}{3}{4}', 6: '{0}{1}{2}{3}{4}{5}', 7: '{0}{1}{2}{3}{4}{5}{6}' },
  'model',
);

/** Sentences one after another, a space between them in English (SENTENCES[n]: n placeholders). */
const SENTENCES = defineTemplates({ 2: '{0} {1}', 3: '{0} {1} {2}', 4: '{0} {1} {2} {3}', 5: '{0} {1} {2} {3} {4}' }, 'model');

function joined(table: Readonly<Record<number, Template>>, parts: readonly MessageParts[]): MessageParts {
  const [first] = parts;
  if (parts.length === 1 && first !== undefined) return first;
  const template = table[parts.length];
  if (template === undefined) throw new Error(`model text: no template joins ${parts.length} pieces`);
  return msg(template, ...parts);
}

/** Clauses of one sentence written one after another. */
export const concat = (...parts: MessageParts[]): MessageParts => joined(CONCAT, parts);

/** A description made of sentences. */
export const sentences = (...parts: MessageParts[]): MessageParts => joined(SENTENCES, parts);

const NOUNS = {
  layer: [MODEL_TEXT.layer, MODEL_TEXT.layers],
  head: [MODEL_TEXT.head, MODEL_TEXT.heads],
  block: [MODEL_TEXT.block, MODEL_TEXT.blocks],
  'query head': [MODEL_TEXT.queryHead, MODEL_TEXT.queryHeads],
  'key/value head': [MODEL_TEXT.kvHead, MODEL_TEXT.kvHeads],
} as const;

/** "1 head", "2 heads" as a message. */
export function countOf(n: number, noun: keyof typeof NOUNS): MessageParts {
  const [one, many] = NOUNS[noun];
  return msg(n === 1 ? one : many, n);
}

/** The first sentence of a checkpoint's description: its file, family, prefix (if any), parameters and tensors. */
export function checkpointSummary(fileName: string, family: string, prefix: string, parameters: string, tensors: number): MessageParts {
  return prefix
    ? msg(MODEL_TEXT.checkpointPrefixed, fileName, family, prefix, parameters, tensors)
    : msg(MODEL_TEXT.checkpoint, fileName, family, parameters, tensors);
}

/** ModelInfo's name and description: the parts and their English rendering (what the CLI prints). */
export function describedAs(nameParts: MessageParts, detailParts: MessageParts): Pick<ModelInfo, 'name' | 'nameParts' | 'detail' | 'detailParts'> {
  return { name: renderMessage(nameParts), nameParts, detail: renderMessage(detailParts), detailParts };
}

/**
 * A model's name as an argument of a message under another comment (an engine error, a progress text): its
 * parts marked as model text, so that the editor shows the name in the display language, the CLI in English.
 */
export function modelNameArg(info: Pick<ModelInfo, 'nameParts'>): MessageParts {
  return inDomain(info.nameParts, 'model');
}
