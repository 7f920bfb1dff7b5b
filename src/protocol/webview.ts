// Messages between the extension host and the inspector panel's webview: one union per direction,
// and a validator for everything that comes from the webview (it is untrusted input).
import type { AttentionTrace, MaskChoice, ScaleChoice, TraceOptions } from '../engine/trace';
import type { AttentionResult, RunResult } from './engine';

export type PanelMode = 'grid' | 'debugger';

/**
 * What was inspected, kept with the panel's saved state so that a reloaded window repeats the same
 * inspection: the text, and where it came from (a document URI and the text's offset in it).
 */
export interface InspectedText {
  text: string;
  uri?: string;
  offset?: number;
}

/** Longest inspected text kept for a reload (characters). */
export const MAX_KEPT_TEXT = 1 << 20;

/** A kept inspection, checked: non-empty text within MAX_KEPT_TEXT, an optional URI string and offset. */
export function inspectedText(v: unknown): InspectedText | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as { text?: unknown; uri?: unknown; offset?: unknown };
  if (typeof o.text !== 'string' || o.text.length === 0 || o.text.length > MAX_KEPT_TEXT) return undefined;
  const out: InspectedText = { text: o.text };
  if (typeof o.uri === 'string' && o.uri.length <= 4096) {
    out.uri = o.uri;
    if (typeof o.offset === 'number' && Number.isInteger(o.offset) && o.offset >= 0) out.offset = o.offset;
  }
  return out;
}

/** The panel's own request to the engine, answered with a `reply`. */
export type PanelRequest =
  /** One head's weights; rowStart/rowEnd/downsample as in AttentionRequest (a long run's head is asked downsampled). */
  | { kind: 'attention'; layer: number; head: number; rowStart?: number; rowEnd?: number; downsample?: number }
  | { kind: 'trace'; layer: number; head: number; options: TraceOptions };

export type ToWebviewMessage =
  /** A run to show (first load, a new inspection, or after the webview was re-created). */
  | { type: 'run'; run: RunResult; mode: PanelMode; focus?: { layer: number; head: number }; l10n: Record<string, string>; inspected?: InspectedText }
  | { type: 'reply'; inReplyTo: number; ok: true; result: AttentionResult | AttentionTrace }
  | { type: 'reply'; inReplyTo: number; ok: false; error: string }
  /** Work in progress on the host side (null when done). */
  | { type: 'busy'; message: string | null }
  /** Nothing to show (e.g. after a reload when the run could not be repeated). */
  | { type: 'empty'; message: string; l10n: Record<string, string> };

export type ExportFormat = 'png' | 'svg' | 'csv' | 'json';

export type FromWebviewMessage =
  | { type: 'ready' }
  | { type: 'request'; messageId: number; request: PanelRequest }
  /** The webview no longer needs the answer to request `messageId` (a newer one superseded it). */
  | { type: 'cancel'; messageId: number }
  /** `content` is text for svg/csv/json and base64 (no data: prefix) for png. */
  | { type: 'export'; format: ExportFormat; suggestedName: string; content: string }
  /** Select token `index` of the current run in the editor it came from. */
  | { type: 'revealToken'; index: number }
  /** Put `text` on the clipboard (the Python snippets' Copy buttons). */
  | { type: 'copyText'; text: string }
  /** Highlight the user's source lines of a debugger step of a recorded call (run.recorded.stepSources); with
   * `reveal`, open the file there (the step's link was clicked). The host looks the lines up in its own run. */
  | { type: 'recordedStep'; layer: number; step: number; reveal: boolean }
  /** Show batch element `batch` of the recorded call the panel shows (run.recorded). */
  | { type: 'recordedBatch'; batch: number }
  /** Mode or focus changed: the host remembers it for a re-created webview. */
  | { type: 'viewState'; mode: PanelMode; focus?: { layer: number; head: number } };

const MAX_EXPORT_CHARS = 256 * 1024 * 1024;
const MAX_COPY_CHARS = 4 * 1024 * 1024;
/** Largest side of a downsampled head the panel may ask for (the engine's limit too). */
const MAX_DOWNSAMPLE = 4096;

type Check<T> = (v: unknown) => T;

class Invalid extends Error {}

