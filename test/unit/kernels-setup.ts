// Mocha root hooks (registered in .mocharc.json "require"): kernel selection for the whole unit suite.
//
//   ATTN_KERNEL=ts npx mocha          every test runs on the pure-TS kernel
//   ATTN_KERNEL=wasm-simd npx mocha   every test runs on the WebAssembly SIMD kernel (fails if unsupported)
//   ATTN_KERNEL=auto npx mocha        what the extension picks at start-up
//   (unset)                           ts, the engine's default before initKernels()
//
//   ATTN_THREADS=2 (with wasm-simd or auto)  the two-thread WebAssembly SIMD kernel (its helper thread is
//                                     src/worker/kernel-helper.ts, as in the engine worker); fails if it did
//                                     not start with two threads. Unset or 1: one thread.
//   ATTN_THREADS=2 ATTN_SPLIT=all     the same, but every product and softmax block that can be split is
//                                     (the default thresholds leave the suite's small problems on one thread)
//
// The chosen kernel is set again before every test, so a test that switched kernels cannot leak its choice.
// Also rebuilds the generated WebAssembly module when it is missing or older than its .wat source, so a
// bare `npx mocha` works without `npm run build` first.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kernel, KernelPreference } from '../../src/engine/kernels';

const root = join(__dirname, '..', '..');

function ensureWasmBuilt(): void {
  const sources = join(root, 'src/engine/kernels/wasm');
  const generated = join(root, 'src/engine/kernels/generated');
  const stale = readdirSync(sources)
    .filter((f) => f.endsWith('.wat'))
    .some((f) => {
      const source = join(sources, f);
      // the module itself and the variants it declares (`;; variant <name>: ...`, see scripts/build-wasm.mjs)
      const names = [f.replace(/\.wat$/, ''), ...[...readFileSync(source, 'utf8').matchAll(/^;; variant ([a-z0-9-]+): /gm)].map((m) => m[1])];
      return names.some((name) => {
        const out = join(generated, `${name}-wasm.ts`);
        return !existsSync(out) || statSync(out).mtimeMs < statSync(source).mtimeMs;
      });
    });
  if (stale) execFileSync(process.execPath, [join(root, 'scripts/build-wasm.mjs')], { stdio: 'inherit' });
}

ensureWasmBuilt();

const fromEnv = process.env.ATTN_KERNEL;
const requested = fromEnv === undefined || fromEnv === '' ? 'ts' : fromEnv;
const threadsFromEnv = process.env.ATTN_THREADS;
const threads = threadsFromEnv === undefined || threadsFromEnv === '' ? 1 : Number(threadsFromEnv);
let forced: { kernel: Kernel; set: (kernel: Kernel) => void } | undefined;

export const mochaHooks = {
  async beforeAll(): Promise<void> {
    // required (not imported at the top) so that the build check above runs first: the registry imports the
    // generated module; and required, not import()ed, so that tests share this same module instance
    const kernels = require('../../src/engine/kernels') as typeof import('../../src/engine/kernels');
    const { spawnKernelHelper } = require('../../src/worker/kernel-helper') as typeof import('../../src/worker/kernel-helper');
    let kernel = await kernels.initKernels(requested as KernelPreference, { threads, spawnHelper: spawnKernelHelper });
    if (process.env.ATTN_SPLIT === 'all' && kernel.name === 'wasm-simd' && threads > 1) {
      const splitAll = await kernels.createParallelWasmSimdKernel(spawnKernelHelper, { minParallelMulAdds: 0, minParallelSoftmaxFloats: 0 });
      if (!splitAll) throw new Error('ATTN_SPLIT=all: shared WebAssembly memory is not available');
      kernel = splitAll;
      kernels.setKernel(kernel);
    }
    if (threads > 1 && kernel.name === 'wasm-simd' && kernel.threads !== 2) {
      throw new Error(`ATTN_THREADS=${threadsFromEnv}: the wasm-simd kernel started with ${kernel.threads ?? 1} thread(s)`);
    }
    forced = { kernel, set: kernels.setKernel };
    if (fromEnv || threadsFromEnv) {
      const split = process.env.ATTN_SPLIT ? ` ATTN_SPLIT=${process.env.ATTN_SPLIT}` : '';
      console.log(`  kernel: ${kernel.name}, ${kernel.threads ?? 1} thread(s) (ATTN_KERNEL=${fromEnv ?? ''} ATTN_THREADS=${threadsFromEnv ?? ''}${split})`);
    }
  },
  beforeEach(): void {
    forced?.set(forced.kernel);
  },
};
