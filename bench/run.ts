// `npm run bench`: every benchmark of the project, one after another, each in its own process, each
// printing its own table (numbers only; nothing here asserts a time). Reference points measured in the
// same run (NumPy) are printed beside ours where a script has one.
//   npm run bench                 # all
//   npm run bench -- kernels gpt2 # some, by name
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

interface Bench {
  name: string;
  what: string;
  script: string;
  args: string[];
}

const BENCHES: Bench[] = [
  { name: 'kernels', what: 'matmul 512×768×768 and attention-shaped products: pure-TS vs WebAssembly SIMD vs NumPy', script: 'kernels.ts', args: [] },
  { name: 'attention', what: 'multi-head attention forward in a worker (L=128/512/2048, causal) vs NumPy; host stall; tiled L=8192', script: 'attention.ts', args: [] },
  { name: 'gpt2-ts', what: 'GPT-2 small (124M, random weights), 256 tokens, pure-TS kernel', script: 'gpt2.ts', args: ['--kernel', 'ts'] },
  { name: 'gpt2', what: 'GPT-2 small (124M, random weights), 256 tokens, fastest kernel', script: 'gpt2.ts', args: ['--kernel', 'auto'] },
  { name: 'weights', what: 'loading a GPT-2-small safetensors checkpoint (zero-copy views)', script: 'weights.ts', args: [] },
  { name: 'tokenize', what: 'tokenizer throughput', script: 'tokenize.ts', args: [] },
  { name: 'lint', what: 'linter throughput: one large file and a whole tree', script: 'lint.ts', args: [] },
  { name: 'record', what: 'recorder overhead on a GPT-2-small-shaped forward (128 tokens) and the time from program exit to the panel data', script: 'record.ts', args: [] },
  { name: 'panel', what: 'panel time to first paint and redraw of 12 heads × 512² in headless Chromium', script: 'panel.ts', args: [] },
];

const root = join(__dirname, '..');
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const chosen = wanted.length ? BENCHES.filter((b) => wanted.includes(b.name)) : BENCHES;
const unknown = wanted.filter((w) => !BENCHES.some((b) => b.name === w));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);
  process.exit(2);
}

console.log(`Attention Inspector benchmarks — ${new Date().toISOString()}`);
console.log(`${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}; node ${process.version}`);
console.log('These machines are shared: compare figures within one run (ratios), not across runs.\n');

let failed = 0;
for (const b of chosen) {
  const script = join(root, 'bench', b.script);
  console.log(`━━ ${b.name}: ${b.what}`);
  if (!existsSync(script)) {
    console.log(`(missing: bench/${b.script})\n`);
    failed++;
    continue;
  }
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--require', 'tsx/cjs', script, ...b.args], { cwd: root, stdio: 'inherit' });
  console.log(`(${b.name}: ${((Date.now() - started) / 1000).toFixed(0)} s${r.status === 0 ? '' : `, exit code ${r.status}`})\n`);
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
