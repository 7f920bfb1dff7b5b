// safetensors: 8-byte little-endian u64 header length N, N bytes of UTF-8 JSON
//   {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {string: string}}
// then the data; offsets are relative to byte 8 + N. The tensors' byte ranges must tile the data exactly
// (no gaps, no overlaps, nothing after the last one), as the reference Rust implementation requires.
// F32 tensors are returned as views over `bytes` when 4-byte aligned and the host is little-endian.
// Like the reference reader it refuses a header that does not start with '{' (a byte-order mark included)
// and a key given twice (JSON.parse would keep the last: a tensor could silently change dtype or bytes).

import type { Tensor } from '../engine/tensor';
import { checkShape, describeValue, ElementBudget } from './budget';
import { ITEM_SIZE, toFloat32, type SourceDType } from './dtype';
import { defineTemplates, errorArg, msg } from '../protocol/message';
import { fail, formatCount, quote, shapeText, tensorLabel } from './errors';
import { firstDuplicateKey } from './json-keys';
import type { ResolvedLoaderOptions } from './options';
import type { DecodedFile } from './result';

const SAFETENSORS_DTYPES: Readonly<Record<string, SourceDType>> = Object.freeze({
  F32: 'float32',
  F16: 'float16',
  BF16: 'bfloat16',
  F64: 'float64',
  I8: 'int8',
  U8: 'uint8',
  I16: 'int16',
  U16: 'uint16',
  I32: 'int32',
  U32: 'uint32',
  I64: 'int64',
  U64: 'uint64',
  BOOL: 'bool',
});

const ST_ERRORS = defineTemplates(
  {
    tooShort: 'file is {0} bytes, too short for a safetensors header length (8 bytes)',
    headerPastEnd: 'header length {0} is past the end of the file ({1} bytes)',
    headerTooLong: 'header length {0} bytes is over the limit of {1} (option maxHeaderBytes)',
    headerTooSmall: 'header length {0} is too small for a JSON header',
    headerNotUtf8: 'header is not valid UTF-8',
    bom: "header starts with a byte-order mark (U+FEFF); a safetensors header is JSON that starts with '{'",
    notBrace: "header does not start with '{' (starts with {0})",
    notJson: 'header is not valid JSON ({0})',
    notObject: 'header must be a JSON object, got {0}',
    duplicateKey: 'header gives the key {0} twice',
    duplicateKeyIn: 'header gives the key {0} twice in {1}',
    metadataNotObject: '__metadata__ must be an object of strings, got {0}',
    metadataValue: '__metadata__ value {0} must be a string, got {1}',
    entryNotObject: '{0}: expected {dtype, shape, data_offsets}, got {1}',
    dtypeNotString: '{0}: dtype must be a string, got {1}',
    dtypeUnsupported: '{0}: dtype {1} is not supported (supported: {2})',
    badOffsets: '{0}: data_offsets must be [begin, end] with non-negative integers, got {1}',
    offsetsReversed: '{0}: data_offsets [{1}, {2}] end before they begin',
    offsetsPastEnd: '{0}: data_offsets [{1}, {2}] are past the end of the data ({3} bytes)',
    sizeMismatch: '{0}: shape {1} of {2} needs {3} bytes but data_offsets cover {4}',
    overlap: 'tensors {0} and {1} overlap (bytes {2}..{3} of the data)',
    gap: 'data bytes {0}..{1} belong to no tensor (offsets must tile the data)',
    trailing: "{0} bytes after the last tensor's data belong to no tensor",
  },
  'error',
);

export interface SafetensorsEntry {
  name: string;
  dtype: SourceDType;
  shape: number[];
  numel: number;
  begin: number;
  end: number;
}

export function readSafetensors(bytes: Uint8Array, fileName: string, options: ResolvedLoaderOptions): DecodedFile {
  const { entries, dataStart, metadata } = readSafetensorsHeader(bytes, fileName, options);
  const tensors = new Map<string, Tensor>();
  const sourceDtypes = new Map<string, SourceDType>();
  for (const e of entries) {
    const { data } = toFloat32(bytes.subarray(dataStart + e.begin, dataStart + e.end), e.dtype, e.numel, true);
    tensors.set(e.name, { data, shape: e.shape });
    sourceDtypes.set(e.name, e.dtype);
  }
  return { format: 'safetensors', tensors, sourceDtypes, metadata };
}

/**
 * The validated header of a safetensors file, nothing converted: each tensor's dtype, shape and byte range
 * (relative to `dataStart`). For callers that keep bf16/f16 data in its stored precision (src/weights/snapshot.ts).
 */
