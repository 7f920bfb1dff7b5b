export { matmul } from './matmul';
export { softmax, type SoftmaxOptions } from './softmax';
export { linear, layerNorm, type LayerNormOptions } from './linear';
export { gelu, geluNew, erf, erfc } from './activations';
export { add, mul, mulScalar, sum, mean, gatherRows } from './elementwise';
export { ropeInverseFrequencies, ropeTables, applyRopeInPlace, unrotateRope, type RopeScaling, type RopeSpec, type RopeTables } from './rope';
export { softcapInPlace } from './softcap';
