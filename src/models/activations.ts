// The MLP activations HF configs name (transformers' ACT2FN keys), applied in place: GPT-2's "gelu_new"
// (tanh approximation) and BERT's "gelu" (exact erf form) are the two that matter; a few common others are
// accepted so a config that names them is not refused.
import { geluScalar, geluTanhScalar } from '../engine/ops/activations';
import { MODEL_ERRORS, modelError } from './errors';

export type ActivationName = 'gelu' | 'gelu_new' | 'gelu_pytorch_tanh' | 'gelu_fast' | 'quick_gelu' | 'relu' | 'silu' | 'swish' | 'tanh';

const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

const ACTIVATIONS: Record<ActivationName, (x: number) => number> = {
  gelu: geluScalar, // x·Φ(x), torch's F.gelu (approximate='none')
  gelu_new: geluTanhScalar, // 0.5x(1 + tanh(√(2/π)(x + 0.044715x³)))
  gelu_pytorch_tanh: geluTanhScalar,
  gelu_fast: (x) => 0.5 * x * (1 + Math.tanh(x * SQRT_2_OVER_PI * (1 + 0.044715 * x * x))),
  quick_gelu: (x) => x / (1 + Math.exp(-1.702 * x)),
  relu: (x) => (x > 0 ? x : 0),
  silu: (x) => x / (1 + Math.exp(-x)),
  swish: (x) => x / (1 + Math.exp(-x)),
  tanh: Math.tanh,
};

export const ACTIVATION_NAMES = Object.keys(ACTIVATIONS) as ActivationName[];

/** Checks a config's activation name; throws naming the supported ones. */
export function checkActivation(name: string, fileName = 'config.json'): ActivationName {
  if (!(ACTIVATION_NAMES as string[]).includes(name)) {
    throw modelError(MODEL_ERRORS.activation, fileName, name, ACTIVATION_NAMES.join(', '));
  }
  return name as ActivationName;
}

/** Applies the activation to every element of `data` in place (float64 math, one float32 rounding). */
export function activateInPlace(data: Float32Array, name: ActivationName): void {
  const f = ACTIVATIONS[name];
  for (let i = 0; i < data.length; i++) data[i] = f(data[i]);
}
