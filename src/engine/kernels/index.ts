// Kernel registry: which implementation of the kernel boundary the engine uses.
import type { Kernel, KernelName } from './kernel';
import { tsKernel } from './ts-kernel';
import { createWasmSimdKernel } from './wasm-kernel';
import { wasmFmaSupported, wasmSimdSupported, wasmSimdUnavailable, wasmThreadsSupported } from './simd-module';
import { createParallelWasmSimdKernel, type SpawnKernelHelper } from './parallel-kernel';

export type { Kernel, KernelName, GemmArgs, SoftmaxRowsArgs } from './kernel';
export { tsKernel } from './ts-kernel';
export { wasmFmaSupported, wasmSimdSupported, wasmThreadsSupported } from './simd-module';
export { createWasmSimdKernel, WasmSimdKernel } from './wasm-kernel';
export { createParallelWasmSimdKernel, ParallelWasmSimdKernel, type ParallelKernelOptions, type SpawnKernelHelper } from './parallel-kernel';
export { serveKernelJobs } from './parallel-helper';

/**
 * The `attentionInspector.kernel` setting: a kernel by name, or 'auto' for the fastest one available
 * ('auto' takes the fused multiply-add WebAssembly module where the runtime has relaxed SIMD; 'wasm-simd' is
 * always the exact one, the same bits on every machine).
 */
export type KernelPreference = 'auto' | KernelName;

const PREFERENCES: readonly KernelPreference[] = ['auto', 'wasm-simd', 'ts'];

/** Threads the kernels use at most: the engine thread and one helper. */
export const MAX_KERNEL_THREADS = 2;

export interface KernelInitOptions {
  /**
   * Threads for the WebAssembly SIMD kernel (default 1): 2 splits big products and softmax passes between
   * the calling thread and a helper thread started with `spawnHelper`; more than 2 is treated as 2. Where
   * shared WebAssembly memory is unavailable, the single-thread kernel is used (its `threads` is 1). The TS
   * kernel always runs on one thread.
   */
  threads?: number;
  /** Starts the helper thread (required when threads > 1; src/worker/kernel-helper.ts has one for Node). */
  spawnHelper?: SpawnKernelHelper;
  /** Where the two-thread kernel reports trouble with its helper (default console.error). */
  log?: (message: string) => void;
  /**
   * With 'auto': never take the fused multiply-add module, even where relaxed SIMD is available (tests that
   * compare results bit for bit use this). 'wasm-simd' is always exact; 'ts' has no FMA.
   */
  exact?: boolean;
}

let active: Kernel = tsKernel;
/** The WebAssembly SIMD kernel instantiated for each thread count (1 and 2) and module (exact, fma), once each. */
const wasmSimd = new Map<string, Promise<Kernel>>();

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

/** Threads the WebAssembly SIMD kernel can use here: 2 where shared WebAssembly memory works, else 1 (0 without SIMD). */
export function availableKernelThreads(): number {
  if (!wasmSimdSupported()) return 0;
  return wasmThreadsSupported() ? MAX_KERNEL_THREADS : 1;
}

function checkThreads(threads: unknown): number {
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1) {
    throw new Error(`initKernels: threads must be a positive integer, got ${String(threads)}`);
  }
  return Math.min(threads, MAX_KERNEL_THREADS);
}

/**
 * Picks the kernel once at start-up: 'auto' takes WebAssembly SIMD when the engine supports it (its fused
 * multiply-add module where relaxed SIMD is available too, unless `exact`), else the pure-TS kernel;
 * 'wasm-simd' (always the exact module) rejects with a clear Error where WebAssembly SIMD is unavailable; 'ts'
 * always works. With `threads: 2` (and a `spawnHelper`), the WebAssembly SIMD kernel runs on two threads where shared
 * WebAssembly memory is available (its `threads` says which you got). Resolves to the kernel now returned
 * by `getKernel()`.
 */
export async function initKernels(preference: KernelPreference = 'auto', options: KernelInitOptions = {}): Promise<Kernel> {
  if (!PREFERENCES.includes(preference)) {
    throw new Error(`initKernels: unknown kernel '${String(preference)}' (expected ${PREFERENCES.join(', ')})`);
  }
  const threads = checkThreads(options.threads ?? 1);
  if (threads > 1 && typeof options.spawnHelper !== 'function') {
    throw new Error(`initKernels: threads ${threads} needs a spawnHelper that starts the helper thread`);
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
  const wanted = threads > 1 && wasmThreadsSupported() ? threads : 1;
  const fma = preference === 'auto' && !options.exact && wasmFmaSupported();
  const key = `${wanted}${fma ? '-fma' : ''}`;
  let kernel = wasmSimd.get(key);
  if (!kernel) {
    kernel =
      wanted > 1
        ? createParallelWasmSimdKernel(options.spawnHelper!, { log: options.log, fma }).then((k) => k ?? createWasmSimdKernel({ fma }))
        : createWasmSimdKernel({ fma });
    wasmSimd.set(key, kernel);
  }
  try {
    active = await kernel;
  } catch (e) {
    wasmSimd.delete(key);
    if (preference === 'wasm-simd') throw e;
    active = tsKernel;
  }
  return active;
}
