import type { Tensor } from '../engine/tensor';
import type { SourceDType } from './dtype';

export type WeightFormat = 'safetensors' | 'npy' | 'npz' | 'torch' | 'json';

/** What a format reader returns: float32 tensors plus what they were in the file. */
export interface DecodedFile {
  format: WeightFormat;
  tensors: Map<string, Tensor>;
  /** dtype of each tensor in the file, before conversion to float32. */
  sourceDtypes: Map<string, SourceDType>;
  /** safetensors `__metadata__` or the JSON format's `__metadata__`; empty for other formats. */
  metadata: Record<string, string>;
}
