// Public API of the attention engine (pure TypeScript; no vscode, DOM or node imports).
export * from './tensor';
export * from './ops';
export * from './masks';
export {
  scaledDotProductAttention,
  computeAttention,
  shouldTile,
  MAX_MATERIALISED_WEIGHTS,
  TILED_ABOVE_WEIGHTS,
  type SdpaOptions,
  type SdpaResult,
  type SdpaOutput,
  type AttentionResult,
} from './sdpa';
export { prepareAttention, type AttnMask, type AttentionInputOptions, type PreparedAttention } from './attention-core';
export { getKernel, setKernel, initKernels, type Kernel, type KernelName, type KernelPreference } from './kernels';
export { multiheadAttention, projectHeads, type MhaParams, type MhaOptions, type MhaResult } from './mha';
export * from './trace';
export { flashAttention, tiledAttention, attentionRows, DEFAULT_BLOCK_SIZE, type FlashOptions, type FlashResult, type AttentionRowsOptions } from './flash';
export * from './random';
