// Multi-head attention forward in the engine worker, against NumPy in the same run.
//   npx tsx bench/attention.ts [--kernels ts,wasm-simd:1,wasm-simd:2] [--lengths 128,512,2048] [--reps 5] [--long 8192]
// A kernel is `name` or `name:threads` (wasm-simd:2 = the two-thread kernel: the engine worker plus its
// kernel helper thread, as the extension runs it). For each kernel and length: median ms of
// nn.MultiheadAttention's forward (12 heads, d_k 64, causal, need_weights=False) computed in a worker thread,
// GFLOP/s, NumPy's median for the same forward measured just before (both cores), the ratio, the main
// thread's worst event-loop stall while the worker computes (what the extension host would feel), and the
// process's peak RSS. Each configuration runs in a fresh child process so peak memory is its own. The ts rows
// are the previous pure-TS figures. The long row runs the tiled (flash) path, outputs only, to show memory
// stays bounded.
import { execFileSync, spawnSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import * as engine from '../src/engine';
import { spawnKernelHelper } from '../src/worker/kernel-helper';

const E = 768;
const H = 12;

interface ChildResult {
  kernel: string;
  /** Threads the kernel really ran on. */
  threads: number;
  L: number;
  mode: 'mha' | 'flash';
  medianMs: number;
  minMs: number;
  stallMs: number;
  peakRssMiB: number;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** FLOPs of one forward: 4 projections (2·L·E·E each) and two L×L×E products (QKᵀ and P·V). */
function flops(L: number): number {
  return 4 * 2 * L * E * E + 2 * 2 * L * L * E;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// ---------------------------------------------------------------- worker: the computation itself
async function workerMain(): Promise<void> {
  const { kernel, threads, L, mode } = workerData as { kernel: 'ts' | 'wasm-simd'; threads: number; L: number; mode: 'mha' | 'flash' };
  const active = await engine.initKernels(kernel, { threads, spawnHelper: spawnKernelHelper });
  let seed = 12345;
  const rand = (n: number, scale: number) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      a[i] = (seed / 2 ** 32 - 0.5) * scale;
    }
    return a;
  };
  const x = engine.tensor(rand(L * E, 2), [1, L, E]);
  const inProjWeight = engine.tensor(rand(3 * E * E, 2 / Math.sqrt(E)), [3 * E, E]);
  const outProjWeight = engine.tensor(rand(E * E, 2 / Math.sqrt(E)), [E, E]);
  // The causal attn_mask (True = masked) is an input, built once like NumPy's additive mask.
  const causal =
    mode === 'mha'
      ? engine.boolTensor(
          Uint8Array.from({ length: L * L }, (_, idx) => (idx % L > Math.floor(idx / L) ? 1 : 0)),
          [L, L],
        )
      : undefined;
  const forward = () => {
    if (mode === 'mha') {
      return engine.multiheadAttention(x, x, x, { numHeads: H, inProjWeight, outProjWeight }, { attnMask: causal, needWeights: false }).out;
    }
    // Tiled path: project, split heads, flash attention (no L×L matrix), merge, output projection.
    const { q, k, v } = engine.projectHeads(engine.reshape(x, [L, E]), inProjWeight, null, H); // each (H, L, hd)
    const { out } = engine.flashAttention(q, k, v, { isCausal: true }); // (H, L, hd)
    const merged = engine.contiguous(engine.permute(out, [1, 0, 2])); // (L, H, hd)
    return engine.linear(engine.reshape(merged, [L, E]), outProjWeight);
  };
  parentPort!.on('message', (msg: { rep: number }) => {
    const t0 = performance.now();
    const out = forward();
    const ms = performance.now() - t0;
    const copy = out.data.slice(0, 16);
    parentPort!.postMessage({ rep: msg.rep, ms, sample: copy }, [copy.buffer]);
  });
  parentPort!.postMessage({ ready: true, threads: active.threads ?? 1 });
}

// ---------------------------------------------------------------- child: one configuration, measured
async function childMain(): Promise<void> {
  const kernel = arg('kernel', 'ts');
  const threads = Number(arg('threads', '1'));
  const L = Number(arg('L', '512'));
  const mode = arg('mode', 'mha') as 'mha' | 'flash';
  const reps = Number(arg('reps', '5'));
  const worker = new Worker(__filename, { workerData: { kernel, threads, L, mode }, execArgv: ['--require', 'tsx/cjs'] });
  const ranOn = await new Promise<number>((resolve, reject) => {
    worker.once('message', (m: { threads: number }) => resolve(m.threads));
    worker.once('error', reject);
  });
  // The main thread only waits, as the extension host does; its event-loop delay is the stall users feel.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const times: number[] = [];
  for (let rep = 0; rep <= reps; rep++) {
    if (rep === 1) delay.enable(); // rep 0 warms up (JIT, wasm memory growth)
    const ms = await new Promise<number>((resolve, reject) => {
      worker.once('message', (m: { ms: number }) => resolve(m.ms));
      worker.once('error', reject);
      worker.postMessage({ rep });
    });
    if (rep > 0) times.push(ms);
  }
  delay.disable();
  await worker.terminate();
  const result: ChildResult = {
    kernel,
    threads: ranOn,
    L,
    mode,
    medianMs: median(times),
    minMs: Math.min(...times),
    stallMs: delay.max / 1e6,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(JSON.stringify(result) + '\n');
}

// ---------------------------------------------------------------- NumPy reference, same shapes
const NUMPY = String.raw`
import json, sys, time
import numpy as np
L, E, H, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
hd = E // H
rng = np.random.default_rng(0)
x = rng.standard_normal((L, E), dtype=np.float32)
w_in = (rng.standard_normal((3 * E, E), dtype=np.float32) / np.sqrt(E)).astype(np.float32)
w_out = (rng.standard_normal((E, E), dtype=np.float32) / np.sqrt(E)).astype(np.float32)
mask = np.triu(np.full((L, L), -np.inf, dtype=np.float32), 1)
def forward():
    qkv = x @ w_in.T                                              # (L, 3E)
    q, k, v = (qkv[:, i * E:(i + 1) * E].reshape(L, H, hd).transpose(1, 0, 2) for i in range(3))  # (H, L, hd)
    s = (q @ k.transpose(0, 2, 1)) * np.float32(1 / np.sqrt(hd)) + mask       # (H, L, L)
    s -= s.max(axis=-1, keepdims=True)
    p = np.exp(s); p /= p.sum(axis=-1, keepdims=True)
    ctx = (p @ v).transpose(1, 0, 2).reshape(L, E)                # (L, E)
    return ctx @ w_out.T
forward()
times = []
for _ in range(reps):
    t = time.perf_counter(); forward(); times.append((time.perf_counter() - t) * 1000)
times.sort()
print(json.dumps({"medianMs": times[len(times) // 2]}))
`;

function numpyEnv(threads?: string): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // These two slow a current NumPy down on these machines: unset them for the reference only.
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  if (threads) env.OPENBLAS_NUM_THREADS = threads;
  return env;
}

function numpyMs(L: number, reps: number): number | undefined {
  const r = spawnSync('python3', ['-c', NUMPY, String(L), String(E), String(H), String(reps)], { env: numpyEnv(), encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) return undefined;
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { medianMs: number }).medianMs;
}

function hasNumpy(): boolean {
  return spawnSync('python3', ['-c', 'import numpy'], { env: numpyEnv() }).status === 0;
}

/** `wasm-simd:2` -> the kernel name and its thread count (1 when not given). */
function parseKernel(spec: string): { kernel: string; threads: number } {
  const [kernel, threads = '1'] = spec.split(':');
  return { kernel, threads: Number(threads) };
}

function runChild(spec: string, L: number, mode: 'mha' | 'flash', reps: number): ChildResult {
  const { kernel, threads } = parseKernel(spec);
  const out = execFileSync(
    process.execPath,
    ['--require', 'tsx/cjs', __filename, '--child', '--kernel', kernel, '--threads', String(threads), '--L', String(L), '--mode', mode, '--reps', String(reps)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as ChildResult;
}

function parentMain(): void {
  const kernels = arg('kernels', 'ts,wasm-simd:1,wasm-simd:2').split(',');
  const lengths = arg('lengths', '128,512,2048').split(',').map(Number);
  const reps = Number(arg('reps', '5'));
  const long = Number(arg('long', '8192'));
  const numpy = hasNumpy();
  const fmt = (x: number | undefined, d = 1) => (x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(d));
  console.log(`Multi-head attention forward, ${H} heads, d_k ${E / H}, d_model ${E}, causal, need_weights=False; median of ${reps} (after 1 warm-up)`);
  console.log(
    `NumPy: ${numpy ? 'default BLAS threads (both cores), OPENBLAS_CORETYPE/L2_SIZE unset, measured right before each row' : 'not available (python3 with numpy not found)'}`,
  );
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ts rows: the previous pure-TS figures`,
  );
  console.log(['kernel', 'threads', 'L', 'median ms', 'min ms', 'GFLOP/s', 'NumPy ms', '× NumPy', 'worst host stall ms', 'peak RSS MiB'].join('\t'));
  for (const L of lengths) {
    for (const kernel of kernels) {
      // NumPy right before each row, so both see about the same machine load
      const np = numpy ? numpyMs(L, reps) : undefined;
      const r = runChild(kernel, L, 'mha', reps);
      console.log(
        [
          parseKernel(kernel).kernel,
          r.threads,
          L,
          fmt(r.medianMs),
          fmt(r.minMs),
          fmt(flops(L) / r.medianMs / 1e6, 2),
          fmt(np),
          np ? fmt(r.medianMs / np, 2) : '—',
          fmt(r.stallMs, 1),
          fmt(r.peakRssMiB, 0),
        ].join('\t'),
      );
    }
  }
  if (long > 0) {
    console.log(`\nTiled (online-softmax) path, outputs only, L=${long} (the L×L weights would be ${((H * long * long * 4) / 2 ** 20).toFixed(0)} MiB):`);
    console.log(['kernel', 'threads', 'L', 'median ms', 'GFLOP/s', 'worst host stall ms', 'peak RSS MiB'].join('\t'));
    for (const kernel of kernels) {
      const r = runChild(kernel, long, 'flash', Math.max(1, Math.min(reps, 2)));
      console.log(
        [parseKernel(kernel).kernel, r.threads, long, fmt(r.medianMs), fmt(flops(long) / r.medianMs / 1e6, 2), fmt(r.stallMs, 1), fmt(r.peakRssMiB, 0)].join(
          '\t',
        ),
      );
    }
  }
}

if (!isMainThread) void workerMain();
else if (process.argv.includes('--child')) void childMain();
else parentMain();
