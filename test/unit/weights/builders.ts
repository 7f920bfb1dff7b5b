// Test-only writers for small weight files, built by code so each hostile variant is one edit away from a
// valid file. They follow the published layouts (safetensors spec, NEP 1 .npy format, APPNOTE zip via
// fflate, Python's pickle opcodes) independently of the loaders under test.

import { zipSync } from 'fflate';

const encoder = new TextEncoder();

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Numbers as bytes of a given element type and byte order (DataView: independent of the host). */
export function encodeNumbers(values: readonly number[], type: 'f32' | 'f64' | 'i64' | 'i32' | 'i16' | 'u16' | 'u8' | 'i8', littleEndian = true): Uint8Array {
  const size = { f32: 4, f64: 8, i64: 8, i32: 4, i16: 2, u16: 2, u8: 1, i8: 1 }[type];
  const out = new Uint8Array(values.length * size);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => {
    const at = i * size;
    if (type === 'f32') view.setFloat32(at, v, littleEndian);
    else if (type === 'f64') view.setFloat64(at, v, littleEndian);
    else if (type === 'i64') view.setBigInt64(at, BigInt(v), littleEndian);
    else if (type === 'i32') view.setInt32(at, v, littleEndian);
    else if (type === 'i16') view.setInt16(at, v, littleEndian);
    else if (type === 'u16') view.setUint16(at, v, littleEndian);
    else if (type === 'u8') view.setUint8(at, v);
    else view.setInt8(at, v);
  });
  return out;
}

/** Independent float16 decoding: assemble float32 bits (normalising subnormals), not the loader's table. */
export function halfBitsToNumber(h: number): number {
  const sign = (h & 0x8000) << 16;
  let exponent = (h >> 10) & 0x1f;
  let mantissa = h & 0x3ff;
  let bits: number;
  if (exponent === 0x1f) bits = sign | 0x7f800000 | (mantissa << 13);
  else if (exponent === 0 && mantissa === 0) bits = sign;
  else {
    if (exponent === 0) {
      exponent = 1;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        exponent--;
      }
      mantissa &= 0x3ff;
    }
    bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  }
  return new Float32Array(new Uint32Array([bits >>> 0]).buffer)[0];
}

/** Independent bfloat16 decoding by the value formula sign · 1.m · 2^(e-127). */
export function bfloat16BitsToNumber(b: number): number {
  const sign = b & 0x8000 ? -1 : 1;
  const exponent = (b >> 7) & 0xff;
  const mantissa = b & 0x7f;
  if (exponent === 0xff) return mantissa ? NaN : sign * Infinity;
  if (exponent === 0) return sign * (mantissa / 128) * 2 ** -126;
  return sign * (1 + mantissa / 128) * 2 ** (exponent - 127);
}

// ---------------------------------------------------------------- safetensors

export interface StEntry {
  name: string;
  dtype: string;
  shape: unknown;
  data: Uint8Array;
}

/**
 * A safetensors file: u64 LE header length, JSON header padded with spaces to a multiple of 8, data in the
 * given order. `header` may rewrite the header object before it is serialised (for hostile variants).
 */
