// Mocha root hook for `npm run test:unit` (the pure tier, see scripts/test-tier.mjs): no threads, no processes.
// Starting a worker thread or a child process from a test in this tier fails that test with a message saying
// where it belongs, so the tier stays what its name claims. (kernels-setup.ts, required before this file,
// may rebuild the generated WebAssembly module in a child process once, before any test runs.)
// require, not import: the patch must reach the modules' own export objects, which other modules read at call time.
const childProcess = require('node:child_process') as Record<string, unknown>;
const workerThreads = require('node:worker_threads') as Record<string, unknown>;

// tsx compiles test files with esbuild's synchronous API, which runs esbuild in a worker thread started on
// first use. Whether that first use comes before this file depends on tsx's on-disk cache, so start it here,
// before the guard: it is the test runner's thread, not a test's.
(require('esbuild') as { transformSync(code: string): unknown }).transformSync('');

function refuse(what: string): never {
  throw new Error(`${what} in the pure unit tier: move this test to the workers tier (WORKER_TIER in scripts/test-tier.mjs)`);
}

class RefusedWorker {
  constructor() {
    refuse('a worker thread');
  }
}

workerThreads.Worker = RefusedWorker;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = () => refuse(`a child process (child_process.${name})`);
}
