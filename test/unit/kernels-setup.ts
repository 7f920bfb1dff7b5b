// Mocha root hooks (registered in .mocharc.json "require"): kernel selection for the whole unit suite.
//
//   ATTN_KERNEL=ts npx mocha          every test runs on the pure-TS kernel
//   ATTN_KERNEL=wasm-simd npx mocha   every test runs on the WebAssembly SIMD kernel (fails if unsupported)
//   ATTN_KERNEL=auto npx mocha        what the extension picks at start-up
//   (unset)                           ts, the engine's default before initKernels()
//
// The chosen kernel is set again before every test, so a test that switched kernels cannot leak its choice.
// Also rebuilds the generated WebAssembly module when it is missing or older than its .wat source, so a
// bare `npx mocha` works without `npm run build` first.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kernel, KernelPreference } from '../../src/engine/kernels';

const root = join(__dirname, '..', '..');

function ensureWasmBuilt(): void {
  const sources = join(root, 'src/engine/kernels/wasm');
  const generated = join(root, 'src/engine/kernels/generated');
  const stale = readdirSync(sources)
    .filter((f) => f.endsWith('.wat'))
    .some((f) => {
      const out = join(generated, f.replace(/\.wat$/, '-wasm.ts'));
      return !existsSync(out) || statSync(out).mtimeMs < statSync(join(sources, f)).mtimeMs;
    });
  if (stale) execFileSync(process.execPath, [join(root, 'scripts/build-wasm.mjs')], { stdio: 'inherit' });
}

ensureWasmBuilt();

const fromEnv = process.env.ATTN_KERNEL;
const requested = fromEnv === undefined || fromEnv === '' ? 'ts' : fromEnv;
let forced: { kernel: Kernel; set: (kernel: Kernel) => void } | undefined;

export const mochaHooks = {
  async beforeAll(): Promise<void> {
    // required (not imported at the top) so that the build check above runs first: the registry imports the
    // generated module; and required, not import()ed, so that tests share this same module instance
    const kernels = require('../../src/engine/kernels') as typeof import('../../src/engine/kernels');
    const kernel = await kernels.initKernels(requested as KernelPreference);
    forced = { kernel, set: kernels.setKernel };
    if (fromEnv) console.log(`  kernel: ${kernel.name} (ATTN_KERNEL=${fromEnv})`);
  },
  beforeEach(): void {
    forced?.set(forced.kernel);
  },
};
