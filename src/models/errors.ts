// The model and config errors the user sees, as templates and arguments (src/protocol/message.ts, l10n comment
// `error`): the English rendering is the error's message (the CLI's output); the editor shows the parts in the
// display language. Each names the file or config field, what was found and what the family needs.
import { defineTemplates, MessageError, msg, type MessageArg } from '../protocol/message';

export const MODEL_ERRORS = defineTemplates(
  {
    unrecognised:
      '{0}: {1} tensors, none named like GPT-2 ({2}) or BERT ({3}) or RoBERTa / XLM-R (the same names) or a RoPE decoder ({4}) or an attention layer ({5}, or q_proj/k_proj/v_proj, query/key/value or W_q/W_k/W_v weights); {6}',
    unrecognisedOne:
      '{0}: {1} tensor, none named like GPT-2 ({2}) or BERT ({3}) or RoBERTa / XLM-R (the same names) or a RoPE decoder ({4}) or an attention layer ({5}, or q_proj/k_proj/v_proj, query/key/value or W_q/W_k/W_v weights); {6}',
    holdsNoTensors: 'the file holds no tensors',
    holds: 'it holds {0}',
    holdsMore: 'it holds {0}, … ({1} more)',
    modelTypeMismatch: "{0}: model_type is '{1}' but {2} has {3} tensor names; only model_type {4} is supported for them",
    modelTypeMismatchMany: "{0}: model_type is '{1}' but {2} has {3} tensor names; only model_type {4} are supported for them",
    decoderWithoutLayers: "{0}: {1} names model_type '{2}' but no tensors are named like its layers ({3}); {4}",
    decoderWithoutConfig:
      "{0}: the tensors are a RoPE decoder's ({1}, …) but there is no {2} beside them to say which family and settings; supported decoders: model_type {3}",
    decoderUnsupported:
      "{0}: the tensors are a RoPE decoder's ({1}, …) but {2} names model_type '{3}', which is not supported; supported decoders: model_type {4}",
    tensorMissing: "{0}: tensor '{1}' is missing ({2} needs it, shape {3})",
    tensorNoDim: "{0}: tensor '{1}' has shape {2}, with no dim {3} ({4} needs it)",
    tensorShape: "{0}: tensor '{1}' has shape {2} but {3} needs {4}",
    aGpt2Checkpoint: 'a GPT-2 checkpoint',
    aBertCheckpoint: 'a BERT checkpoint',
    anAttentionLayer: 'an attention layer',
    configNotText: '{0}: expected the text of a JSON file, got {1}',
    configNotJson: '{0}: not valid JSON ({1})',
    configNotObject: '{0}: expected a JSON object of model settings, got {1}',
    anArray: 'an array',
    notPositiveInt: '{0}: "{1}" must be a positive integer, got {2}',
    notNonNegative: '{0}: "{1}" must be a finite number ≥ 0, got {2}',
    notBoolean: '{0}: "{1}" must be true or false, got {2}',
    notString: '{0}: "{1}" must be a string, got {2}',
    headsDoNotDivide: '{0}: {1} heads do not divide the model width {2} (each head needs width / heads dimensions)',
    blocksMissing: '{0}: GPT-2 blocks are numbered {1}; block {2} is missing',
    gpt2Layers: '{0}: n_layer is {1} but {2} holds {3} GPT-2 blocks',
    gpt2Embd: "{0}: n_embd is {1} but {2}'s wte.weight is {3}×{4}",
    gpt2Inner: "{0}: n_inner is {1} but {2}'s h.0.mlp.c_fc.weight has {3} outputs",
    gpt2LmHead: "{0}: tensor '{1}' has shape {2} but GPT-2's lm_head needs [?, {3}]",
    bertLayersMissing: '{0}: BERT layers are numbered {1}; layer {2} is missing',
    bertLayers: '{0}: num_hidden_layers is {1} but {2} holds {3} BERT layers',
    bertHidden: "{0}: hidden_size is {1} but {2}'s word embeddings are {3}×{4}",
    bertPositions: "{0}: position_embedding_type '{1}' is not supported (only 'absolute' position embeddings)",
    bertPad: '{0}: model_type \'{1}\' needs "pad_token_id" (its positions start after it), got {2}',
    packedRows: "{0}: tensor '{1}' has {2} rows, not a multiple of 3 (rows W_q; W_k; W_v)",
    activation: "{0}: activation '{1}' is not supported (expected one of {2})",
    decoderTensorMissing: "{0}: tensor '{1}' is missing ({2} needs it, shape {3})",
    decoderTensorShape: "{0}: tensor '{1}' has shape {2} but {3} needs {4} (from config.json)",
    decoderLmHead: "{0}: tensor '{1}' has shape {2} but the lm_head needs [{3}, {4}]",
    untiedWithoutHead: "{0}: config.json says tie_word_embeddings is false but there is no '{1}'",
    extraLayers: "{0}: holds more layers than num_hidden_layers {1} in config.json ('{2}' exists)",
    configKeyMissing: '{0}: "{1}" is missing (a {2} config needs it)',
    kvHeads: '{0}: num_key_value_heads {1} does not divide num_attention_heads {2}',
    noHeadDim: '{0}: no head_dim, and num_attention_heads {1} does not divide hidden_size {2}',
    positiveOrNull: '{0}: "{1}" must be a positive number or null, got {2}',
    slidingWindow: '{0}: layers use sliding-window attention but "sliding_window" is {1}, not a number of keys',
    layerTypes: '{0}: "layer_types" must list {1} entries of {2}, got {3}',
    rotaryFactor: '{0}: "partial_rotary_factor" must be in (0, 1], got {1}',
    ropeParameters: '{0}: "rope_parameters" must be an object',
    ropeTheta: '{0}: rope_theta must be a positive number, got {1}',
    ropeFactor: '{0}: rope_type \'{1}\' needs a positive "factor", got {2}',
    llama3Key: '{0}: rope_type \'llama3\' needs a positive "{1}", got {2}',
    ropeType: "{0}: rope_type '{1}' is not supported (supported: default, linear, llama3)",
    noTokenId: '{0}: token {1} ({2}) has no vocabulary id',
    withHint: '{0}; {1}',
    idOutOfRange: '{0}: token id {1} at position {2} is out of range (the vocabulary has ids 0..{3})',
    noTokensToRun: '{0}: there are no tokens to run',
    tooManyPositions: '{0}: {1} tokens but the model has only {2} positions',
    aFamilyCheckpoint: 'a {0} checkpoint',
    gpt2NeedsIds: 'GPT-2 needs ids from its tokenizer (or --ids)',
    needsIdsFromTokenizerJson: '{0} needs ids from its tokenizer.json (or --ids)',
    noTokenizer:
      'this checkpoint came without a tokenizer.json, so it can only run on token ids (--ids) — put its tokenizer.json beside the weights to inspect text',
    bertNoTokenizer:
      'this BERT checkpoint came without a tokenizer.json, so it can only run on token ids (--ids 101,2023,102) — put its tokenizer.json beside the weights to inspect text',
  },
  'error',
);

/** An Error whose message is `template` filled with `args` (English), carrying its parts for the editor. */
export function modelError(template: (typeof MODEL_ERRORS)[keyof typeof MODEL_ERRORS], ...args: MessageArg[]): MessageError {
  return new MessageError(msg(template, ...args));
}

/** A value from config.json as written there, for a message ("null", "\"x\"", "undefined" when it is absent). */
export function jsonText(v: unknown): string {
  return String(JSON.stringify(v));
}
