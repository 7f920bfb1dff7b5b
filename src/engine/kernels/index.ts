// Kernel registry: which implementation of the kernel boundary the engine uses.
import type { Kernel, KernelName } from './kernel';
import { tsKernel } from './ts-kernel';
import { createWasmSimdKernel, wasmSimdSupported, wasmSimdUnavailable } from './wasm-kernel';

export type { Kernel, KernelName, GemmArgs, SoftmaxRowsArgs } from './kernel';
export { tsKernel } from './ts-kernel';
export { wasmSimdSupported, createWasmSimdKernel, WasmSimdKernel } from './wasm-kernel';

/** The `attentionInspector.kernel` setting: a kernel by name, or 'auto' for the fastest one available. */
export type KernelPreference = 'auto' | KernelName;

const PREFERENCES: readonly KernelPreference[] = ['auto', 'wasm-simd', 'ts'];

let active: Kernel = tsKernel;
let wasmSimd: Promise<Kernel> | undefined;

/** The kernel attention code calls. Always usable (the TS kernel until `initKernels` picks another). */
export function getKernel(): Kernel {
  return active;
}

export function setKernel(kernel: Kernel): void {
  active = kernel;
}

/** The names of the kernels this JavaScript engine can run, fastest first. */
export function availableKernels(): KernelName[] {
  return wasmSimdSupported() ? ['wasm-simd', 'ts'] : ['ts'];
}

/**
 * Picks the kernel once at start-up: 'auto' takes WebAssembly SIMD when the engine supports it, else the
 * pure-TS kernel; 'wasm-simd' rejects with a clear Error where WebAssembly SIMD is unavailable; 'ts' always
 * works. Resolves to the kernel now returned by `getKernel()`.
 */
export async function initKernels(preference: KernelPreference = 'auto'): Promise<Kernel> {
  if (!PREFERENCES.includes(preference)) {
    throw new Error(`initKernels: unknown kernel '${String(preference)}' (expected ${PREFERENCES.join(', ')})`);
  }
  if (preference === 'ts') {
    active = tsKernel;
    return active;
  }
  if (!wasmSimdSupported()) {
    if (preference === 'wasm-simd') throw wasmSimdUnavailable();
    active = tsKernel;
    return active;
  }
  wasmSimd ??= createWasmSimdKernel();
  try {
    active = await wasmSimd;
  } catch (e) {
    wasmSimd = undefined;
    if (preference === 'wasm-simd') throw e;
    active = tsKernel;
  }
  return active;
}
