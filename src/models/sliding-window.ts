// Sliding-window attention (Mistral, Gemma 2/3 local layers, Qwen2 with use_sliding_window): on top of the
// causal mask, query i sees only the last `window` keys, i − window < j ≤ i (HF's sliding_window_overlay:
// kv_idx > q_idx − sliding_window). Pure.

/** The first key query i may see under a window of `window` keys (itself included). */
export function slidingWindowStart(i: number, window: number): number {
  return Math.max(0, i - window + 1);
}

/** Whether query i may see key j under a causal sliding window. */
export function inSlidingWindow(i: number, j: number, window: number): boolean {
  return j <= i && j > i - window;
}

/** Checks a config's window: a positive integer. */
export function checkWindow(window: number, what: string): number {
  if (!Number.isInteger(window) || window < 1) throw new Error(`${what}: sliding_window must be a positive integer, got ${window}`);
  return window;
}
