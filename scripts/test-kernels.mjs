// Runs the kernel-dependent unit tests (engine, models, session, worker, kernels) again on the WebAssembly
// SIMD kernel, on one thread and on two threads with every splittable block split. `npm run test:unit` and
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