export function safetensorsFile(
  entries: readonly StEntry[],
  options: { metadata?: Record<string, unknown>; header?: (h: Record<string, unknown>) => void; misalign?: number } = {},
): Uint8Array {
  const header: Record<string, unknown> = {};
  let offset = 0;
  for (const e of entries) {
    header[e.name] = { dtype: e.dtype, shape: e.shape, data_offsets: [offset, offset + e.data.length] };
    offset += e.data.length;
  }
  if (options.metadata) header.__metadata__ = options.metadata;
  options.header?.(header);
  let json = JSON.stringify(header);
  while ((8 + encoder.encode(json).length) % 8) json += ' ';
  json += ' '.repeat(options.misalign ?? 0); // moves the data off its 8-byte alignment
  const headerBytes = encoder.encode(json);
  const length = new Uint8Array(8);
  new DataView(length.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  return concat(length, headerBytes, ...entries.map((e) => e.data));
}

// ---------------------------------------------------------------- .npy

/** A .npy file with the given header dict text (or fields), version and raw data. */
export function npyFile(options: {
  descr?: string;
  fortranOrder?: boolean;
  shape?: readonly number[];
  headerText?: string;
  version?: 1 | 2 | 3;
  data: Uint8Array;
}): Uint8Array {
  const version = options.version ?? 1;
  const shape = options.shape ?? [];
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let text =
    options.headerText ?? `{'descr': '${options.descr ?? '<f4'}', 'fortran_order': ${options.fortranOrder ? 'True' : 'False'}, 'shape': ${shapeText}, }`;
  const lengthBytes = version === 1 ? 2 : 4;
  // numpy pads with spaces so that the data starts at a multiple of 64, and ends the header with '\n'.
  while ((6 + 2 + lengthBytes + text.length + 1) % 64) text += ' ';
  text += '\n';
  const headerBytes = version === 3 ? encoder.encode(text) : Uint8Array.from(text, (c) => c.charCodeAt(0));
  const prefix = new Uint8Array(8 + lengthBytes);
  prefix.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(prefix.buffer);
  if (version === 1) view.setUint16(8, headerBytes.length, true);
  else view.setUint32(8, headerBytes.length, true);
  return concat(prefix, headerBytes, options.data);
}

// ---------------------------------------------------------------- zip

/** A zip archive; level 0 = stored, > 0 = deflated (fflate's writer, not the reader under test). */
export function zipFile(members: Record<string, Uint8Array>, level: 0 | 6 = 0): Uint8Array {
  const files: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  for (const [name, data] of Object.entries(members)) files[name] = [data, { level }];
  return zipSync(files);
}

/** Offsets of every central-directory entry (signature PK\x01\x02) in a zip, for targeted edits. */
export function centralDirectoryOffsets(zip: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i + 4 <= zip.length; i++) {
    if (zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 0x01 && zip[i + 3] === 0x02) out.push(i);
  }
  return out;
}

// ---------------------------------------------------------------- pickle

/** Emits pickle opcodes (protocol 2 binary forms, as torch.save writes them). */
export class PickleWriter {
  private readonly parts: number[] = [];

  op(...bytes: number[]): this {
    this.parts.push(...bytes);
    return this;
  }
  proto(n = 2): this {
    return this.op(0x80, n);
  }
  mark(): this {
    return this.op(0x28);
  }
  stop(): this {
    return this.op(0x2e);
  }
  emptyDict(): this {
    return this.op(0x7d);
  }
  emptyList(): this {
    return this.op(0x5d);
  }
  emptyTuple(): this {
    return this.op(0x29);
  }
  tuple(): this {
    return this.op(0x74);
  }
  tuple2(): this {
    return this.op(0x86);
  }
  append(): this {
    return this.op(0x61);
  }
  setitem(): this {
    return this.op(0x73);
  }
  setitems(): this {
    return this.op(0x75);
  }
  reduce(): this {
    return this.op(0x52);
  }
  build(): this {
    return this.op(0x62);
  }
  binpersid(): this {
    return this.op(0x51);
  }
  none(): this {
    return this.op(0x4e);
  }
  bool(v: boolean): this {
    return this.op(v ? 0x88 : 0x89);
  }
  binput(i: number): this {
    return this.op(0x71, i);
  }
  binget(i: number): this {
    return this.op(0x68, i);
  }
  int(n: number): this {
    if (n >= 0 && n < 256) return this.op(0x4b, n);
    if (n >= 0 && n < 65536) return this.op(0x4d, n & 0xff, n >> 8);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, n, true);
    return this.op(0x4a, ...b);
  }
  string(s: string): this {
    const b = encoder.encode(s);
    const n = new Uint8Array(4);
    new DataView(n.buffer).setUint32(0, b.length, true);
    return this.op(0x58, ...n, ...b);
  }
  global(module: string, name: string): this {
    return this.op(0x63, ...encoder.encode(`${module}\n${name}\n`));
  }
  /** (a, b, ...) of small non-negative ints. */
  intTuple(values: readonly number[]): this {
    this.mark();
    for (const v of values) this.int(v);
    return this.tuple();
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export interface TorchTensorSpec {
  name: string;
  storageKey: string;
  storageClass: string; // e.g. 'FloatStorage'
  storageNumel: number;
  offset: number;
  shape: readonly number[];
  strides: readonly number[];
}

/** data.pkl of a state_dict {name: _rebuild_tensor_v2(persistent storage, offset, size, stride, False, OrderedDict())}. */
export function stateDictPickle(tensors: readonly TorchTensorSpec[]): Uint8Array {
  const w = new PickleWriter().proto(2).emptyDict().mark();
  for (const t of tensors) {
    w.string(t.name).global('torch._utils', '_rebuild_tensor_v2');
    w.mark().mark().string('storage').global('torch', t.storageClass).string(t.storageKey).string('cpu').int(t.storageNumel).tuple().binpersid();
    w.int(t.offset).intTuple(t.shape).intTuple(t.strides).bool(false).global('collections', 'OrderedDict').emptyTuple().reduce().tuple().reduce();
  }
  return w.setitems().stop().bytes();
}

/** A torch.save-style zip: <prefix>/data.pkl, <prefix>/data/<key>, <prefix>/byteorder. */
export function torchZip(
  pickle: Uint8Array,
  storages: Record<string, Uint8Array>,
  options: { prefix?: string; byteorder?: string | null; level?: 0 | 6 } = {},
): Uint8Array {
  const prefix = options.prefix ?? 'archive';
  const members: Record<string, Uint8Array> = { [`${prefix}/data.pkl`]: pickle };
  if (options.byteorder !== null) members[`${prefix}/byteorder`] = encoder.encode(options.byteorder ?? 'little');
  for (const [key, data] of Object.entries(storages)) members[`${prefix}/data/${key}`] = data;
  members[`${prefix}/version`] = encoder.encode('3\n');
  return zipFile(members, options.level ?? 0);
}

/** Asserts-friendly: the promise's rejection message, or throws if it resolved. */
export async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Error) return e;
    throw new Error(`rejected with a non-Error: ${String(e)}`);
  }
  throw new Error('expected the loader to reject, but it resolved');
}

