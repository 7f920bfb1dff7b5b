// Weight loaders: bytes in, named float32 tensors out. Pure TypeScript (no node built-ins, no DOM): the
// caller reads the file. Formats: safetensors, NumPy .npy / .npz, PyTorch zip checkpoints (.pt / .bin,
// through a restricted unpickler that never executes anything) and the JSON format documented in ./json.
// Every failure is a WeightFileError whose message starts with the file name and says what is wrong.

import type { Tensor } from '../engine/tensor';
import { detectFormat, type DetectedFormat } from './detect';
import { rememberSourceDtypes } from './describe';
import type { SourceDType } from './dtype';
import { defineTemplates, errorArg, msg } from '../protocol/message';
import { fail, formatCount, WeightFileError } from './errors';
import { readJsonTensors } from './json';
import { readNpyFile } from './npy';
import { readNpz } from './npz';
import { resolveOptions, type LoaderOptions, type ResolvedLoaderOptions } from './options';
import type { DecodedFile, WeightFormat } from './result';
import { readSafetensors } from './safetensors';
import { readTorchZip } from './torch';

export { detectFormat, formatFromExtension, type DetectedFormat } from './detect';
export { describeTensors, type TensorDescription } from './describe';
export type { SourceDType } from './dtype';
export { WeightFileError } from './errors';
export { DEFAULT_LOADER_OPTIONS, type LoaderOptions } from './options';
export type { WeightFormat } from './result';

const READ_ERRORS = defineTemplates(
  {
    empty: 'file is empty',
    unforeseen: 'could not be read as {0}: {1}',
    legacyTorch:
      'this is the legacy torch.save format (before PyTorch 1.6: a bare pickle or tar archive), which is not supported; re-save it with a current PyTorch: torch.save(torch.load(path), path)',
    unrecognised:
      'unrecognised weight file ({0} bytes starting {1}); expected safetensors, .npy, .npz, a PyTorch zip checkpoint (.pt/.bin) or JSON of named tensors',
  },
  'error',
);

export interface LoadedWeights {
  format: WeightFormat;
  tensors: Map<string, Tensor>;
  /** dtype of each tensor in the file, before conversion to float32. */
  sourceDtypes: Map<string, SourceDType>;
  /** safetensors `__metadata__` (or the JSON format's); empty for .npy, .npz and torch files. */
  metadata: Record<string, string>;
}

/** Reads a weight file into named float32 tensors; throws a WeightFileError naming the file on any problem. */
export async function readTensors(bytes: Uint8Array, fileName: string, options?: LoaderOptions): Promise<Map<string, Tensor>> {
  return (await readTensorsWithMetadata(bytes, fileName, options)).tensors;
}

/** As readTensors, plus the format, each tensor's original dtype and the file's metadata. */
export async function readTensorsWithMetadata(bytes: Uint8Array, fileName: string, options?: LoaderOptions): Promise<LoadedWeights> {
  return readTensorsSync(bytes, fileName, options);
}

/** The synchronous core of readTensorsWithMetadata (for callers that cannot await, e.g. a worker loop). */
export function readTensorsSync(bytes: Uint8Array, fileName: string, options?: LoaderOptions): LoadedWeights {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`readTensors: bytes must be a Uint8Array, got ${typeof bytes}`);
  if (typeof fileName !== 'string' || fileName === '') throw new TypeError('readTensors: fileName must be a non-empty string');
  const resolved = resolveOptions(options);
  if (bytes.length === 0) fail(fileName, msg(READ_ERRORS.empty));
  const format = detectFormat(bytes, fileName);
  let decoded: DecodedFile;
  try {
    decoded = decode(format, bytes, fileName, resolved);
  } catch (e) {
    if (e instanceof WeightFileError) throw e;
    // Every expected problem is reported above; this keeps the promise of an Error that names the file
    // for anything unforeseen (e.g. the engine refusing an allocation).
    throw new WeightFileError(fileName, msg(READ_ERRORS.unforeseen, format, errorArg(e)), { cause: e });
  }
  rememberSourceDtypes(decoded.tensors, decoded.sourceDtypes);
  return decoded;
}

function decode(format: DetectedFormat, bytes: Uint8Array, fileName: string, options: ResolvedLoaderOptions): DecodedFile {
  switch (format) {
    case 'safetensors':
      return readSafetensors(bytes, fileName, options);
    case 'npy':
      return readNpyFile(bytes, fileName, options);
    case 'npz':
      return readNpz(bytes, fileName, options);
    case 'torch':
      return readTorchZip(bytes, fileName, options);
    case 'json':
      return readJsonTensors(bytes, fileName, options);
    case 'torch-legacy':
      return fail(fileName, msg(READ_ERRORS.legacyTorch));
    case 'unknown': {
      const head = Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join(' ');
      return fail(fileName, msg(READ_ERRORS.unrecognised, formatCount(bytes.length), head));
    }
  }
}

/** The formats readTensors accepts, by extension (for file pickers). */
export const WEIGHT_FILE_EXTENSIONS: readonly string[] = ['safetensors', 'npy', 'npz', 'pt', 'pth', 'bin', 'ckpt', 'json'];