export function readSafetensorsHeader(
  bytes: Uint8Array,
  fileName: string,
  options: ResolvedLoaderOptions,
): { entries: SafetensorsEntry[]; dataStart: number; metadata: Record<string, string> } {
  if (bytes.length < 8) {
    fail(fileName, msg(ST_ERRORS.tooShort, formatCount(bytes.length)));
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getBigUint64(0, true);
  if (headerLength > BigInt(bytes.length - 8)) {
    fail(fileName, msg(ST_ERRORS.headerPastEnd, formatCount(headerLength), formatCount(bytes.length)));
  }
  const n = Number(headerLength);
  if (n > options.maxHeaderBytes) {
    fail(fileName, msg(ST_ERRORS.headerTooLong, formatCount(n), formatCount(options.maxHeaderBytes)));
  }
  if (n < 2) fail(fileName, msg(ST_ERRORS.headerTooSmall, n));
  let text: string;
  try {
    // ignoreBOM keeps a byte-order mark in the text, so that it is refused below (the default drops it).
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(8, 8 + n));
  } catch {
    fail(fileName, msg(ST_ERRORS.headerNotUtf8));
  }
  if (text.startsWith('\ufeff')) fail(fileName, msg(ST_ERRORS.bom));
  if (!text.startsWith('{')) fail(fileName, msg(ST_ERRORS.notBrace, quote(text.slice(0, 16))));
  let header: unknown;
  try {
    header = JSON.parse(text);
  } catch (e) {
    fail(fileName, msg(ST_ERRORS.notJson, errorArg(e)));
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    fail(fileName, msg(ST_ERRORS.notObject, describeValue(header)));
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate) {
    fail(
      fileName,
      duplicate.path.length
        ? msg(ST_ERRORS.duplicateKeyIn, quote(duplicate.key), quote(duplicate.path.join('.')))
        : msg(ST_ERRORS.duplicateKey, quote(duplicate.key)),
    );
  }

  const dataStart = 8 + n;
  const dataLength = bytes.length - dataStart;
  const budget = new ElementBudget(fileName, options, bytes.length);
  const metadata: Record<string, string> = {};
  const entries: SafetensorsEntry[] = [];
  for (const [name, raw] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      readMetadata(fileName, raw, metadata);
      continue;
    }
    entries.push(readEntry(fileName, name, raw, dataLength, budget));
  }
  checkTiling(fileName, entries, dataLength);
  return { entries, dataStart, metadata };
}

function readMetadata(fileName: string, raw: unknown, into: Record<string, string>): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    fail(fileName, msg(ST_ERRORS.metadataNotObject, describeValue(raw)));
  }
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof v !== 'string') fail(fileName, msg(ST_ERRORS.metadataValue, quote(k), describeValue(v)));
    into[k] = v;
  }
}

function readEntry(fileName: string, name: string, raw: unknown, dataLength: number, budget: ElementBudget): SafetensorsEntry {
  const what = tensorLabel(name);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    fail(fileName, msg(ST_ERRORS.entryNotObject, what, describeValue(raw)));
  }
  const { dtype: rawDtype, shape: rawShape, data_offsets: rawOffsets } = raw as Record<string, unknown>;
  if (typeof rawDtype !== 'string') fail(fileName, msg(ST_ERRORS.dtypeNotString, what, describeValue(rawDtype)));
  const dtype = Object.hasOwn(SAFETENSORS_DTYPES, rawDtype) ? SAFETENSORS_DTYPES[rawDtype] : undefined;
  if (!dtype) {
    fail(fileName, msg(ST_ERRORS.dtypeUnsupported, what, quote(rawDtype), Object.keys(SAFETENSORS_DTYPES).join(', ')));
  }
  const shape = checkShape(fileName, what, rawShape);
  if (!Array.isArray(rawOffsets) || rawOffsets.length !== 2 || !rawOffsets.every((o) => typeof o === 'number' && Number.isSafeInteger(o) && o >= 0)) {
    fail(fileName, msg(ST_ERRORS.badOffsets, what, Array.isArray(rawOffsets) ? JSON.stringify(rawOffsets).slice(0, 60) : describeValue(rawOffsets)));
  }
  const [begin, end] = rawOffsets as [number, number];
  if (begin > end) fail(fileName, msg(ST_ERRORS.offsetsReversed, what, begin, end));
  if (end > dataLength) {
    fail(fileName, msg(ST_ERRORS.offsetsPastEnd, what, formatCount(begin), formatCount(end), formatCount(dataLength)));
  }
  const numel = budget.take(name, shape);
  const needed = numel * ITEM_SIZE[dtype];
  if (needed !== end - begin) {
    fail(fileName, msg(ST_ERRORS.sizeMismatch, what, shapeText(shape), rawDtype, formatCount(needed), formatCount(end - begin)));
  }
  return { name, dtype, shape, numel, begin, end };
}

/** The byte ranges, in order, must start at 0, follow each other without gap or overlap and end at the end. */
function checkTiling(fileName: string, entries: readonly SafetensorsEntry[], dataLength: number): void {
  const sorted = [...entries].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let position = 0;
  let previous: SafetensorsEntry | undefined;
  for (const e of sorted) {
    if (e.begin < position && previous) {
      fail(fileName, msg(ST_ERRORS.overlap, quote(previous.name), quote(e.name), formatCount(e.begin), formatCount(position)));
    }
    if (e.begin > position) {
      fail(fileName, msg(ST_ERRORS.gap, formatCount(position), formatCount(e.begin)));
    }
    position = e.end;
    previous = e;
  }
  if (position !== dataLength) {
    fail(fileName, msg(ST_ERRORS.trailing, formatCount(dataLength - position)));
  }
}
