// Limits that keep a hostile file from making the loaders allocate or work without bound.
// Every limit is an option with a default that fits real GPT-2 / BERT checkpoints.

import { defineTemplates, msg, type MessageArg, type MessageParts } from '../protocol/message';

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
  /**
   * Bytes a file may make the loader produce (float32 tensors, inflated zip members, converted storages),
   * as a multiple of the file's own size (default 64); a file may always produce up to
   * `minMaterializedBytes`. Stops small files that expand: stride-0 views, zip bombs, shared zip members.
   */
  maxExpansion?: number;
  /** Bytes any file may produce whatever its size (default 64 MiB); see maxExpansion. */
  minMaterializedBytes?: number;
  /** Size of a JSON weight file (default 64 MiB), checked before the text is decoded or parsed. */
  maxJsonBytes?: number;
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
  maxExpansion: 64,
  minMaterializedBytes: 64 * 1024 * 1024,
  maxJsonBytes: 64 * 1024 * 1024,
});

/**
 * The largest `config.json` and `tokenizer.json` read beside a checkpoint (by the CLI and the extension),
 * checked on the file's size before it is read or parsed. Real ones are a few KB and 1–35 MB (Gemma's
 * tokenizer.json, the largest we know of, is 33 MB).
 */
export const MAX_CONFIG_JSON_BYTES = 4 * 1024 * 1024;
export const MAX_TOKENIZER_JSON_BYTES = 128 * 1024 * 1024;

export const JSON_SIZE_ERRORS = defineTemplates(
  {
    tooLarge: '{0} is {1} MiB, over the limit of {2} MiB; it was not parsed',
    jsonWeightFile: 'the JSON weight file',
    theFile: 'the file',
    beside: 'the {0} beside it',
  },
  'error',
);

/** The message for a JSON file refused by size before parsing (the same words everywhere). */
export function jsonTooLarge(what: MessageArg, size: number, limit: number): MessageParts {
  return msg(JSON_SIZE_ERRORS.tooLarge, what, (size / 2 ** 20).toFixed(1), limit / 2 ** 20);
}

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
