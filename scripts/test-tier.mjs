// The two tiers of test/unit, defined here once:
//   node scripts/test-tier.mjs unit     the pure tier (npm run test:unit): engine, models, weights, tokenize,
//                                       lint, webview logic, protocol. No worker threads, no child processes
//                                       (test/unit/pure-tier.ts makes a test that starts one fail).
//   node scripts/test-tier.mjs workers  the rest (npm run test:workers): worker channels and their RPC client,
//                                       the kernel's helper thread, the CLI run as a subprocess, esbuild bundling.
// Extra arguments go to mocha (e.g. --reporter spec, --grep NAME).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

/** Test files that start threads or processes. Everything else under test/unit is the pure tier. */
export const WORKER_TIER = [
  'test/unit/worker/**/*.test.ts',
  'test/unit/kernels/parallel.test.ts',
  'test/unit/kernels/parallel-faults.test.ts',
  'test/unit/kernels/worker-threads.test.ts',
  'test/unit/cli-inspect.test.ts',
  'test/unit/cli-hostile.test.ts',
  'test/unit/models/families-cli-worker.test.ts',
  'test/unit/tokenize/bundle.test.ts',
];

// mocha replaces (does not extend) .mocharc.json's "require" list when --require is given: repeat it.
const PURE_REQUIRES = ['tsx/cjs', './test/unit/kernels-setup.ts', './test/unit/fast-check-setup.ts', './test/unit/pure-tier.ts'];

const tier = process.argv[2];
const extra = process.argv.slice(3);
const args =
  tier === 'unit'
    ? ['test/unit/**/*.test.ts', ...WORKER_TIER.flatMap((glob) => ['--ignore', glob]), ...PURE_REQUIRES.flatMap((file) => ['--require', file])]
    : tier === 'workers'
      ? WORKER_TIER
      : undefined;
if (!args) {
  console.error('usage: node scripts/test-tier.mjs unit|workers [mocha arguments]');
  process.exit(2);
}
const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
const result = spawnSync(process.execPath, [mocha, ...args, ...extra], { stdio: 'inherit' });
process.exit(result.status ?? 1);
