// The assembled WebAssembly SIMD modules (./wasm/simd-kernel.wat) and what their functions look like from
// TypeScript. Two variants of the same code: `simd-kernel` owns its memory (the single-thread kernel);
// `simd-kernel-shared` imports a shared WebAssembly.Memory (threads proposal) as env.memory, so that the
// engine thread and one helper thread run the same functions on the same staged operands.
import { decodeBase64 } from './base64';
import { simdKernelBase64 } from './generated/simd-kernel-wasm';
import { simdKernelSharedBase64 } from './generated/simd-kernel-shared-wasm';

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
    mc: number, nc: number, kc: number, a: number, lda: number, packedA: number, pb: number,
    c: number, ldc: number, alpha: number, accumulate: number,
  ): void;
  softmaxRows(x: number, rows: number, cols: number, ld: number, maskedNaN: number): void;
  expInto(x: number, count: number): void;
}

let privateBytes: Uint8Array<ArrayBuffer> | undefined;
let sharedBytes: Uint8Array<ArrayBuffer> | undefined;

/** The assembled SIMD module that owns its memory. */
export function simdKernelBytes(): Uint8Array<ArrayBuffer> {
  privateBytes ??= decodeBase64(simdKernelBase64);
  return privateBytes;
}

/** The assembled SIMD module that imports a shared memory as env.memory. */
export function sharedSimdKernelBytes(): Uint8Array<ArrayBuffer> {
  sharedBytes ??= decodeBase64(simdKernelSharedBase64);
  return sharedBytes;
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

/** A new shared memory for the shared-memory module (grows on demand up to SHARED_MEMORY_MAX_PAGES). */
export function createSharedMemory(): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: 1, maximum: SHARED_MEMORY_MAX_PAGES, shared: true });
}

/** Instantiates the shared-memory module on `memory` (synchronously: the module is small and compiled). */
export function instantiateShared(module: WebAssembly.Module, memory: WebAssembly.Memory): SimdFunctions {
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  return instance.exports as unknown as SimdFunctions;
}
