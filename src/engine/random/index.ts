// Public face of the seeded generators: a PyTorch-compatible CPU generator and the seeded attention weights
// built on it. The engine's index re-exports this module. (The float32 FMA and the AVX2 log/sincos emulation
// are internals of the generator; import them from their files if needed.)
export { TorchGenerator, normalizeTorchSeed, RANDN_VECTOR_THRESHOLD, MAX_DRAW_ELEMENTS, type TorchSeed } from './torch-generator';
export {
  seededAttentionWeights,
  firstSeenIds,
  SEEDED_ATTENTION_LIMITS,
  type SeededAttentionOptions,
  type SeededAttentionWeights,
  type SeededToken,
} from './seeded-attention';
export { MT19937 } from './mt19937';
