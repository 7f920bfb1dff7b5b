// Messages between the extension host and the inspector panel's webview: one union per direction,
// and a validator for everything that comes from the webview (it is untrusted input).
import type { AttentionTrace, MaskChoice, ScaleChoice, TraceOptions } from '../engine/trace';
import type { AttentionResult, RunResult } from './engine';

export type PanelMode = 'grid' | 'debugger';

/** The panel's own request to the engine, answered with a `reply`. */
export type PanelRequest =
  | { kind: 'attention'; layer: number; head: number }
  | { kind: 'trace'; layer: number; head: number; options: TraceOptions };

export type ToWebviewMessage =
  /** A run to show (first load, a new inspection, or after the webview was re-created). */
  | { type: 'run'; run: RunResult; mode: PanelMode; focus?: { layer: number; head: number }; l10n: Record<string, string> }
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
  /** `content` is text for svg/csv/json and base64 (no data: prefix) for png. */
  | { type: 'export'; format: ExportFormat; suggestedName: string; content: string }
  /** Select token `index` of the current run in the editor it came from. */
  | { type: 'revealToken'; index: number }
  /** Mode or focus changed: the host remembers it for a re-created webview. */
  | { type: 'viewState'; mode: PanelMode; focus?: { layer: number; head: number } };

const MAX_EXPORT_CHARS = 256 * 1024 * 1024;

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
  const kind = oneOf(o.kind, 'scale.kind', ['inv-sqrt-dk', 'inv-dk', 'none', 'custom'] as const);
  if (kind === 'custom') return { kind, value: finite(o.value, 'scale.value') };
  return { kind };
}

function maskChoice(v: unknown): MaskChoice {
  const o = obj(v, 'mask');
  const kind = oneOf(o.kind, 'mask.kind', ['none', 'causal', 'padding'] as const);
  if (kind === 'none') return { kind };
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
  if (kind === 'attention') return { kind, layer, head };
  return { kind, layer, head, options: traceOptions(o.options) };
}

/**
 * Returns the message as a well-typed value, or an Error saying what was wrong. Unknown fields are
 * dropped; nothing from the webview is used before passing through here.
 */
export function parseFromWebview(v: unknown): FromWebviewMessage | Error {
  try {
    const o = obj(v, 'message');
    const type = oneOf(o.type, 'type', ['ready', 'request', 'export', 'revealToken', 'viewState'] as const);
    switch (type) {
      case 'ready':
        return { type };
      case 'request':
        return { type, messageId: int(o.messageId, 'messageId'), request: panelRequest(o.request) };
      case 'export': {
        const suggestedName = str(o.suggestedName, 'suggestedName', 200);
        if (/[\\/]|^\.\.?$/.test(suggestedName)) fail('suggestedName must be a plain file name');
        return { type, format: oneOf(o.format, 'format', ['png', 'svg', 'csv', 'json'] as const), suggestedName, content: str(o.content, 'content', MAX_EXPORT_CHARS) };
      }
      case 'revealToken':
        return { type, index: int(o.index, 'index', 0, 1 << 24) };
      case 'viewState':
        return { type, mode: oneOf(o.mode, 'mode', ['grid', 'debugger'] as const), ...(o.focus !== undefined ? { focus: headRef(o.focus) } : {}) };
    }
  } catch (e) {
    if (e instanceof Invalid) return new Error(`invalid message from the panel: ${e.message}`);
    throw e;
  }
}
