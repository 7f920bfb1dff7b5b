// The recorder's runtime findings and the evidence they give the static linter, as templates and arguments
// (src/protocol/message.ts, l10n comment `runtime`): the English rendering is the finding's message (what the
// CLI prints); the editor shows the parts in the display language (Problems, the Recorded Attention view).
// Arguments are measured numbers, code and positions; a phrase that varies is its own template.
import { defineTemplates } from '../protocol/message';

export const RUNTIME_MESSAGES = defineTemplates(
  {
    // ATT001
    softmaxAxis:
      'softmax normalised dim={0}, the query axis: the matmul with v at line {1} sums over the other axis (the keys){2}. Normalise over the key axis (dim=-1 for q @ k.transpose(-2, -1)).',
    rowSums: '; the weights each query gives the values sum to {0} instead of 1',
    // ATT003 / ATT004
    unscaled:
      'the scores reach the softmax unscaled (measured scale {0}); scaled dot-product attention multiplies q·kᵀ by {1}, otherwise the softmax saturates as d_k grows.',
    byDk: 'the scores are scaled by 1/d_k (measured {0} = 1/{1}) instead of {2}.',
    bySqrtDk: 'the scores are multiplied by sqrt(d_k) (measured {0}) instead of divided: the scale should be {1}.',
    byDModel: 'the scores are scaled by 1/sqrt(d_model) = 1/sqrt({0}×{1}) (measured {2}) instead of the per-head {3}.',
    // ATT006
    afterSoftmax:
      'the attention weights are changed after the softmax ({0}) and not renormalised: {1} of {2} query rows sum to {3} instead of 1. Mask the scores before the softmax.',
    // ATT007
    fillFailed: '{0} with {1} on {2} scores failed: the value does not fit {2}{3}. Use torch.finfo(scores.dtype).min.',
    largest: ' (largest {0})',
    valueOverflows: 'the value {0} does not fit {1} (largest {2}) and became {3}inf in the scores. Use torch.finfo(scores.dtype).min.',
    nanRows:
      '{0} of {1} query rows have every key masked and their attention weights are NaN (first: {2}); NaN spreads to every later layer. Leave at least one key visible, or fill with a finite value and zero those rows afterwards.',
    blindRowsSdpa: '{0} of {1} rows of real (non-padding) queries have every key masked (first: {2}): they attend nothing and SDPA returns zeros for them.',
    blindRows:
      '{0} of {1} rows of real (non-padding) queries have every key masked (first: {2}): they attend nothing and their weights are spread evenly over all keys.',
    firstQuery: 'query {0} of batch element {1}',
    firstRealQuery: 'query {0} of batch element {1} (a real token)',
    // ATT008
    sdpaCausalOne:
      'scaled_dot_product_attention(is_causal=True) with {0} query and {1} keys: the causal mask is aligned top-left, so query 0 sees only key 0 of {1} (with a KV cache it should see all {2}). Pass an explicit mask aligned to the end (or is_causal=False for one new token).',
    sdpaCausal:
      'scaled_dot_product_attention(is_causal=True) with {0} queries and {1} keys: the causal mask is aligned top-left, so query 0 sees only key 0 of {1} (with a KV cache it should see all {2}). Pass an explicit mask aligned to the end (or is_causal=False for one new token).',
    trilWithCache:
      'the causal mask is aligned top-left with {0} queries and {1} keys: query 0 sees only key 0 (with a KV cache the last query should see all {1} keys). Offset the triangle by {2}: torch.ones(T, S).tril({2}).',
    // ATT002
    causalWrongWaySdpa:
      'the causal mask points the wrong way: query t attends keys {0}…{1} (the future) and none of 0…t-1. The mask (True = attend) should allow keys j ≤ i, e.g. torch.ones(T, T).tril().bool().',
    causalWrongWay:
      'the causal mask points the wrong way: query t attends keys {0}…{1} (the future) and none of 0…t-1. The mask should allow keys j ≤ i, e.g. torch.ones(T, T).tril().bool().',
    paddingAt: 'position {0} of batch element {1}, which holds padding id {2}',
    paddingAtMany: 'positions {0} of batch element {1}, which hold padding id {2}',
    readingSdpa: ' (for scaled_dot_product_attention a bool mask means True = attend)',
    readingMha: ' (for nn.MultiheadAttention key_padding_mask means True = ignore)',
    paddingShare: '{0}% of the weight of real queries lands on {1}',
    paddingMayAttend: 'real queries may attend {0}',
    paddingInverted: 'the padding mask is inverted: it masks every real token and leaves only the padding visible; {0}{1}.',
    paddingLeaks: 'the mask lets real queries attend padding while masking real tokens: {0}{1}.',
    // Evidence that a statically flagged site is right (src/record/evidence.ts)
    fineSoftmaxAxis: 'the recorded run normalised dim={0}, the key axis the matmul with v sums over',
    fineScale: 'the recorded run scaled q·kᵀ by {0} = 1/sqrt(d_k), d_k = {1}',
    fineCausal: 'the recorded mask lets each query see exactly the keys up to its own position (causal, pointing the right way)',
    finePadding: 'the recorded mask hid every padding key (id {0}) from every real query and no real key before it',
  },
  'runtime',
);

/** Errors of a recorded trace's files (the captured tensors, the recorded tokenizer), shown when a call is opened. */
export const TRACE_FILE_ERRORS = defineTemplates(
  {
    fileProblem: '{0}: {1}',
    unreadableFor: 'cannot be read ({0}), needed for {1}',
    problemFor: '{0} ({1})',
    shape: 'holds shape {0} but the trace says {1} ({2})',
    dtype: 'holds {0} values but the trace says {1} ({2})',
    blocks: 'block averages of shape {0} do not fit {1} in {2}×{3} blocks ({4})',
    holdsNoArray: 'holds no array ({0})',
    tensorOfCall: 'tensor {0} of call {1}',
    tokenizerNotSaved: 'was not saved with the recording (only fast tokenizers have a tokenizer.json)',
    unreadable: 'cannot be read ({0})',
    tokenizerTooLarge: 'is {0} bytes, over the limit of {1} for a tokenizer.json',
    notUtf8: 'is not UTF-8 text',
  },
  'error',
);
