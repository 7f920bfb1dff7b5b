// The assembled WebAssembly SIMD modules (./wasm/simd-kernel.wat) and what their functions look like from
// TypeScript. Variants of the same code: `simd-kernel` owns its memory (the single-thread kernel);
// `simd-kernel-shared` imports a shared WebAssembly.Memory (threads proposal) as env.memory, so that the
// engine thread and one helper thread run the same functions on the same staged operands. Each has an FMA
// twin (`simd-kernel-fma`, `simd-kernel-fma-shared`) whose gemm micro-kernels use relaxed SIMD's
// f32x4.relaxed_madd: faster where the runtime has relaxed SIMD (V8 12+, so VS Code's Electron and Node 22+),
// but not bit-exact (rounded once where the CPU fuses, twice where it does not).
import { decodeBase64 } from './base64';
import { simdKernelBase64 } from './generated/simd-kernel-wasm';
import { simdKernelSharedBase64 } from './generated/simd-kernel-shared-wasm';
import { simdKernelFmaBase64 } from './generated/simd-kernel-fma-wasm';
import { simdKernelFmaSharedBase64 } from './generated/simd-kernel-fma-shared-wasm';

/** Register tile of the micro-kernel (fixed by simd-kernel.wat): rows of A per panel, columns of B per panel. */
export const MR = 4;
export const NR = 8;

/**
 * Cache blocking. A B panel (KC x 8 floats, 8 KiB) stays in L1 while the A block (MC x KC, 128 KiB) streams
 * from L2; the packed B block (KC x NC, 1 MiB) is reused by every A block. MC is a multiple of MR, NC of NR.
 * (Measured on a Zen 3 EPYC: KC 128..256 and MC 64..128 are within noise of each other; KC 384+ is slower.)
 */
export const BLOCKING = { kc: 256, mc: 128, nc: 1024 } as const;

/** Pages (64 KiB) the shared memory may grow to: 1 GiB, far above what one staged product needs (64 MiB). */
export const SHARED_MEMORY_MAX_PAGES = 16384;

/** The module's functions (byte addresses into its memory; lengths in floats). */
export interface SimdFunctions {
  packA(src: number, lda: number, mc: number, kc: number, dst: number): void;
  packB(src: number, ldb: number, kc: number, nc: number, dst: number): void;
  packBT(src: number, ldb: number, kc: number, nc: number, dst: number): void;
  macro(
    mc: number,
    nc: number,
    kc: number,
    a: number,
    lda: number,
    packedA: number,
    pb: number,
    c: number,
    ldc: number,
    alpha: number,
    accumulate: number,
  ): void;
  softmaxRows(x: number, rows: number, cols: number, ld: number, maskedNaN: number): void;
  expInto(x: number, count: number): void;
}

const decoded = new Map<string, Uint8Array<ArrayBuffer>>();
const once = (base64: string): Uint8Array<ArrayBuffer> => {
  let bytes = decoded.get(base64);
  if (!bytes) decoded.set(base64, (bytes = decodeBase64(base64)));
  return bytes;
};

/** The assembled SIMD module that owns its memory (`fma`: its relaxed-SIMD fused multiply-add twin). */
export function simdKernelBytes(fma = false): Uint8Array<ArrayBuffer> {
  return once(fma ? simdKernelFmaBase64 : simdKernelBase64);
}

/** The assembled SIMD module that imports a shared memory as env.memory (`fma`: its relaxed-SIMD twin). */
export function sharedSimdKernelBytes(fma = false): Uint8Array<ArrayBuffer> {
  return once(fma ? simdKernelFmaSharedBase64 : simdKernelSharedBase64);
}

/**
 * The smallest module using f32x4.relaxed_madd: (func (param v128 v128 v128) (result v128)
 * (f32x4.relaxed_madd (local.get 0) (local.get 1) (local.get 2))).
 */
const RELAXED_MADD_PROBE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version
  0x01,
  0x08,
  0x01,
  0x60,
  0x03,
  0x7b,
  0x7b,
  0x7b,
  0x01,
  0x7b, // type: (v128 v128 v128) -> v128
  0x03,
  0x02,
  0x01,
  0x00, // func 0 has type 0
  0x0a,
  0x0d,
  0x01,
  0x0b,
  0x00,
  0x20,
  0x00,
  0x20,
  0x01,
  0x20,
  0x02,
  0xfd,
  0x85,
  0x02,
  0x0b, // code
]);

/**
 * True when this JavaScript engine runs relaxed SIMD's fused multiply-add: a tiny module using
 * f32x4.relaxed_madd validates, and so does the FMA kernel module.
 */
export function wasmFmaSupported(): boolean {
  try {
    return wasmSimdSupported() && WebAssembly.validate(RELAXED_MADD_PROBE) && WebAssembly.validate(simdKernelBytes(true));
  } catch {
    return false;
  }
}

/** True when this JavaScript engine's WebAssembly accepts the SIMD module. */
export function wasmSimdSupported(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(simdKernelBytes());
  } catch {
    return false;
  }
}

/**
 * True when the SIMD module can also run on two threads here: SharedArrayBuffer and Atomics exist (a browser
 * page without cross-origin isolation has neither), a shared WebAssembly.Memory can be created, and the
 * shared-memory module validates.
 */
export function wasmThreadsSupported(): boolean {
  try {
    if (typeof SharedArrayBuffer !== 'function' || typeof Atomics !== 'object') return false;
    if (!wasmSimdSupported() || !WebAssembly.validate(sharedSimdKernelBytes())) return false;
    const probe = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    return probe.buffer instanceof SharedArrayBuffer;
  } catch {
    return false;
  }
}

/** The Error for a JavaScript engine without WebAssembly SIMD. */
export function wasmSimdUnavailable(): Error {
  return new Error(
    "kernel 'wasm-simd' is not available: this JavaScript engine does not support WebAssembly SIMD " +
      '(WebAssembly.validate rejected the kernel module); use the setting value "auto" or "ts"',
  );
}

/** The Error for asking for the fused multiply-add kernel where relaxed SIMD is unavailable. */
export function wasmFmaUnavailable(): Error {
  return new Error(
    'the fused multiply-add WebAssembly kernel is not available: this JavaScript engine does not support ' +
      'relaxed SIMD (f32x4.relaxed_madd); the exact kernel works everywhere',
  );
}

/** A new shared memory for the shared-memory module (grows on demand up to SHARED_MEMORY_MAX_PAGES). */
export function createSharedMemory(): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: 1, maximum: SHARED_MEMORY_MAX_PAGES, shared: true });
}

/** Instantiates the shared-memory module on `memory` (synchronously: the module is small and compiled). */
export function instantiateShared(module: WebAssembly.Module, memory: WebAssembly.Memory): SimdFunctions {
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  return instance.exports as unknown as SimdFunctions;
}
