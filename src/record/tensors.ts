// Reads a call's captured tensors (.npy files of the trace folder) with the project's own .npy reader, and
// checks each against its trace entry (shape, dtype). Pure: the caller supplies the bytes of a file by name.
import type { AnyTensor, BoolTensor } from '../engine/tensor';
import { readTensorsSync, WeightFileError } from '../weights';
import { TraceError, type TensorEntry, type TraceCall } from './trace';
import { errorArg, msg, type MessageArg } from '../protocol/message';
import { TRACE_FILE_ERRORS } from './messages';

/** Bytes of a file of the trace folder by its plain name (the trace validated the name). */
export type ReadTraceFile = (fileName: string) => Uint8Array;

export interface CapturedTensor {
  tensor: AnyTensor;
  /** torch dtype at capture time ("float16", "bool", "int64", ...). */
  dtype: string;
  /** Block averages of the last two axes (not the values themselves). */
  summarised: boolean;
}

/** At most this many elements per captured tensor are read (the recorder's default cap is 4Mi). */
export const MAX_TENSOR_ELEMENTS = 2 ** 26;

const NPY_DTYPE: Readonly<Record<string, string>> = {
  float32: 'float32',
  float64: 'float64',
  float16: 'float16',
  bfloat16: 'float32',
  bool: 'bool',
  uint8: 'uint8',
  int8: 'int8',
  int16: 'int16',
  int32: 'int32',
  int64: 'int64',
};

/** Reads one captured tensor, or null when the recorder did not write it (entry.omitted). */
export function readCapturedTensor(entry: TensorEntry, readFile: ReadTraceFile, where: MessageArg): CapturedTensor | null {
  if (entry.file === null) return null;
  let bytes: Uint8Array;
  try {
    bytes = readFile(entry.file);
  } catch (e) {
    throw new TraceError(entry.file, msg(TRACE_FILE_ERRORS.unreadableFor, errorArg(e), where));
  }
  let loaded;
  try {
    loaded = readTensorsSync(bytes, entry.file, { maxTotalElements: MAX_TENSOR_ELEMENTS, maxTensors: 1 });
  } catch (e) {
    if (e instanceof WeightFileError) throw new TraceError(entry.file, msg(TRACE_FILE_ERRORS.problemFor, e.problemParts, where));
    throw e;
  }
  const [[name, tensor] = []] = loaded.tensors; // a .npy file holds one array
  if (name === undefined || tensor === undefined) throw new TraceError(entry.file, msg(TRACE_FILE_ERRORS.holdsNoArray, where));
  const sourceDtype = loaded.sourceDtypes.get(name);
  const expectedShape = entry.shape;
  if (!sameShape(tensor.shape, expectedShape)) {
    throw new TraceError(entry.file, msg(TRACE_FILE_ERRORS.shape, `[${tensor.shape.join(', ')}]`, `[${expectedShape.join(', ')}]`, where));
  }
  const want = entry.summary ? 'float32' : NPY_DTYPE[entry.dtype];
  if (want !== undefined && sourceDtype !== want) {
    throw new TraceError(entry.file, msg(TRACE_FILE_ERRORS.dtype, String(sourceDtype), entry.dtype, where));
  }
  if (entry.summary) {
    const { of, blockRows, blockCols } = entry.summary;
    const r = of.length;
    const [rows, cols] = of.slice(-2);
    const ok =
      rows !== undefined &&
      cols !== undefined &&
      of.slice(0, r - 2).every((d, i) => d === tensor.shape[i]) &&
      Math.ceil(rows / blockRows) === tensor.shape[r - 2] &&
      Math.ceil(cols / blockCols) === tensor.shape[r - 1];
    if (!ok) throw new TraceError(entry.file, msg(TRACE_FILE_ERRORS.blocks, `[${tensor.shape.join(', ')}]`, `[${of.join(', ')}]`, blockRows, blockCols, where));
  }
  if (sourceDtype === 'bool') {
    const data = new Uint8Array(tensor.data.length);
    for (let i = 0; i < data.length; i++) data[i] = tensor.data[i] !== 0 ? 1 : 0;
    const b: BoolTensor = { data, shape: tensor.shape, dtype: 'bool' };
    return { tensor: b, dtype: entry.dtype, summarised: false };
  }
  return { tensor, dtype: entry.dtype, summarised: entry.summary !== null };
}

/** The user's own scores at the debugger's first steps (python: stepTensors): only the debugger reads them. */
export function isStepTensor(name: string): boolean {
  return name.startsWith('step_');
}

/**
 * Reads the written tensors of a call: name → captured tensor (without the debugger's step tensors unless
 * `withSteps`). Throws a TraceError on the first bad file.
 */
export function readCallTensors(call: TraceCall, readFile: ReadTraceFile, withSteps = false): Map<string, CapturedTensor> {
  const out = new Map<string, CapturedTensor>();
  for (const [name, entry] of Object.entries(call.tensors)) {
    if (!withSteps && isStepTensor(name)) continue;
    const t = readCapturedTensor(entry, readFile, msg(TRACE_FILE_ERRORS.tensorOfCall, name, call.id));
    if (t) out.set(name, t);
  }
  return out;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}
