// Kernel registry: which implementation of the kernel boundary the engine uses.
import type { Kernel, KernelName } from './kernel';
import { tsKernel } from './ts-kernel';

export type { Kernel, KernelName, GemmArgs, SoftmaxRowsArgs } from './kernel';
export { tsKernel } from './ts-kernel';

export type KernelPreference = 'auto' | KernelName;

let active: Kernel = tsKernel;

/** The kernel attention code calls. Always usable (the TS kernel until `initKernels` picks another). */
export function getKernel(): Kernel {
  return active;
}

export function setKernel(kernel: Kernel): void {
  active = kernel;
}

/** Picks the fastest available kernel (or the one asked for) once at start-up. */
export async function initKernels(preference: KernelPreference = 'auto'): Promise<Kernel> {
  if (preference === 'ts' || preference === 'auto') {
    active = tsKernel;
    return active;
  }
  throw new Error(`kernel '${preference}' is not available in this build`);
}
