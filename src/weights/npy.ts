// NumPy .npy: "\x93NUMPY", major, minor, header length (u16 LE for v1.0, u32 LE for v2.0/v3.0), a Python
// dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (48, 16)} padded with spaces and ending
// in '\n' (latin-1 for v1/v2, UTF-8 for v3), then the raw array. Fortran-order arrays are transposed into
// row-major order; C-order little-endian float32 arrays are views over the file bytes when aligned.
// Headers NumPy's np.load refuses are refused: longer than its max_header_size (10,000 bytes), not a dict
// of exactly descr / fortran_order / shape, Python 2 'L' integers outside versions 1.0 and 2.0, and string
// escapes (a real header has none; Python would read '\4' as a control character).

import type { Tensor } from '../engine/tensor';
import { checkShape, describeValue, ElementBudget } from './budget';
import { ITEM_SIZE, toFloat32, type SourceDType } from './dtype';
import { defineTemplates, errorArg, msg, type MessageParts } from '../protocol/message';
import { fail, formatCount, quote, shapeText } from './errors';
import type { ResolvedLoaderOptions } from './options';
import { parsePyLiteral, PyTupleLiteral, type PyLiteral } from './pyliteral';
import type { DecodedFile } from './result';
import { fortranOrderStrides, materializeStrided } from './strided';

export const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** np.load's default max_header_size: longer headers are refused as unsafe unless pickles are allowed. */
export const NPY_MAX_HEADER_BYTES = 10_000;

const NPY_KINDS: Readonly<Record<string, SourceDType>> = Object.freeze({
  f2: 'float16',
  f4: 'float32',
  f8: 'float64',
  i1: 'int8',
  u1: 'uint8',
  i2: 'int16',
  u2: 'uint16',
  i4: 'int32',
  u4: 'uint32',
  i8: 'int64',
  u8: 'uint64',
  b1: 'bool',
});

const NPY_ERRORS = defineTemplates(
  {
    notNpy: 'not a .npy array (it does not start with \\x93NUMPY)',
    version: '.npy format version {0}.{1} is not supported (supported: 1.0, 2.0, 3.0)',
    endsInLength: 'file ends inside the .npy header length',
    headerPastEnd: '.npy header length {0} is past the end of the file ({1} bytes)',
    headerTooLong: ".npy header length {0} is over the limit of {1} bytes (NumPy's max_header_size; a plain array's header is about 100)",
    truncated: 'array data is truncated: shape {0} of {1} needs {2} bytes, the file has {3}',
    trailing: '{0} unexpected bytes after the array data (shape {1} of {2})',
    headerNotUtf8: '.npy header is not valid UTF-8',
    headerNotLiteral: '.npy header is not a Python dict literal: {0}',
    headerNotDict: '.npy header must be a dict, got {0}',
    unexpectedKey: '.npy header has an unexpected key {0}',
    structured: 'structured .npy dtypes (a descr list) are not supported; save a plain numeric array',
    descrNotString: ".npy header 'descr' must be a dtype string, got {0}",
    fortranNotBool: ".npy header 'fortran_order' must be True or False, got {0}",
    shapeNotTuple: ".npy header 'shape' must be a tuple, got {0}",
    dtypeUnsupported: '.npy dtype {0} is not supported (supported: float16/32/64, int8..int64, uint8..uint64, bool)',
    objectDtypeUnsupported:
      '.npy dtype {0} is not supported (object arrays need pickle, which .npy loading never runs) (supported: float16/32/64, int8..int64, uint8..uint64, bool)',
    nativeOrder: ".npy dtype {0} has native ('=') byte order, which a file cannot specify; expected '<' or '>'",
    header: '.npy header',
  },
  'error',
);

export interface NpyArray {
  tensor: Tensor;
  dtype: SourceDType;
}

/** Reads one .npy file as a one-tensor map named after the file (without its extension). */
export function readNpyFile(bytes: Uint8Array, fileName: string, options: ResolvedLoaderOptions): DecodedFile {
  const name = baseNameWithoutExtension(fileName, '.npy');
  const budget = new ElementBudget(fileName, options, bytes.length);
  const { tensor, dtype } = readNpyArray(bytes, fileName, name, options, budget);
  return {
    format: 'npy',
    tensors: new Map([[name, tensor]]),
    sourceDtypes: new Map([[name, dtype]]),
    metadata: {},
  };
}

/**
 * Parses one .npy byte string. `where` prefixes messages (the file name, or "file.npz: member x.npy").
 */
