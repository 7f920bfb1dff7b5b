// Element types found in weight files and their conversion to float32 (the engine's only float type).
//
// Byte order: every decoder takes the byte order of the *file* and compares it with the host's. When they
// agree and the data is suitably aligned, float32 data is returned as a view over the file's bytes (no copy).
// Otherwise the bytes are copied once into a fresh, aligned buffer and byte-swapped there, then converted.
// So on a big-endian host, little-endian float32 data (safetensors, torch 'little', '<f4') is always copied
// and swapped: correct, just not zero-copy.

/** The dtype a tensor had in its file, in one vocabulary for every format (describeTensors shows it). */
export type SourceDType =
  'float16' | 'bfloat16' | 'float32' | 'float64' | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'bool';

export const ITEM_SIZE: Readonly<Record<SourceDType, number>> = Object.freeze({
  float16: 2,
  bfloat16: 2,
  float32: 4,
  float64: 8,
  int8: 1,
  uint8: 1,
  int16: 2,
  uint16: 2,
  int32: 4,
  uint32: 4,
  int64: 8,
  uint64: 8,
  bool: 1,
});

export const HOST_LITTLE_ENDIAN: boolean = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export interface Float32Result {
  data: Float32Array;
  /** True when `data` shares memory with the input bytes (zero-copy). */
  isView: boolean;
}

/**
 * Converts `count` elements of `dtype`, stored in `bytes` with the given byte order, to float32.
 * The caller has checked that `bytes` holds at least `count * ITEM_SIZE[dtype]` bytes.
 */
export function toFloat32(bytes: Uint8Array, dtype: SourceDType, count: number, littleEndian: boolean): Float32Result {
  const size = ITEM_SIZE[dtype];
  const src = bytes.subarray(0, count * size);
  const hostOrder = size === 1 || littleEndian === HOST_LITTLE_ENDIAN;
  if (dtype === 'float32' && hostOrder && src.byteOffset % 4 === 0) {
    return { data: new Float32Array(src.buffer, src.byteOffset, count), isView: true };
  }
  const native = hostOrderAligned(src, size, hostOrder);
  const { buffer, byteOffset } = native;
  switch (dtype) {
    case 'float32':
      // `native` is already a private copy here (unaligned or swapped), so view it.
      return { data: new Float32Array(buffer, byteOffset, count), isView: false };
    case 'float64':
      return { data: new Float32Array(new Float64Array(buffer, byteOffset, count)), isView: false };
    case 'float16':
      return { data: halfToFloat32(new Uint16Array(buffer, byteOffset, count)), isView: false };
    case 'bfloat16':
      return { data: bfloat16ToFloat32(new Uint16Array(buffer, byteOffset, count)), isView: false };
    case 'int8':
      return { data: new Float32Array(new Int8Array(buffer, byteOffset, count)), isView: false };
    case 'uint8':
      return { data: new Float32Array(new Uint8Array(buffer, byteOffset, count)), isView: false };
    case 'int16':
      return { data: new Float32Array(new Int16Array(buffer, byteOffset, count)), isView: false };
    case 'uint16':
      return { data: new Float32Array(new Uint16Array(buffer, byteOffset, count)), isView: false };
    case 'int32':
      return { data: new Float32Array(new Int32Array(buffer, byteOffset, count)), isView: false };
    case 'uint32':
      return { data: new Float32Array(new Uint32Array(buffer, byteOffset, count)), isView: false };
    case 'int64':
      return { data: bigIntsToFloat32(new BigInt64Array(buffer, byteOffset, count)), isView: false };
    case 'uint64':
      return { data: bigIntsToFloat32(new BigUint64Array(buffer, byteOffset, count)), isView: false };
    case 'bool': {
      const out = new Float32Array(count);
      for (let i = 0; i < count; i++) out[i] = src[i] !== 0 ? 1 : 0;
      return { data: out, isView: false };
    }
  }
}

/** `src` in host byte order at an offset aligned to `size`: `src` itself when already so, else a swapped copy. */
function hostOrderAligned(src: Uint8Array, size: number, hostOrder: boolean): Uint8Array {
  if (hostOrder && src.byteOffset % size === 0) return src;
  // A fresh ArrayBuffer at byteOffset 0. Not `src.slice()`: on a Node Buffer (a Uint8Array subclass) slice
  // is a view of the same memory, so the copy would keep the caller's misalignment and the swap below would
  // write into the caller's bytes.
  const copy = new Uint8Array(src.length);
  copy.set(src);
  if (!hostOrder) {
    for (let i = 0; i + size <= copy.length; i += size) {
      for (let a = i, b = i + size - 1; a < b; a++, b--) {
        const t = copy[a];
        copy[a] = copy[b];
        copy[b] = t;
      }
    }
  }
  return copy;
}

let halfTable: Float32Array | undefined;

/** float32 value of every IEEE binary16 bit pattern (built once, 256 KB). */
function getHalfTable(): Float32Array {
  if (halfTable) return halfTable;
  const table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const mantissa = h & 0x3ff;
    if (exponent === 0)
      table[h] = sign * mantissa * 2 ** -24; // zero and subnormals
    else if (exponent === 31) table[h] = mantissa ? NaN : sign * Infinity;
    else table[h] = sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
  }
  halfTable = table;
  return table;
}

export function halfToFloat32(bits: Uint16Array): Float32Array {
  const table = getHalfTable();
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = table[bits[i]];
  return out;
}

/** bfloat16 is the top half of a float32: shift the bits into place. */
export function bfloat16ToFloat32(bits: Uint16Array): Float32Array {
  const out = new Float32Array(bits.length);
  bfloat16Into(bits, out);
  return out;
}

/** Writes the bfloat16 `bits` as float32 into `out` (the same length). */
export function bfloat16Into(bits: Uint16Array, out: Float32Array): void {
  if (out.length !== bits.length) throw new Error(`bfloat16Into: ${bits.length} values into ${out.length}`);
  const words = new Uint32Array(out.buffer, out.byteOffset, out.length);
  for (let i = 0; i < bits.length; i++) words[i] = bits[i] << 16;
}

function bigIntsToFloat32(values: BigInt64Array | BigUint64Array): Float32Array {
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = Number(values[i]);
  return out;
}
