// Loading the PyTorch oracle fixtures (test/fixtures/torch, schema in its README.md) and comparing
// results with them. Shared by every unit test that checks against torch.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BoolTensor, Tensor } from '../../../src/engine/tensor';

export const FIXTURE_DIR = join(__dirname, '..', '..', 'fixtures', 'torch');

/** A tensor as the fixtures encode it: row-major data, non-finite floats as strings. */
export interface JsonTensor {
  shape: number[];
  dtype: 'float32' | 'bool' | 'int64';
  data: Array<number | string | boolean>;
}

/** int64 tensors decode to exact JS integers (the fixtures hold only safe integers). */
export interface Int64Tensor {
  readonly data: Float64Array;
  readonly shape: number[];
  readonly dtype: 'int64';
}

const cache = new Map<string, unknown>();

/** Parsed fixture file by name ('sdpa' or 'sdpa.json'); cached, so treat it as read-only. */
export function loadFixture<T = any>(name: string): T {
  const file = name.endsWith('.json') ? name : `${name}.json`;
  if (!cache.has(file)) cache.set(file, JSON.parse(readFileSync(join(FIXTURE_DIR, file), 'utf8')));
  return cache.get(file) as T;
}

/** Raw bytes of a non-JSON fixture (safetensors, .npy, .npz, .pt). */
export function loadFixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURE_DIR, name)));
}

/** "NaN" / "Infinity" / "-Infinity" strings → numbers; numbers pass through. */
export function decodeNumber(v: number | string | boolean): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const n = Number(v);
    if (v !== 'NaN' && Number.isNaN(n)) throw new Error(`fixture: '${v}' is not a number`);
    return n;
  }
  throw new Error(`fixture: expected a number, got ${String(v)}`);
}

export function isJsonTensor(x: unknown): x is JsonTensor {
  return typeof x === 'object' && x !== null && Array.isArray((x as JsonTensor).shape) && Array.isArray((x as JsonTensor).data);
}

function checkLength(json: JsonTensor): void {
  const n = json.shape.reduce((p, d) => p * d, 1);
  if (json.data.length !== n) throw new Error(`fixture tensor: ${json.data.length} values for shape [${json.shape.join(', ')}]`);
}

/** A float32 fixture tensor as an engine Tensor (exact float32 bits). */
export function toFloat(json: JsonTensor): Tensor {
  if (json.dtype !== 'float32') throw new Error(`fixture tensor: expected float32, got ${json.dtype}`);
  checkLength(json);
  return { data: Float32Array.from(json.data, decodeNumber), shape: [...json.shape] };
}

/** A bool fixture tensor as an engine BoolTensor (0/1 bytes). */
export function toBool(json: JsonTensor): BoolTensor {
  if (json.dtype !== 'bool') throw new Error(`fixture tensor: expected bool, got ${json.dtype}`);
  checkLength(json);
  return { data: Uint8Array.from(json.data, (v) => (v ? 1 : 0)), shape: [...json.shape], dtype: 'bool' };
}

export function toInt64(json: JsonTensor): Int64Tensor {
  if (json.dtype !== 'int64') throw new Error(`fixture tensor: expected int64, got ${json.dtype}`);
  checkLength(json);
  const data = Float64Array.from(json.data, (v) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new Error(`fixture int64: ${String(v)} is not a safe integer`);
    return v;
  });
  return { data, shape: [...json.shape], dtype: 'int64' };
}

/** Any fixture tensor, typed by its dtype. */
export function toTensor(json: JsonTensor & { dtype: 'float32' }): Tensor;
export function toTensor(json: JsonTensor & { dtype: 'bool' }): BoolTensor;
export function toTensor(json: JsonTensor): Tensor | BoolTensor | Int64Tensor;
export function toTensor(json: JsonTensor): Tensor | BoolTensor | Int64Tensor {
  switch (json.dtype) {
    case 'float32':
      return toFloat(json);
    case 'bool':
      return toBool(json);
    case 'int64':
      return toInt64(json);
    default:
      throw new Error(`fixture tensor: unknown dtype ${String(json.dtype)}`);
  }
}

type Numbers = { data: ArrayLike<number>; shape: readonly number[] } | ArrayLike<number> | number;

export interface CloseOptions {
  /** Absolute tolerance (default 1e-5, the README's recommendation for attention). */
  atol?: number;
  /** Relative tolerance, added to atol·|expected| (default 0). */
  rtol?: number;
  /** Prefix for the failure message. */
  label?: string;
}

function values(x: Numbers): { data: ArrayLike<number>; shape: readonly number[] | null } {
  if (typeof x === 'number') return { data: [x], shape: null };
  if ('shape' in x && 'data' in x && !(x instanceof Float32Array)) return { data: x.data, shape: x.shape };
  return { data: x, shape: null };
}

function indexOf(i: number, shape: readonly number[] | null): string {
  if (!shape || shape.length === 0) return `[${i}]`;
  const idx: number[] = [];
  let r = i;
  for (let d = shape.length - 1; d >= 0; d--) {
    idx.unshift(r % shape[d]);
    r = Math.floor(r / shape[d]);
  }
  return `[${idx.join(', ')}]`;
}

/**
 * Element-wise |actual - expected| ≤ atol + rtol·|expected|, shapes equal when both have one,
 * NaN equal to NaN and ±Infinity equal to itself. Reports the worst element on failure.
 */
export function assertClose(actual: Numbers, expected: Numbers | JsonTensor, options: CloseOptions = {}): void {
  const { atol = 1e-5, rtol = 0, label = 'value' } = options;
  const exp = isJsonTensor(expected) ? values(toFloat(expected)) : values(expected);
  const act = values(actual);
  if (act.shape && exp.shape) {
    assert.deepEqual([...act.shape], [...exp.shape], `${label}: shape [${act.shape.join(', ')}] ≠ expected [${exp.shape.join(', ')}]`);
  }
  assert.equal(act.data.length, exp.data.length, `${label}: ${act.data.length} elements, expected ${exp.data.length}`);
  let worst = -1;
  let worstDiff = 0;
  for (let i = 0; i < exp.data.length; i++) {
    const a = act.data[i];
    const e = exp.data[i];
    if (Number.isNaN(e) || Number.isNaN(a)) {
      if (Number.isNaN(e) && Number.isNaN(a)) continue;
      worst = i;
      worstDiff = Infinity;
      break;
    }
    if (a === e) continue; // also equal infinities
    const diff = Math.abs(a - e);
    if (!(diff <= atol + rtol * Math.abs(e)) && diff >= worstDiff) {
      worst = i;
      worstDiff = diff;
    }
  }
  if (worst >= 0) {
    const shape = exp.shape ?? act.shape;
    assert.fail(
      `${label}: element ${indexOf(worst, shape)} is ${act.data[worst]}, expected ${exp.data[worst]} ` +
        `(|diff| ${worstDiff} > atol ${atol}${rtol ? ` + rtol ${rtol}·|expected|` : ''})`,
    );
  }
}

/** Largest |actual - expected| (NaN pairs count as 0, a NaN mismatch as Infinity). */
export function maxAbsDiff(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (Number.isNaN(a) || Number.isNaN(e)) {
      if (!(Number.isNaN(a) && Number.isNaN(e))) return Infinity;
      continue;
    }
    if (a !== e) m = Math.max(m, Math.abs(a - e));
  }
  return m;
}
