// Limits that keep a hostile file from making the loaders allocate or work without bound.
// Every limit is an option with a default that fits real GPT-2 / BERT checkpoints.

export interface LoaderOptions {
  /** Total elements over all returned tensors (default 2**29 ≈ 537M, i.e. 2 GiB of float32). */
  maxTotalElements?: number;
  /** Number of tensors in one file (default 100,000). */
  maxTensors?: number;
  /** Size of a safetensors JSON header, a .npy header or a pickle (default 100 MB). */
  maxHeaderBytes?: number;
  /** Total bytes produced by inflating compressed zip members (default 2 GiB). */
  maxInflatedBytes?: number;
  /** Pickle machine: most values on the stack, marks, and memo entries (default 1,000,000). */
  maxPickleStack?: number;
  /** How deeply dicts/lists may nest around the tensors of a pickle (default 100). */
  maxNestingDepth?: number;
  /** Check the CRC-32 of every zip member that is read (default true). */
  verifyZipCrc?: boolean;
}

export type ResolvedLoaderOptions = Required<LoaderOptions>;

export const DEFAULT_LOADER_OPTIONS: ResolvedLoaderOptions = Object.freeze({
  maxTotalElements: 2 ** 29,
  maxTensors: 100_000,
  maxHeaderBytes: 100_000_000,
  maxInflatedBytes: 2 ** 31,
  maxPickleStack: 1_000_000,
  maxNestingDepth: 100,
  verifyZipCrc: true,
});

export function resolveOptions(options: LoaderOptions | undefined): ResolvedLoaderOptions {
  const out: ResolvedLoaderOptions = { ...DEFAULT_LOADER_OPTIONS };
  if (!options) return out;
  for (const key of Object.keys(DEFAULT_LOADER_OPTIONS) as (keyof LoaderOptions)[]) {
    const v = options[key];
    if (v === undefined) continue;
    if (key === 'verifyZipCrc') {
      if (typeof v !== 'boolean') throw new TypeError(`loader option verifyZipCrc must be a boolean, got ${String(v)}`);
      out.verifyZipCrc = v;
    } else {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
        throw new TypeError(`loader option ${key} must be a non-negative integer, got ${String(v)}`);
      }
      out[key] = v;
    }
  }
  return out;
}