const fail = (what: string): never => {
  throw new Invalid(what);
};
const obj = (v: unknown, what: string): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(`${what} is not an object`);
const int = (v: unknown, what: string, min = 0, max = Number.MAX_SAFE_INTEGER): number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(`${what} is not an integer in [${min}, ${max}]`);
const finite = (v: unknown, what: string): number => (typeof v === 'number' && Number.isFinite(v) ? v : fail(`${what} is not a finite number`));
const str = (v: unknown, what: string, maxLen: number): string =>
  typeof v === 'string' && v.length <= maxLen ? v : fail(`${what} is not a string of at most ${maxLen} characters`);
const oneOf = <T extends string | number>(v: unknown, what: string, options: readonly T[]): T =>
  options.includes(v as T) ? (v as T) : fail(`${what} must be one of ${options.join(', ')}`);

const headRef: Check<{ layer: number; head: number }> = (v) => {
  const o = obj(v, 'focus');
  return { layer: int(o.layer, 'layer', 0, 4096), head: int(o.head, 'head', 0, 4096) };
};

function scaleChoice(v: unknown): ScaleChoice {
  const o = obj(v, 'scale');
  const kind = oneOf(o.kind, 'scale.kind', ['inv-sqrt-dk', 'inv-dk', 'none', 'custom', 'model'] as const);
  if (kind === 'custom') return { kind, value: finite(o.value, 'scale.value') };
  return { kind }; // 'model': the engine fills in the model's own scale
}

function maskChoice(v: unknown): MaskChoice {
  const o = obj(v, 'mask');
  const kind = oneOf(o.kind, 'mask.kind', ['none', 'causal', 'padding', 'sliding-window'] as const);
  if (kind === 'none') return { kind };
  if (kind === 'sliding-window') return { kind, size: int(o.size, 'mask.size', 1, 1 << 24) };
  if (kind === 'causal') return { kind, align: oneOf(o.align, 'mask.align', ['top-left', 'bottom-right'] as const) };
  return {
    kind,
    padLast: int(o.padLast, 'mask.padLast', 0, 1 << 20),
    builtAs: oneOf(o.builtAs, 'mask.builtAs', ['true-means-pad', 'true-means-keep'] as const),
    passedTo: oneOf(o.passedTo, 'mask.passedTo', ['sdpa', 'mha'] as const),
  };
}

/** Only the switches the debugger offers; explicit mask tensors never come from the webview. */
function traceOptions(v: unknown): TraceOptions {
  const o = obj(v, 'options');
  const out: TraceOptions = {};
  if (o.scale !== undefined) out.scale = scaleChoice(o.scale);
  if (o.temperature !== undefined) {
    const t = finite(o.temperature, 'temperature');
    if (t <= 0) fail('temperature must be positive');
    out.temperature = t;
  }
  if (o.mask !== undefined) {
    if (Array.isArray(o.mask)) {
      if (o.mask.length > 4) fail('too many masks');
      out.mask = o.mask.map(maskChoice);
    } else out.mask = maskChoice(o.mask);
  }
  // The model's own steps: the RoPE switch (the engine fills in the frequencies) and the soft-cap (null = off).
  if (o.rope !== undefined) {
    const apply = obj(o.rope, 'rope').apply;
    out.rope = { apply: typeof apply === 'boolean' ? apply : fail('rope.apply must be true or false') };
  }
  if (o.softcap !== undefined) {
    if (o.softcap === null) out.softcap = null;
    else {
      const cap = finite(o.softcap, 'softcap');
      if (cap <= 0) fail('softcap must be positive');
      out.softcap = cap;
    }
  }
  if (o.softmaxDim !== undefined) out.softmaxDim = oneOf(o.softmaxDim, 'softmaxDim', [-1, -2] as const);
  if (o.fullyMaskedRows !== undefined) out.fullyMaskedRows = oneOf(o.fullyMaskedRows, 'fullyMaskedRows', ['nan', 'zero'] as const);
  if (o.saturationThreshold !== undefined) out.saturationThreshold = finite(o.saturationThreshold, 'saturationThreshold');
  if (o.causalIntent !== undefined) out.causalIntent = oneOf(o.causalIntent, 'causalIntent', ['top-left', 'bottom-right', 'none'] as const);
  return out;
}