/**
 * Rewrites a (small) zip so that every central-directory entry uses the zip64 form: 0xFFFFFFFF sizes and
 * offset with a zip64 extra field, then a zip64 end-of-central-directory record and locator, and an
 * end record of 0xFFFF / 0xFFFFFFFF. This is what archives over 4 GB look like.
 */
export function toZip64(zip: Uint8Array): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = zip.length - 22;
  if (view.getUint32(eocd, true) !== 0x06054b50) throw new Error('toZip64: expects a zip without a comment');
  const count = view.getUint16(eocd + 10, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  const entries: Uint8Array[] = [];
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    const fixed = zip.slice(p, p + 46);
    const name = zip.slice(p + 46, p + 46 + nameLength);
    const fv = new DataView(fixed.buffer);
    const sizes = [fv.getUint32(24, true), fv.getUint32(20, true), fv.getUint32(42, true)]; // uncompressed, compressed, offset
    fv.setUint32(20, 0xffffffff, true);
    fv.setUint32(24, 0xffffffff, true);
    fv.setUint32(42, 0xffffffff, true);
    fv.setUint16(30, 28, true);
    fv.setUint16(32, 0, true);
    const extra = new Uint8Array(28);
    const ev = new DataView(extra.buffer);
    ev.setUint16(0, 1, true);
    ev.setUint16(2, 24, true);
    sizes.forEach((s, k) => ev.setBigUint64(4 + 8 * k, BigInt(s), true));
    entries.push(concat(fixed, name, extra));
    p += 46 + nameLength + extraLength + commentLength;
  }
  const cd = concat(...entries);
  const zip64Eocd = new Uint8Array(56);
  const zv = new DataView(zip64Eocd.buffer);
  zv.setUint32(0, 0x06064b50, true);
  zv.setBigUint64(4, 44n, true);
  zv.setUint16(12, 45, true);
  zv.setUint16(14, 45, true);
  zv.setBigUint64(24, BigInt(count), true);
  zv.setBigUint64(32, BigInt(count), true);
  zv.setBigUint64(40, BigInt(cd.length), true);
  zv.setBigUint64(48, BigInt(cdOffset), true);
  const locator = new Uint8Array(20);
  const lv = new DataView(locator.buffer);
  lv.setUint32(0, 0x07064b50, true);
  lv.setBigUint64(8, BigInt(cdOffset + cd.length), true);
  lv.setUint32(16, 1, true);
  const end = new Uint8Array(22);
  const endView = new DataView(end.buffer);
  endView.setUint32(0, 0x06054b50, true);
  endView.setUint16(8, 0xffff, true);
  endView.setUint16(10, 0xffff, true);
  endView.setUint32(12, 0xffffffff, true);
  endView.setUint32(16, 0xffffffff, true);
  return concat(zip.subarray(0, cdOffset), cd, zip64Eocd, locator, end);
}
