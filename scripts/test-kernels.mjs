// Runs the kernel-dependent unit tests (engine, models, session, worker, kernels) again on the WebAssembly
// SIMD kernel, on one thread and on two threads with every splittable block split, then the fused multiply-add
// kernel's tests (test/unit/kernels/fma.test.ts) on a runtime with relaxed SIMD. `npm run test:unit` and
// `npm run test:workers` run them on the pure-TypeScript kernel; see test/unit/kernels-setup.ts for the variables.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const mocha = require.resolve('mocha/bin/mocha.js');
const specs = ['test/unit/{engine,models,session,worker,kernels}/**/*.test.ts', 'test/unit/kernels.test.ts'];
const configurations = [
  { ATTN_KERNEL: 'wasm-simd', ATTN_THREADS: '1' },
  { ATTN_KERNEL: 'wasm-simd', ATTN_THREADS: '2', ATTN_SPLIT: 'all' },
];

for (const config of configurations) {
  const result = spawnSync(process.execPath, [mocha, ...specs], { stdio: 'inherit', env: { ...process.env, ...config } });
  if (result.status !== 0) {
    console.error(`kernel tests failed with ${JSON.stringify(config)}`);
    process.exit(result.status ?? 1);
  }
}

// The fused multiply-add (relaxed SIMD) kernel against the exact one and the PyTorch oracle: on a runtime with
// relaxed SIMD (Node 22+ has it; Node 20 behind a V8 flag, passed here), required so that it cannot pass unrun.
const relaxedMaddProbe = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00, 0x0a, 0x0d, 0x01, 0x0b,
  0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfd, 0x85, 0x02, 0x0b,
]);
const v8Flags = WebAssembly.validate(relaxedMaddProbe) ? [] : ['--experimental-wasm-relaxed-simd'];
const fma = spawnSync(process.execPath, [...v8Flags, mocha, 'test/unit/kernels/fma.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, ATTN_REQUIRE_FMA: '1' },
});
if (fma.status !== 0) {
  console.error(`fused multiply-add kernel tests failed (node ${v8Flags.join(' ')})`);
  process.exit(fma.status ?? 1);
}
