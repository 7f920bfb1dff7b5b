// The panel's view state: what is open and how the debugger's switches are set. Kept with the webview
// API's setState, so it survives the panel being hidden (the webview is then re-created) and a window
// reload (VS Code hands it to the serializer, which reads `mode`). Anything read back is sanitised: it may
// come from an older version of the panel.
import type { MaskChoice, ScaleChoice, TraceOptions } from '../src/engine/trace';
import { type InspectedText, type PanelMode, inspectedText } from '../src/protocol/webview';

export type GridView = 'heads' | 'heatmap' | 'lines';
export type StepIndex = 0 | 1 | 2 | 3 | 4;
export const STEP_COUNT = 5;

/** The debugger's switches as the form shows them (turned into TraceOptions by traceOptionsOf). */
export interface DebuggerSwitches {
  /** 'model': the model's own scale (e.g. Gemma's query_pre_attn_scalar^−½), filled in by the engine. */
  scale: 'inv-sqrt-dk' | 'inv-dk' | 'none' | 'custom' | 'model';
  customScale: number;
  temperature: number;
  causal: 'none' | 'top-left' | 'bottom-right';
  /** Padding: the last N tokens (0 = no padding mask). */
  padLast: number;
  padBuiltAs: 'true-means-pad' | 'true-means-keep';
  padPassedTo: 'sdpa' | 'mha';
  softmaxDim: -1 | -2;
  fullyMaskedRows: 'nan' | 'zero';
  /** Whether the computation is meant to be causal (drives the "future tokens visible" check). */
  causalIntent: 'auto' | 'none' | 'top-left' | 'bottom-right';
  /** The model's own steps, where it has them: rotate q and k (RoPE), soft-cap the scores, the sliding window. */
  rope: boolean;
  softcap: boolean;
  slidingWindow: boolean;
}

export interface PanelState {
  version: 1;
  /** Read by the host's serializer: keep this name and its values. */
  mode: PanelMode;
  focus?: { layer: number; head: number };
  view: GridView;
  /** Lines view: all heads of the focused layer overlaid, or the focused head only. */
  linesAllHeads: boolean;
  /** Sequential colour scale from 0 to 1 instead of 0 to the matrix's largest weight. */
  unitScale: boolean;
  /** The same for the debugger's weights, on by default there: a flat (near-uniform) row must look flat. */
  debuggerUnitScale: boolean;
  step: StepIndex;
  switches: DebuggerSwitches;
  cursor?: { row: number; col: number };
  /** What the shown run inspected (read by the host's serializer to repeat it after a reload). */
  inspected?: InspectedText;
}

export const DEFAULT_SWITCHES: DebuggerSwitches = {
  scale: 'inv-sqrt-dk',
  customScale: 1,
  temperature: 1,
  causal: 'none',
  padLast: 0,
  padBuiltAs: 'true-means-pad',
  padPassedTo: 'mha',
  softmaxDim: -1,
  fullyMaskedRows: 'nan',
  causalIntent: 'auto',
  rope: true,
  softcap: true,
  slidingWindow: true,
};

export function defaultState(mode: PanelMode = 'grid'): PanelState {
  return { version: 1, mode, view: 'heads', linesAllHeads: false, unitScale: false, debuggerUnitScale: true, step: 0, switches: { ...DEFAULT_SWITCHES } };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pick = <T>(v: unknown, options: readonly T[], fallback: T): T => (options.includes(v as T) ? (v as T) : fallback);
const nat = (v: unknown, max: number): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max ? v : undefined);
const positive = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback);
const finite = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

