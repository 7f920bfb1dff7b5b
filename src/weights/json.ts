// The JSON format of named tensors (the project's fixture tensor encoding, one object per name):
//
//   {
//     "wte.weight":   {"shape": [64, 16], "data": [0.12, -1.5, ...]},
//     "mask":         {"shape": [2, 3], "dtype": "bool", "data": [true, false, ...]},
//     "__metadata__": {"format": "pt"}                       (optional, strings only)
//   }
//
// * `data` is the tensor flattened row-major (C order), with exactly prod(shape) entries; `shape: []` is
//   a scalar with one entry.
// * `dtype` is optional: "float32" (the default), "float64", "float16", "int64", "int32" or "bool".
//   Numbers are stored into float32 (Math.fround); bool data is true/false (or 0/1) and becomes 1/0.
// * Non-finite floats are the strings "NaN", "Infinity" and "-Infinity" (JSON has no literals for them).
// * A tensor object has only the keys shape, data and dtype.

import type { Tensor } from '../engine/tensor';
import { checkShape, describeValue, ElementBudget } from './budget';
import type { SourceDType } from './dtype';
import { defineTemplates, errorArg, msg } from '../protocol/message';
import { fail, formatCount, quote, shapeText, tensorLabel } from './errors';
import { firstDuplicateKey } from './json-keys';
import { JSON_SIZE_ERRORS, jsonTooLarge, type ResolvedLoaderOptions } from './options';
import type { DecodedFile } from './result';

const JSON_DTYPES: Readonly<Record<string, SourceDType>> = Object.freeze({
  float32: 'float32',
  float64: 'float64',
  float16: 'float16',
  int64: 'int64',
  int32: 'int32',
  bool: 'bool',
});

const NON_FINITE: ReadonlyMap<string, number> = new Map([
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
]);

const JSON_ERRORS = defineTemplates(
  {
    tooLarge: '{0} (option maxJsonBytes; save large weights as safetensors)',
    notUtf8: 'file is not valid UTF-8 text',
    notJson: 'not valid JSON ({0})',
    notObject: 'expected a JSON object of named tensors {"name": {"shape": [...], "data": [...]}}, got {0}',
    duplicateKey: 'the key {0} is given twice',
    duplicateKeyIn: 'the key {0} is given twice in {1}',
    metadataNotObject: '__metadata__ must be an object of strings, got {0}',
    metadataValue: '__metadata__ value {0} must be a string, got {1}',
    entryNotObject: '{0}: expected {"shape": [...], "data": [...]}, got {1}',
    unexpectedKey: '{0}: unexpected key {1} (a tensor has shape, data and an optional dtype)',
    dtypeUnsupported: '{0}: dtype {1} is not supported (supported: {2})',
    dataNotArray: '{0}: data must be a flat array, got {1}',
    countMismatch: '{0}: shape {1} needs {2} values but data has {3}',
    badBool: '{0}: bool data[{1}] is {2}; expected true/false or 0/1',
    notNumber: '{0}: data[{1}] is {2}; expected a number or "NaN"/"Infinity"/"-Infinity"',
    notNumberOrBool: '{0}: data[{1}] is {2}; expected a number or a boolean',
  },
  'error',
);

export function readJsonTensors(bytes: Uint8Array, fileName: string, options: ResolvedLoaderOptions): DecodedFile {
  // Checked before decoding: JSON.parse of a few hundred MB of numbers exhausts V8's heap, which ends the
  // whole process (the extension host, for the extension) instead of throwing.
  if (bytes.length > options.maxJsonBytes) {
    fail(fileName, msg(JSON_ERRORS.tooLarge, jsonTooLarge(msg(JSON_SIZE_ERRORS.jsonWeightFile), bytes.length, options.maxJsonBytes)));
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    fail(fileName, msg(JSON_ERRORS.notUtf8));
  }
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (e) {
    fail(fileName, msg(JSON_ERRORS.notJson, errorArg(e)));
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    fail(fileName, msg(JSON_ERRORS.notObject, describeValue(root)));
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate) {
    fail(
      fileName,
      duplicate.path.length
        ? msg(JSON_ERRORS.duplicateKeyIn, quote(duplicate.key), quote(duplicate.path.join('.')))
        : msg(JSON_ERRORS.duplicateKey, quote(duplicate.key)),
    );
  }
  const budget = new ElementBudget(fileName, options, bytes.length);
  const tensors = new Map<string, Tensor>();
  const sourceDtypes = new Map<string, SourceDType>();
  const metadata: Record<string, string> = {};
  for (const [name, raw] of Object.entries(root as Record<string, unknown>)) {
    if (name === '__metadata__') {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(fileName, msg(JSON_ERRORS.metadataNotObject, describeValue(raw)));
      for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
        if (typeof v !== 'string') fail(fileName, msg(JSON_ERRORS.metadataValue, quote(k), describeValue(v)));
        metadata[k] = v;
      }
      continue;
    }
    const { tensor, dtype } = readTensor(fileName, name, raw, budget);
    tensors.set(name, tensor);
    sourceDtypes.set(name, dtype);
  }
  return { format: 'json', tensors, sourceDtypes, metadata };
}

function readTensor(fileName: string, name: string, raw: unknown, budget: ElementBudget): { tensor: Tensor; dtype: SourceDType } {
  const what = tensorLabel(name);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    fail(fileName, msg(JSON_ERRORS.entryNotObject, what, describeValue(raw)));
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (key !== 'shape' && key !== 'data' && key !== 'dtype') fail(fileName, msg(JSON_ERRORS.unexpectedKey, what, quote(key)));
  }
  const rawDtype = obj.dtype ?? 'float32';
  const dtype = typeof rawDtype === 'string' && Object.hasOwn(JSON_DTYPES, rawDtype) ? JSON_DTYPES[rawDtype] : undefined;
  if (dtype === undefined) {
    return fail(fileName, msg(JSON_ERRORS.dtypeUnsupported, what, describeValue(rawDtype), Object.keys(JSON_DTYPES).join(', ')));
  }
  const shape = checkShape(fileName, what, obj.shape);
  const numel = budget.take(name, shape);
  const values = obj.data;
  if (!Array.isArray(values)) fail(fileName, msg(JSON_ERRORS.dataNotArray, what, describeValue(values)));
  if (values.length !== numel) {
    fail(fileName, msg(JSON_ERRORS.countMismatch, what, shapeText(shape), formatCount(numel), formatCount(values.length)));
  }
  const data = new Float32Array(numel);
  for (let i = 0; i < numel; i++) {
    const v: unknown = values[i];
    const nonFinite = typeof v === 'string' && dtype !== 'bool' ? NON_FINITE.get(v) : undefined;
    if (typeof v === 'number') {
      if (dtype === 'bool' && v !== 0 && v !== 1) fail(fileName, msg(JSON_ERRORS.badBool, what, i, v));
      data[i] = v;
    } else if (typeof v === 'boolean' && dtype === 'bool') {
      data[i] = v ? 1 : 0;
    } else if (nonFinite !== undefined) {
      data[i] = nonFinite;
    } else {
      fail(fileName, msg(dtype === 'bool' ? JSON_ERRORS.notNumberOrBool : JSON_ERRORS.notNumber, what, i, describeValue(v)));
    }
  }
  return { tensor: { data, shape }, dtype };
}
