// Turns the debugger's mask switches into one additive bias [L, S] (0, -inf, or a float mask's values).
import { broadcastStrides, isBoolTensor } from '../tensor';
import { checkMaskTensor } from '../validate';
import type { CausalAlign, MaskChoice } from './options';

const FN = 'traceAttention';

/** How a padding mask was built and read, for the panel to show next to the grid. */
export interface PaddingReading {
  padLast: number;
  builtAs: 'true-means-pad' | 'true-means-keep';
  passedTo: 'sdpa' | 'mha';
  /** The boolean mask as built, one entry per key [S]. */
  built: number[];
  /** True when the reading API's convention differs from the building one: queries then see only padding. */
  inverted: boolean;
}

export interface BuiltMask {
  /** [L, S] additive: 0 (allowed), -inf (masked) or a float mask's value. */
  bias: Float32Array;
  /** Causal masks among the choices (their alignments). */
  causalAligns: CausalAlign[];
  /** Keys the padding masks call padding (sorted, unique). */
  paddedKeys: number[];
  padding: PaddingReading[];
}

export function buildMask(choices: readonly MaskChoice[], L: number, S: number): BuiltMask {
  const bias = new Float32Array(L * S);
  const causalAligns: CausalAlign[] = [];
  const padded = new Set<number>();
  const padding: PaddingReading[] = [];
  for (const choice of choices) {
    if (typeof choice !== 'object' || choice === null) throw new Error(`${FN}: each mask must be an object with a kind, got ${String(choice)}`);
    switch (choice.kind) {
      case 'none':
        break;
      case 'causal':
        if (choice.align !== 'top-left' && choice.align !== 'bottom-right') {
          throw new Error(`${FN}: causal mask align must be 'top-left' or 'bottom-right', got ${String(choice.align)}`);
        }
        causalAligns.push(choice.align);
        applyCausal(bias, L, S, choice.align === 'top-left' ? 0 : S - L);
        break;
      case 'padding':
        padding.push(applyPadding(bias, L, S, choice, padded));
        break;
      case 'explicit':
        applyExplicit(bias, L, S, choice);
        break;
      case 'sliding-window':
        if (!Number.isInteger(choice.size) || choice.size < 1)
          throw new Error(`${FN}: sliding-window mask size must be a positive integer, got ${String(choice.size)}`);
        applySlidingWindow(bias, L, S, choice.size);
        break;
      default:
        throw new Error(`${FN}: unknown mask kind ${String((choice as { kind?: unknown }).kind)}`);
    }
  }
  return { bias, causalAligns, paddedKeys: [...padded].sort((a, b) => a - b), padding };
}

/** -inf where key j > i + shift. */
function applyCausal(bias: Float32Array, L: number, S: number, shift: number): void {
  for (let i = 0; i < L; i++) {
    for (let j = Math.max(0, i + shift + 1); j < S; j++) bias[i * S + j] = -Infinity;
  }
}

/** -inf outside a sliding window of `size` keys: keys j ≤ i − size and keys after the query (j > i). */
function applySlidingWindow(bias: Float32Array, L: number, S: number, size: number): void {
  for (let i = 0; i < L; i++) {
    for (let j = 0; j < S; j++) if (j > i || j <= i - size) bias[i * S + j] = -Infinity;
  }
}

function applyPadding(bias: Float32Array, L: number, S: number, choice: Extract<MaskChoice, { kind: 'padding' }>, padded: Set<number>): PaddingReading {
  const { padLast, builtAs, passedTo } = choice;
  if (!Number.isInteger(padLast) || padLast < 0 || padLast > S) {
    throw new Error(`${FN}: padding mask padLast must be an integer in 0..${S} (the number of keys), got ${String(padLast)}`);
  }
  if (builtAs !== 'true-means-pad' && builtAs !== 'true-means-keep') {
    throw new Error(`${FN}: padding mask builtAs must be 'true-means-pad' or 'true-means-keep', got ${String(builtAs)}`);
  }
  if (passedTo !== 'sdpa' && passedTo !== 'mha') {
    throw new Error(`${FN}: padding mask passedTo must be 'sdpa' or 'mha', got ${String(passedTo)}`);
  }
  const firstPad = S - padLast;
  for (let j = firstPad; j < S; j++) padded.add(j);
  // The mask as built: True marks padding ('true-means-pad') or real tokens ('true-means-keep').
  const built = Array.from({ length: S }, (_, j) => (j >= firstPad === (builtAs === 'true-means-pad') ? 1 : 0));
  // How the receiving API reads True: SDPA attn_mask = attend, MHA key_padding_mask = ignore.
  const trueMeansAttend = passedTo === 'sdpa';
  for (let j = 0; j < S; j++) {
    const allowed = trueMeansAttend ? built[j] === 1 : built[j] === 0;
    if (!allowed) for (let i = 0; i < L; i++) bias[i * S + j] = -Infinity;
  }
  const inverted = (builtAs === 'true-means-pad') === trueMeansAttend;
  return { padLast, builtAs, passedTo, built, inverted };
}

function applyExplicit(bias: Float32Array, L: number, S: number, choice: Extract<MaskChoice, { kind: 'explicit' }>): void {
  const { mask } = choice;
  checkMaskTensor(FN, 'mask', mask);
  const trueMeans = choice.trueMeans ?? 'attend';
  if (trueMeans !== 'attend' && trueMeans !== 'ignore') {
    throw new Error(`${FN}: explicit mask trueMeans must be 'attend' or 'ignore', got ${String(trueMeans)}`);
  }
  const [rs, cs] = broadcastStrides(mask.shape, [L, S], `${FN}: mask`).slice(-2);
  for (let i = 0; i < L; i++) {
    for (let j = 0; j < S; j++) {
      const m = mask.data[i * rs + j * cs];
      if (isBoolTensor(mask)) {
        const allowed = trueMeans === 'attend' ? m !== 0 : m === 0;
        if (!allowed) bias[i * S + j] = -Infinity;
      } else {
        bias[i * S + j] += m;
      }
    }
  }
}