function panelRequest(v: unknown): PanelRequest {
  const o = obj(v, 'request');
  const kind = oneOf(o.kind, 'request.kind', ['attention', 'trace'] as const);
  const { layer, head } = headRef(o);
  if (kind === 'attention') {
    const out: PanelRequest = { kind, layer, head };
    if (o.rowStart !== undefined) out.rowStart = int(o.rowStart, 'request.rowStart', 0, 1 << 24);
    if (o.rowEnd !== undefined) out.rowEnd = int(o.rowEnd, 'request.rowEnd', 1, 1 << 24);
    if (out.rowStart !== undefined && out.rowEnd !== undefined && out.rowStart >= out.rowEnd) fail('request.rowStart must be below request.rowEnd');
    if (o.downsample !== undefined) out.downsample = int(o.downsample, 'request.downsample', 1, MAX_DOWNSAMPLE);
    return out;
  }
  return { kind, layer, head, options: traceOptions(o.options) };
}

/**
 * Returns the message as a well-typed value, or an Error saying what was wrong. Unknown fields are
 * dropped; nothing from the webview is used before passing through here.
 */
export function parseFromWebview(v: unknown): FromWebviewMessage | Error {
  try {
    const o = obj(v, 'message');
    const type = oneOf(o.type, 'type', [
      'ready',
      'request',
      'cancel',
      'export',
      'revealToken',
      'viewState',
      'copyText',
      'recordedBatch',
      'recordedStep',
    ] as const);
    switch (type) {
      case 'ready':
        return { type };
      case 'request':
        return { type, messageId: int(o.messageId, 'messageId'), request: panelRequest(o.request) };
      case 'cancel':
        return { type, messageId: int(o.messageId, 'messageId') };
      case 'export': {
        const suggestedName = str(o.suggestedName, 'suggestedName', 200);
        if (/[\\/]|^\.\.?$/.test(suggestedName)) fail('suggestedName must be a plain file name');
        return {
          type,
          format: oneOf(o.format, 'format', ['png', 'svg', 'csv', 'json'] as const),
          suggestedName,
          content: str(o.content, 'content', MAX_EXPORT_CHARS),
        };
      }
      case 'revealToken':
        return { type, index: int(o.index, 'index', 0, 1 << 24) };
      case 'copyText':
        return { type, text: str(o.text, 'text', MAX_COPY_CHARS) };
      case 'recordedBatch':
        return { type, batch: int(o.batch, 'batch', 0, 1 << 24) };
      case 'recordedStep': {
        if (typeof o.reveal !== 'boolean') fail('reveal must be true or false');
        return { type, layer: int(o.layer, 'layer', 0, 4096), step: int(o.step, 'step', 0, 4), reveal: o.reveal as boolean };
      }
      case 'viewState':
        return { type, mode: oneOf(o.mode, 'mode', ['grid', 'debugger'] as const), ...(o.focus !== undefined ? { focus: headRef(o.focus) } : {}) };
    }
  } catch (e) {
    if (e instanceof Invalid) return new Error(`invalid message from the panel: ${e.message}`);
    throw e;
  }
}

// ----- UI strings -------------------------------------------------------------------------------------

/**
 * Every string the webview shows, in English with vscode.l10n's {0} placeholders. The host translates each
 * with vscode.l10n.t and sends the table with each run (`l10n`); the webview's t() takes only these keys.
 * A unit test checks that this list and the t('...') calls under webview/ agree, and that every key has a
 * Simplified Chinese translation in l10n/bundle.l10n.zh-cn.json.
 */
