import type { Tensor } from '../engine/tensor';
import type { SourceDType } from './dtype';

export interface TensorDescription {
  name: string;
  shape: number[];
  numel: number;
  /** The dtype the tensor had in its file ('float16', 'float64', ...); the Tensor itself is float32. */
  dtype: SourceDType;
}

/** Records the file dtype of tensors the loaders return, for describeTensors (no effect on the tensors). */
const sourceDtypeOf = new WeakMap<Tensor, SourceDType>();

export function rememberSourceDtypes(tensors: ReadonlyMap<string, Tensor>, dtypes: ReadonlyMap<string, SourceDType>): void {
  for (const [name, t] of tensors) {
    const d = dtypes.get(name);
    if (d) sourceDtypeOf.set(t, d);
  }
}

/**
 * One row per tensor, in the map's order, for the UI's weight list. The dtype comes from `sourceDtypes`
 * when given (e.g. `readTensorsWithMetadata(...).sourceDtypes`, which survives a trip to another thread),
 * else from what the loader recorded for that very Tensor object, else 'float32'.
 */
export function describeTensors(tensors: ReadonlyMap<string, Tensor>, sourceDtypes?: ReadonlyMap<string, SourceDType>): TensorDescription[] {
  return [...tensors].map(([name, t]) => ({
    name,
    shape: [...t.shape],
    numel: t.shape.reduce((a, b) => a * b, 1),
    dtype: sourceDtypes?.get(name) ?? sourceDtypeOf.get(t) ?? 'float32',
  }));
}