export function readNpyArray(
  bytes: Uint8Array,
  where: string | MessageParts,
  tensorName: string,
  options: ResolvedLoaderOptions,
  budget: ElementBudget,
): NpyArray {
  if (bytes.length < 10 || !NPY_MAGIC.every((b, i) => bytes[i] === b)) {
    fail(where, msg(NPY_ERRORS.notNpy));
  }
  const [major = 0, minor = 0] = bytes.subarray(6, 8); // present: at least 10 bytes
  if (![1, 2, 3].includes(major) || minor !== 0) {
    fail(where, msg(NPY_ERRORS.version, major, minor));
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lengthBytes = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lengthBytes) fail(where, msg(NPY_ERRORS.endsInLength));
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const headerStart = 8 + lengthBytes;
  const dataStart = headerStart + headerLength;
  if (dataStart > bytes.length) {
    fail(where, msg(NPY_ERRORS.headerPastEnd, formatCount(headerLength), formatCount(bytes.length)));
  }
  if (headerLength > Math.min(NPY_MAX_HEADER_BYTES, options.maxHeaderBytes)) {
    fail(where, msg(NPY_ERRORS.headerTooLong, formatCount(headerLength), formatCount(Math.min(NPY_MAX_HEADER_BYTES, options.maxHeaderBytes))));
  }
  const headerText = decodeHeader(bytes.subarray(headerStart, dataStart), major === 3, where);
  const { dtype, descr, fortranOrder, shape } = parseHeader(headerText, where, major !== 3);

  const numel = budget.take(tensorName, shape);
  const needed = numel * ITEM_SIZE[dtype];
  const available = bytes.length - dataStart;
  if (available < needed) {
    fail(where, msg(NPY_ERRORS.truncated, shapeText(shape), descr, formatCount(needed), formatCount(available)));
  }
  if (available > needed) {
    fail(where, msg(NPY_ERRORS.trailing, formatCount(available - needed), shapeText(shape), descr));
  }
  const littleEndian = !descr.startsWith('>');
  const { data } = toFloat32(bytes.subarray(dataStart), dtype, numel, littleEndian);
  if (!fortranOrder || shape.length < 2) return { tensor: { data, shape }, dtype };
  // Fortran order: the file holds the array column-major; element [i0, i1, ...] is at sum(i_k * F_k).
  const rowMajor = materializeStrided(data, 0, shape, fortranOrderStrides(shape));
  return { tensor: { data: rowMajor, shape }, dtype };
}

function decodeHeader(bytes: Uint8Array, utf8: boolean, where: string | MessageParts): string {
  try {
    return new TextDecoder(utf8 ? 'utf-8' : 'latin1', { fatal: true }).decode(bytes);
  } catch {
    return fail(where, msg(NPY_ERRORS.headerNotUtf8));
  }
}

function parseHeader(
  text: string,
  where: string | MessageParts,
  longSuffix: boolean,
): { dtype: SourceDType; descr: string; fortranOrder: boolean; shape: number[] } {
  let literal: PyLiteral;
  try {
    literal = parsePyLiteral(text, { longSuffix });
  } catch (e) {
    return fail(where, msg(NPY_ERRORS.headerNotLiteral, errorArg(e)));
  }
  if (!(literal instanceof Map)) fail(where, msg(NPY_ERRORS.headerNotDict, quote(text.trim(), 40)));
  const descr = literal.get('descr');
  const fortranOrder = literal.get('fortran_order');
  const shape = literal.get('shape');
  for (const key of literal.keys()) {
    if (key !== 'descr' && key !== 'fortran_order' && key !== 'shape') fail(where, msg(NPY_ERRORS.unexpectedKey, describeValue(key)));
  }
  if (Array.isArray(descr)) fail(where, msg(NPY_ERRORS.structured));
  if (typeof descr !== 'string') fail(where, msg(NPY_ERRORS.descrNotString, describeValue(descr)));
  if (typeof fortranOrder !== 'boolean') fail(where, msg(NPY_ERRORS.fortranNotBool, describeValue(fortranOrder)));
  if (!(shape instanceof PyTupleLiteral)) fail(where, msg(NPY_ERRORS.shapeNotTuple, describeValue(shape)));
  const match = /^([<>|=])([a-zA-Z])(\d+)$/.exec(descr);
  const kind = match ? `${match[2] ?? ''}${match[3] ?? ''}` : '';
  const dtype = Object.hasOwn(NPY_KINDS, kind) ? NPY_KINDS[kind] : undefined;
  if (!match || !dtype) {
    return fail(where, msg(descr.includes('O') ? NPY_ERRORS.objectDtypeUnsupported : NPY_ERRORS.dtypeUnsupported, quote(descr)));
  }
  if (match[1] === '=') fail(where, msg(NPY_ERRORS.nativeOrder, quote(descr)));
  return { dtype, descr, fortranOrder, shape: checkShape(where, msg(NPY_ERRORS.header), shape.items) };
}

/** "path/to/in_proj_weight.npy" → "in_proj_weight". */
export function baseNameWithoutExtension(fileName: string, extension: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.toLowerCase().endsWith(extension) ? base.slice(0, -extension.length) : base;
}