export const PANEL_STRING_KEYS = [
  // @generated-strings-start
  'Working',
  'Heads',
  'Opened head',
  'Attention weights of the opened head',
  'Debugger',
  'Export the current view as {0}',
  'View',
  'Colour weights from 0 to 1 instead of 0 to the largest weight shown',
  'Scale 0–1',
  'Export',
  'Heatmap',
  'Lines',
  'Close head',
  'Step through this head',
  'Head view',
  'All heads of the layer',
  'Select some text and run “Attention Inspector: Inspect Selection”.',
  'The panel could not read the results: {0}',
  'Attention Inspector',
  '{0} tokens · {1} layers × {2} heads · {3} ms',
  'Layer {0} · head {1}',
  'Attention weights of layer {0}, head {1}: queries down, keys across',
  'weight',
  'Loading layer {0}, head {1}…',
  'Could not load the head: {0}',
  'Could not compute the trace: {0}',
  'Query {0} “{1}” → key {2} “{3}”',
  'weight {0}',
  'layer {0}, head {1}',
  'score',
  '{0} tokens',
  'The weights of every head were not sent at once for this run: open a head and export it.',
  'Too many weights for one CSV file: open a head and export it.',
  'Nothing to export yet.',
  'Could not export: {0}',
  'Switches',
  'Steps',
  'Matrix of the current step',
  'Previous step',
  'Next step',
  'Step-through debugger',
  'Per-row statistics',
  'Computing…',
  'shape {0}',
  '{0}: {1}, shape {2}',
  'output',
  'Rows: {0}',
  'No problems found with these switches.',
  'Layer',
  'Head',
  'Scale',
  '1/√d_k (correct)',
  '1/d_k',
  'none (×1)',
  'custom…',
  'Custom scale',
  'Temperature',
  'Causal mask',
  'none',
  'top-left (SDPA is_causal)',
  'bottom-right (KV cache)',
  'Padding: last N tokens',
  'Mask built as',
  'True = padding',
  'True = real token',
  'Passed to',
  'MHA key_padding_mask (True = ignore)',
  'SDPA attn_mask (True = attend)',
  'Softmax dim',
  '-1 (over keys, correct)',
  '-2 (over queries)',
  'Rows with every key masked',
  'NaN (plain softmax, MHA)',
  '0 (SDPA safe softmax)',
  'Meant to be causal',
  'as the causal mask says',
  'no',
  'yes, top-left',
  'yes, bottom-right',
  'Reset switches',
  'Mask',
  'Softmax',
  'Attention heads: one row per layer, one column per head',
  'H{0}',
  'L{0}',
  'Layer {0}, head {1}: mean entropy {2} nats. Press Enter to open.',
  'Mean entropy {0} nats (ln T = {1})',
  'Click to open',
  'masked (−∞)',
  'NaN',
  'Colour scale',
  'Colour scale from {0} to {1}',
  'Lines from query tokens (left) to key tokens (right); opacity is the weight',
  'Query tokens on the left, key tokens on the right; line opacity = weight.',
  'Query {0} “{1}”',
  'Key {0} “{1}”',
  '#',
  'Query row',
  'Query',
  'Query token',
  'Row sum',
  'Σ_j weight[i, j]: 1 when the softmax ran over the keys (dim -1).',
  'Entropy / ln n',
  'Entropy of the row in nats, against ln(n) for its n visible keys: the largest entropy a row can have (uniform attention).',
  'Max weight → key',
  'The largest weight of the row and the key it goes to; near 1 means one-hot (saturated).',
  'Score var / d_k',
  'Variance of the raw scores q·k of the row, against d_k (about d_k for unit-variance q and k); after the scale, the variance of the scaled scores.',
  'On padding',
  'Weight the row gives to padding keys.',
  'On future',
  'Weight the row gives to keys after its own position.',
  '{0} visible keys',
  'raw variance {0} = {1} × d_k; scaled variance {2}',
  'Scores: variance {0} = {1} × d_k (d_k = {2}); after × {3}: variance {4}.',
  '1 · scores = QKᵀ',
  '2 · × scale',
  '3 · + mask',
  '4 · softmax',
  '5 · × V',
  '1/√d_k = 1/√{0}',
  '1/d_k = 1/{0}',
  'no scale',
  'custom',
  'scores = Q · Kᵀ',
  'Q {0} · Kᵀ {1} → {2}',
  'Each cell is the dot product of a query vector and a key vector (d_k = {0}).',
  ' / temperature {0}',
  'scaled = scores × {0} ({1}){2}',
  'Scaling keeps the variance of the scores near 1, so the softmax does not saturate: variance {0} before, {1} after.',
  'masked = scaled + mask',
  'No key is masked.',
  '{0} of {1} cells are masked (−∞, striped): the softmax gives them weight 0.',
  'weights = softmax(masked, dim={0})',
  'dim -1: every query row sums to 1 over the keys.',
  'dim -2: every key column sums to 1 over the queries, and the rows do not.',
  'output = weights · V',
  '{0} · V {1} → {2}',
  'Each output row is a mix of the value vectors, weighted by its row of weights.',
  'Query {0}, dimension {1}',
  'output = {0}',
  'Query {0} → key {1}',
  'q·k = {0}',
  '{0} × {1} = {2}',
  '{0} + {1} = {2}',
  'visible',
  'masked',
  'These query rows of weights do not sum to 1 (off by up to {0}).',
  'The softmax ran over dim -2 (the queries), so each key column sums to 1 instead of each query row: use dim=-1.',
  'Rows do not sum to 1',
  'These queries put all their weight on padding keys.',
  'The padding mask was built with True = pad, but F.scaled_dot_product_attention reads True = attend: invert it (~mask), or pass it to nn.MultiheadAttention as key_padding_mask.',
  "The padding mask was built with True = keep, but nn.MultiheadAttention's key_padding_mask reads True = ignore: invert it (~mask), or pass it to SDPA as attn_mask.",
  'Queries attend only to padding',
  'These rows put at least {0} of their weight on a single key: the softmax is saturated (one-hot) and its gradients vanish.',
  'The scores are multiplied by {0}, while 1/sqrt(d_k) = {1}.',
  'Saturated (one-hot) rows',
  'These rows are NaN: every key is masked there, and a softmax over nothing but -inf is 0/0, which ·V then spreads into the output.',
  'These rows are NaN: the scores contain NaN or +inf.',
  'NaN rows',
  'query i sees keys j ≤ i',
  'query i sees keys j ≤ i + (S − L)',
  'no causal mask is applied.',
  'the causal mask is aligned {0}.',
  'These queries give weight to future keys although the attention is meant to be causal ({0}: {1}), but {2}',
  'Future tokens visible',
  'Rows with no visible key',
  "These rows may attend to no key at all; SDPA's safe softmax silently gives them weight 0 and output 0 instead of NaN.",
  'Score variance too high',
  'The scaled scores have variance {0} (raw q·k: {1} with d_k = {2}). q·k of unit-variance vectors has variance about d_k; only the 1/sqrt(d_k) scale brings it back near 1.',
  'Showing {0} tokens as {1}×{2} blocks: each cell is the mean of {3}×{3} weights.',
  'Queries {0} → keys {1}',
  'mean weight {0} over {1}×{2} weights',
  'The lines view draws a line for every weight: {0} tokens are too many for it (at most {1}). Use the heatmap.',
  'The step-through debugger shows at most {0} tokens; this run has {1}. Inspect a shorter selection to step through it.',
  'A block-averaged view has too many cells for an SVG picture: export it as PNG or CSV.',
  'Entropy {0} nats against ln n = {1}; the scaled scores spread {2} (standard deviation), where about 1 is usual.',
  'These rows are almost uniform: entropy {0} nats against ln n = {1}, the most a row over n keys can have. The scaled scores spread only {2} (standard deviation; raw q·k: {3}, about √d_k = {4}), where 1/√d_k gives about 1, so the softmax averages the values instead of attending.',
  'Almost uniform rows (flat attention)',
  'weight (colours stretched: the strongest colour is the largest weight, {0}, not 1)',
  'Python that draws these tensors',
  'Copy',
  'What these switches mean in PyTorch',
  'causal {0}',
  '{0} padding',
  'scale {0}',
  'temperature {0}',
  'no mask',
  'softmax dim {0}',
  'The table shows the first {0} rows and {1} columns of {2} × {3}; export CSV for all of them.',
  'Table view (for screen readers and exact numbers)',
  'Query \\ key',
  "the model's own",
  'on (as the model runs)',
  'off',
  'Rotate q and k by position (RoPE)',
  'Soft-cap the scores at ±{0}',
  'Sliding window of {0} keys (local layers)',
  'Model steps',
  'H{0} · kv {1}',
  'Shares key/value head {0} with heads {1}',
  'Batch element',
  '{0} of {1}',
  '{0} queries × {1} keys · {2} layers × {3} heads · {4} ms',
  'The lines view joins each token to itself: this call has {0} queries and {1} keys. Use the heatmap.',
  'Show this step in the source: {0}',
  'Reference: the engine on your captured q, k, v and mask',
  'Your tensor at this step',
  'Your q·kᵀ, as your matmul gave it',
  'Your scores at this step: q·kᵀ, never scaled in your code',
  'Your scores after your scale',
  'Your softmax input',
  'Your scores at this step (already your softmax input)',
  'Your weights as multiplied with V (changed after the softmax)',
  'Your weights',
  'Your output',
  'Kept as block averages of {0} × {1} cells, compared with the reference’s block means.',
  'Agrees with the reference: max |yours − reference| = {0}.',
  'First at query {0}, dimension {1}: yours {2}, reference {3}.',
  'First at query {0} → key {1}: yours {2}, reference {3}.',
  'Differs from the reference in {0} of {1} cells; max |yours − reference| = {2}.',
  'Queries {0}–{1} → keys {2}–{3} (block average)',
  'yours {0}',
  'yours {0} · reference {1}',
  // @generated-strings-end
] as const;

export type PanelStringKey = (typeof PANEL_STRING_KEYS)[number];