export function sanitizeSwitches(v: unknown): DebuggerSwitches {
  const o = isObj(v) ? v : {};
  const d = DEFAULT_SWITCHES;
  return {
    scale: pick(o.scale, ['inv-sqrt-dk', 'inv-dk', 'none', 'custom', 'model'] as const, d.scale),
    customScale: finite(o.customScale, d.customScale),
    temperature: positive(o.temperature, d.temperature),
    causal: pick(o.causal, ['none', 'top-left', 'bottom-right'] as const, d.causal),
    padLast: nat(o.padLast, 1 << 20) ?? d.padLast,
    padBuiltAs: pick(o.padBuiltAs, ['true-means-pad', 'true-means-keep'] as const, d.padBuiltAs),
    padPassedTo: pick(o.padPassedTo, ['sdpa', 'mha'] as const, d.padPassedTo),
    softmaxDim: pick(o.softmaxDim, [-1, -2] as const, d.softmaxDim),
    fullyMaskedRows: pick(o.fullyMaskedRows, ['nan', 'zero'] as const, d.fullyMaskedRows),
    causalIntent: pick(o.causalIntent, ['auto', 'none', 'top-left', 'bottom-right'] as const, d.causalIntent),
    rope: o.rope !== false,
    softcap: o.softcap !== false,
    slidingWindow: o.slidingWindow !== false,
  };
}

/** A state read back from setState (or anything else): always a valid PanelState. */
export function sanitizeState(v: unknown): PanelState {
  const o = isObj(v) ? v : {};
  const s = defaultState(pick(o.mode, ['grid', 'debugger'] as const, 'grid'));
  if (isObj(o.focus)) {
    const layer = nat(o.focus.layer, 4096),
      head = nat(o.focus.head, 4096);
    if (layer !== undefined && head !== undefined) s.focus = { layer, head };
  }
  s.view = pick(o.view, ['heads', 'heatmap', 'lines'] as const, 'heads');
  s.linesAllHeads = o.linesAllHeads === true;
  s.unitScale = o.unitScale === true;
  s.debuggerUnitScale = o.debuggerUnitScale !== false;
  s.step = pick(o.step, [0, 1, 2, 3, 4] as const, 0);
  s.switches = sanitizeSwitches(o.switches);
  if (isObj(o.cursor)) {
    const row = nat(o.cursor.row, 1 << 20),
      col = nat(o.cursor.col, 1 << 20);
    if (row !== undefined && col !== undefined) s.cursor = { row, col };
  }
  const inspected = inspectedText(o.inspected);
  if (inspected) s.inspected = inspected;
  return s;
}

/** Clamps the state to a run's shape (a focus or cursor past the end of a smaller run is dropped). */
export function fitStateToRun(s: PanelState, nLayer: number, nHead: number, seqLen: number, queries = seqLen): PanelState {
  const out = { ...s, switches: { ...s.switches } };
  if (out.focus && (out.focus.layer >= nLayer || out.focus.head >= nHead)) delete out.focus;
  if (out.cursor && (out.cursor.row >= queries || out.cursor.col >= seqLen)) delete out.cursor;
  if (out.switches.padLast > seqLen) out.switches.padLast = seqLen;
  if ((out.view === 'heatmap' || out.view === 'lines') && !out.focus) out.view = 'heads';
  return out;
}

/**
 * The switches as the engine's trace options. `window` is the traced layer's sliding window (null or absent:
 * full attention); the model's RoPE and soft-cap apply unless switched off (the engine knows the model's).
 */
export function traceOptionsOf(sw: DebuggerSwitches, window?: number | null): TraceOptions {
  const scale: ScaleChoice = sw.scale === 'custom' ? { kind: 'custom', value: sw.customScale } : { kind: sw.scale };
  const mask: MaskChoice[] = [];
  if (sw.causal !== 'none') mask.push({ kind: 'causal', align: sw.causal });
  if (window && sw.slidingWindow) mask.push({ kind: 'sliding-window', size: window });
  if (sw.padLast > 0) mask.push({ kind: 'padding', padLast: sw.padLast, builtAs: sw.padBuiltAs, passedTo: sw.padPassedTo });
  const opts: TraceOptions = { scale, temperature: sw.temperature, softmaxDim: sw.softmaxDim, fullyMaskedRows: sw.fullyMaskedRows };
  if (mask.length > 0) opts.mask = mask;
  if (sw.causalIntent !== 'auto') opts.causalIntent = sw.causalIntent;
  if (!sw.rope) opts.rope = { apply: false };
  if (!sw.softcap) opts.softcap = null;
  return opts;
}
