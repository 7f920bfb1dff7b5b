export { matmul } from './matmul';
export { softmax, type SoftmaxOptions } from './softmax';
export { linear, layerNorm, type LayerNormOptions } from './linear';
export { gelu, geluNew, erf, erfc } from './activations';
export { add, mul, mulScalar, sum, mean, gatherRows } from './elementwise';
