// `npm run bench`: every benchmark of the project, one after another, each in its own process, each
// printing its own table (numbers only; nothing here asserts a time). Reference points measured in the
// same run (NumPy) are printed beside ours where a script has one.
//   npm run bench                        # all
//   npm run bench -- kernels gpt2        # some, by name
//   npm run bench -- --save kernels lint # and keep the log in bench/results/<date>-<names>.txt
//   npm run bench -- --save attention -- --lengths 512 --long 0   # arguments after a second -- go to each bench
// The log starts with what the figures depend on: date, commit, machine, load (before and after), Node, and
// the NumPy the references used (version, BLAS, threads). README figures cite such a file.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

interface Bench {
  name: string;
  what: string;
  script: string;
  args: string[];
}

const BENCHES: Bench[] = [
  { name: 'kernels', what: 'matmul 512×768×768 and attention-shaped products: pure-TS vs WebAssembly SIMD vs NumPy', script: 'kernels.ts', args: [] },
  {
    name: 'attention',
    what: 'multi-head attention forward in a worker (L=128/512/2048, causal) vs NumPy; host stall; tiled L=8192',
    script: 'attention.ts',
    args: [],
  },
  { name: 'gpt2-ts', what: 'GPT-2 small (124M, random weights), 256 tokens, pure-TS kernel', script: 'gpt2.ts', args: ['--kernel', 'ts'] },
  { name: 'gpt2', what: 'GPT-2 small (124M, random weights), 256 tokens, fastest kernel', script: 'gpt2.ts', args: ['--kernel', 'auto'] },
  {
    name: 'modern',
    what: 'Qwen2.5-0.5B-shaped model (bf16, sharded folder), 128 tokens: load, forward, peak RSS vs PyTorch CPU on the same weights',
    script: 'modern.ts',
    args: [],
  },
  { name: 'weights', what: 'loading a GPT-2-small safetensors checkpoint (zero-copy views)', script: 'weights.ts', args: [] },
  { name: 'tokenize', what: 'tokenizer throughput', script: 'tokenize.ts', args: [] },
  { name: 'lint', what: 'linter throughput: one large file and a whole tree', script: 'lint.ts', args: [] },
  {
    name: 'record',
    what: 'recorder overhead on a GPT-2-small-shaped forward (128 tokens) and the time from program exit to the panel data',
    script: 'record.ts',
    args: [],
  },
  { name: 'panel', what: 'panel time to first paint and redraw of 12 heads × 512² in headless Chromium', script: 'panel.ts', args: [] },
];

const root = join(__dirname, '..');
const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const args = split < 0 ? argv : argv.slice(0, split);
const passed = split < 0 ? [] : argv.slice(split + 1);
const save = args.includes('--save');
const wanted = args.filter((a) => !a.startsWith('-'));
const chosen = wanted.length ? BENCHES.filter((b) => wanted.includes(b.name)) : BENCHES;
const unknown = wanted.filter((w) => !BENCHES.some((b) => b.name === w));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);
  process.exit(2);
}

const log: string[] = [];
function out(text: string): void {
  process.stdout.write(text);
  log.push(text);
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** The NumPy the reference rows use: version, BLAS and the threads it may use (as the bench scripts start it). */
function numpyDescription(): string {
  const code = [
    'import os, numpy as np',
    "blas = np.__config__.CONFIG.get('Build Dependencies', {}).get('blas', {})",
    "print('NumPy %s, BLAS %s %s, OPENBLAS_NUM_THREADS=%s (unset: one thread per core, %d here)' % (np.__version__, blas.get('name', '?'), blas.get('version', ''), os.environ.get('OPENBLAS_NUM_THREADS', 'unset'), os.cpu_count()))",
  ].join('\n');
  const r = spawnSync('python3', ['-c', code], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : 'not available (python3 with numpy not found): no reference rows';
}

function gitCommit(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  if (head.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? ' (with uncommitted changes)' : ''}`;
}

/** f32x4.relaxed_madd in the smallest module: validates where the runtime has relaxed SIMD (Node 22+). */
const RELAXED_MADD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b, 0x03, 0x02, 0x01, 0x00, 0x0a, 0x0d, 0x01, 0x0b,
  0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfd, 0x85, 0x02, 0x0b,
]);
/** V8 flags for the kernels bench: relaxed SIMD on Node 20 (off by default there), so its FMA rows are measured. */
const RELAXED_SIMD_FLAGS = WebAssembly.validate(RELAXED_MADD_PROBE) ? [] : ['--experimental-wasm-relaxed-simd'];

function run(script: string, scriptArgs: string[], v8Flags: string[] = []): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...v8Flags, '--require', 'tsx/cjs', script, ...scriptArgs], { cwd: root, stdio: ['inherit', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => out(d.toString()));
    child.stderr.on('data', (d: Buffer) => out(d.toString()));
    child.on('close', (code) => resolve(code));
  });
}

async function main(): Promise<number> {
  const started = new Date();
  out(`Attention Inspector benchmarks — ${started.toISOString()}, commit ${gitCommit()}\n`);
  out(
    `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; load average ${load()} (1, 5, 15 min) at the start; node ${process.version}\n`,
  );
  out(`reference: ${numpyDescription()}\n`);
  out('These machines are shared: compare figures within one run (ratios), not across runs.\n\n');

  let failed = 0;
  for (const b of chosen) {
    const script = join(root, 'bench', b.script);
    const benchArgs = [...b.args, ...passed];
    out(`━━ ${b.name}: ${b.what}${benchArgs.length ? ` (bench/${b.script} ${benchArgs.join(' ')})` : ''}\n`);
    if (!existsSync(script)) {
      out(`(missing: bench/${b.script})\n\n`);
      failed++;
      continue;
    }
    const t0 = Date.now();
    const status = await run(script, benchArgs, b.name === 'kernels' ? RELAXED_SIMD_FLAGS : []);
    out(`(${b.name}: ${((Date.now() - t0) / 1000).toFixed(0)} s${status === 0 ? '' : `, exit code ${status}`}; load average now ${load()})\n\n`);
    if (status !== 0) failed++;
  }
  out(`load average at the end: ${load()}\n`);
  if (save) {
    const dir = join(root, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${started.toISOString().slice(0, 16).replace(/[:T]/g, '-')}-${chosen.map((b) => b.name).join('-')}.txt`);
    writeFileSync(file, log.join(''));
    console.log(`saved: ${file}`);
  }
  return failed ? 1 : 0;
}

void main().then((code) => process.exit(code));
