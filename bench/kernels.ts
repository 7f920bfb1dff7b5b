// Kernel benchmark: `npx tsx bench/kernels.ts [--quick]` (build first: `npm run build` generates the wasm module).
//
// Medians (and best) for the pure-TS kernel, the WebAssembly SIMD kernel on one thread and on two (the engine
// thread plus its kernel helper thread) on the products attention needs, the softmax row pass, and a
// kernel-only multi-head attention forward (L=512, 12 heads, d_model 768); then where splitting starts to pay;
// NumPy's times for the same work in the same run when `python3 -c 'import numpy'` works (OpenBLAS with
// OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE removed from its environment, one thread and default threads).
// Then the fused multiply-add (relaxed SIMD) modules against the exact ones and NumPy, in GFLOP/s per thread,
// where the runtime has relaxed SIMD (Node 22+; `npm run bench` passes Node 20 --experimental-wasm-relaxed-simd).
// The machine is shared: numbers are noisy, so compare within one run and look at "best" as well as medians.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { createParallelWasmSimdKernel, createWasmSimdKernel, tsKernel, wasmFmaSupported } from '../src/engine/kernels';
import type { Kernel } from '../src/engine/kernels';
import { PARALLEL_MIN_MULADDS, PARALLEL_MIN_SOFTMAX_FLOATS } from '../src/engine/kernels/parallel-kernel';
import { spawnKernelHelper } from '../src/worker/kernel-helper';

const quick = process.argv.includes('--quick');

interface Product {
  name: string;
  m: number;
  n: number;
  k: number;
  transB: boolean;
}

const products: Product[] = [
  { name: 'matmul 512x768x768', m: 512, n: 768, k: 768, transB: false },
  { name: 'linear x·Wᵀ 512x768x768', m: 512, n: 768, k: 768, transB: true },
];
for (const L of [128, 512, 2048]) {
  products.push({ name: `Q·Kᵀ L=${L} hd=64`, m: L, n: L, k: 64, transB: true });
  products.push({ name: `P·V  L=${L} hd=64`, m: L, n: 64, k: L, transB: false });
}
const softmaxSizes = [128, 512, 2048];

interface Timing {
  median: number;
  best: number;
}

/** Runs fn until at least minReps runs and budget ms have passed (after one warm-up); times in ms. */
function measure(fn: () => void, budgetMs = quick ? 150 : 600, minReps = quick ? 3 : 5): Timing {
  fn();
  const times: number[] = [];
  const start = performance.now();
  while (times.length < minReps || (performance.now() - start < budgetMs && times.length < 400)) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], best: times[0] };
}

function random(len: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const out = new Float32Array(len);
  for (let i = 0; i < len; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 2 ** 32 - 0.5;
  }
  return out;
}

const flops = (p: Product): number => 2 * p.m * p.n * p.k;

function timeProduct(kernel: Kernel, p: Product): Timing {
  const a = random(p.m * p.k, 1);
  const b = random(p.k * p.n, 2);
  const c = new Float32Array(p.m * p.n);
  const args = { m: p.m, n: p.n, k: p.k, a, aOff: 0, lda: p.k, b, bOff: 0, ldb: p.transB ? p.k : p.n, transB: p.transB, c, cOff: 0, ldc: p.n };
  return measure(() => kernel.gemm(args));
}

function timeSoftmax(kernel: Kernel, L: number): Timing {
  const src = random(L * L, 3).map((v) => v * 16);
  const x = new Float32Array(L * L);
  return measure(() => {
    x.set(src);
    kernel.softmaxRows({ x, off: 0, rows: L, cols: L, ld: L, fullyMasked: 'zero' });
  });
}

/** One multi-head attention forward made of kernel calls only: 4 projections, per head Q·Kᵀ, softmax, P·V. */
function timeMha(kernel: Kernel, L = 512, heads = 12, d = 768): Timing {
  const hd = d / heads;
  const x = random(L * d, 4);
  const w = [5, 6, 7, 8].map((s) => random(d * d, s));
  const [q, k, v, ctx, out] = [0, 1, 2, 3, 4].map(() => new Float32Array(L * d));
  const scores = new Float32Array(L * L);
  const linear = (input: Float32Array, weight: Float32Array, output: Float32Array): void =>
    kernel.gemm({ m: L, n: d, k: d, a: input, aOff: 0, lda: d, b: weight, bOff: 0, ldb: d, transB: true, c: output, cOff: 0, ldc: d });
  return measure(
    () => {
      linear(x, w[0], q);
      linear(x, w[1], k);
      linear(x, w[2], v);
      for (let h = 0; h < heads; h++) {
        kernel.gemm({
          m: L,
          n: L,
          k: hd,
          a: q,
          aOff: h * hd,
          lda: d,
          b: k,
          bOff: h * hd,
          ldb: d,
          transB: true,
          c: scores,
          cOff: 0,
          ldc: L,
          alpha: 1 / Math.sqrt(hd),
        });
        kernel.softmaxRows({ x: scores, off: 0, rows: L, cols: L, ld: L, fullyMasked: 'zero' });
        kernel.gemm({ m: L, n: hd, k: L, a: scores, aOff: 0, lda: L, b: v, bOff: h * hd, ldb: d, transB: false, c: ctx, cOff: h * hd, ldc: d });
      }
      linear(ctx, w[3], out);
    },
    quick ? 300 : 1500,
    3,
  );
}

/** The copies the wasm kernel makes for one product with beta 0 (A and B in, C out), as TypedArray.set calls. */
function timeCopies(p: Product): Timing {
  const a = random(p.m * p.k, 1);
  const b = random(p.k * p.n, 2);
  const mem = new Float32Array(p.m * p.k + p.k * p.n + p.m * p.n);
  const out = new Float32Array(p.m * p.n);
  return measure(() => {
    mem.set(a, 0);
    mem.set(b, p.m * p.k);
    out.set(mem.subarray(p.m * p.k + p.k * p.n));
  });
}

// A NumPy worker: reads one JSON request per line, answers one JSON line of timings (ms) per request, so each
// row of the table measures NumPy right next to the TS and wasm kernels (the machine's load changes quickly).
const NUMPY_WORKER = String.raw`
import json, sys, time
import numpy as np
quick = sys.argv[1] == '1'
rng = np.random.default_rng(0)
def measure(fn, budget, min_reps):
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < min_reps or (time.perf_counter() - start < budget and len(times) < 400):
        t = time.perf_counter(); fn(); times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    return {'median': times[len(times) // 2], 'best': times[0]}
def product(p):
    a = rng.random((p['m'], p['k']), dtype=np.float32) - 0.5
    b = rng.random((p['n'], p['k']) if p['transB'] else (p['k'], p['n']), dtype=np.float32) - 0.5
    c = np.empty((p['m'], p['n']), dtype=np.float32)
    fn = (lambda: np.matmul(a, b.T, out=c)) if p['transB'] else (lambda: np.matmul(a, b, out=c))
    return measure(fn, 0.15 if quick else 0.6, 5)
def softmax(L):
    src = (rng.random((L, L), dtype=np.float32) - 0.5) * 16
    def run():
        e = np.exp(src - src.max(axis=-1, keepdims=True))
        e /= e.sum(axis=-1, keepdims=True)
    return measure(run, 0.15 if quick else 0.6, 5)
def mha(L=512, H=12, d=768):
    hd = d // H
    x = rng.random((L, d), dtype=np.float32) - 0.5
    w = [rng.random((d, d), dtype=np.float32) - 0.5 for _ in range(4)]
    def run():
        q = (x @ w[0].T).reshape(L, H, hd).transpose(1, 0, 2)
        k = (x @ w[1].T).reshape(L, H, hd).transpose(1, 0, 2)
        v = (x @ w[2].T).reshape(L, H, hd).transpose(1, 0, 2)
        s = (q @ k.transpose(0, 2, 1)) * np.float32(1 / np.sqrt(hd))
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        s /= s.sum(axis=-1, keepdims=True)
        ctx = (s @ v).transpose(1, 0, 2).reshape(L, d)
        return ctx @ w[3].T
    return measure(run, 0.3 if quick else 1.5, 3)
def openblas_core():
    import ctypes, re
    for lib in sorted(set(re.findall(r'(/\S*openblas\S*\.so\S*)', open('/proc/self/maps').read()))):
        for sym in ('openblas_get_corename', 'scipy_openblas_get_corename64_', 'scipy_openblas_get_corename'):
            f = getattr(ctypes.CDLL(lib), sym, None)
            if f is not None:
                f.restype = ctypes.c_char_p
                return f().decode()
    return 'unknown'
print(json.dumps({'ready': 'NumPy %s, OpenBLAS core %s' % (np.__version__, openblas_core())}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if req['kind'] == 'product': out = product(req['product'])
    elif req['kind'] == 'softmax': out = softmax(req['L'])
    else: out = mha()
    print(json.dumps(out), flush=True)
`;

type NumpyRequest = { kind: 'product'; product: Product } | { kind: 'softmax'; L: number } | { kind: 'mha' };

/** A python3 process running NUMPY_WORKER with the given OpenBLAS thread count (undefined: its default). */
class NumpyWorker {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiting: { resolve: (line: string) => void; reject: (e: Error) => void }[] = [];
  readonly ready: Promise<string>;

  constructor(threads: string | undefined) {
    const env = { ...process.env };
    delete env.OPENBLAS_CORETYPE;
    delete env.OPENBLAS_L2_SIZE;
    if (threads) env.OPENBLAS_NUM_THREADS = threads;
    else delete env.OPENBLAS_NUM_THREADS;
    this.child = spawn('python3', ['-c', NUMPY_WORKER, quick ? '1' : '0'], { env });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.waiting.shift()?.resolve(line);
      }
    });
    this.child.on('exit', (code) => {
      for (const w of this.waiting.splice(0)) w.reject(new Error(`python3 exited (${code})`));
    });
    this.ready = this.next().then((line) => (JSON.parse(line) as { ready: string }).ready);
  }

  private next(): Promise<string> {
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  async time(request: NumpyRequest): Promise<Timing> {
    const reply = this.next();
    this.child.stdin.write(`${JSON.stringify(request)}\n`);
    return JSON.parse(await reply) as Timing;
  }

  close(): void {
    this.child.stdin.end();
  }
}

/** Both NumPy workers, or the reason there are none. */
async function startNumpy(): Promise<{ one: NumpyWorker; all: NumpyWorker; version: string } | string> {
  const probe = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' });
  if (probe.status !== 0) return 'python3 with numpy not available';
  const one = new NumpyWorker('1');
  const all = new NumpyWorker(undefined);
  try {
    const [version] = await Promise.all([one.ready, all.ready]);
    return { one, all, version };
  } catch (e) {
    one.close();
    all.close();
    return `numpy worker failed: ${String(e)}`;
  }
}

const fmtMs = (t: Timing): string => `${t.median.toFixed(2)} (${t.best.toFixed(2)})`;
const gf = (f: number, ms: number): string => (f / ms / 1e6).toFixed(1);
const pad = (s: string, n: number): string => s.padEnd(n);

/**
 * Where splitting pays: cube products s x s x s and blocks of softmax rows, each on the two-thread kernel
 * forced to split (threshold 0) and on one thread, best of many runs (the hand-over cost is what matters).
 */
async function splitThresholds(single: Kernel): Promise<void> {
  const forced = await createParallelWasmSimdKernel(spawnKernelHelper, { minParallelMulAdds: 0, minParallelSoftmaxFloats: 0 });
  if (!forced) return;
  console.log(
    `\nsplit threshold: best ms on one thread vs split in two (PARALLEL_MIN_MULADDS = 2^${Math.log2(PARALLEL_MIN_MULADDS)}, PARALLEL_MIN_SOFTMAX_FLOATS = 2^${Math.log2(PARALLEL_MIN_SOFTMAX_FLOATS)})`,
  );
  console.log(`${pad('product s x s x s', 26)}${pad('m·n·k', 12)}${pad('1 thread', 12)}${pad('split', 12)}split/1`);
  for (const size of [24, 32, 48, 64, 80, 96, 128, 192]) {
    const p: Product = { name: `${size}`, m: size, n: size, k: size, transB: false };
    const one = timeProduct(single, p);
    const two = timeProduct(forced, p);
    console.log(
      `${pad(`s=${size}`, 26)}${pad(`2^${Math.log2(size ** 3).toFixed(1)}`, 12)}${pad(one.best.toFixed(3), 12)}${pad(two.best.toFixed(3), 12)}${(two.best / one.best).toFixed(2)}`,
    );
  }
  console.log(`${pad('softmax rows x 512', 26)}${pad('floats', 12)}${pad('1 thread', 12)}${pad('split', 12)}split/1`);
  for (const rows of [8, 16, 32, 64, 128, 256]) {
    const [one, two] = [single, forced].map((kernel) => {
      const src = random(rows * 512, 3).map((v) => v * 16);
      const x = new Float32Array(rows * 512);
      return measure(() => {
        x.set(src);
        kernel.softmaxRows({ x, off: 0, rows, cols: 512, ld: 512, fullyMasked: 'zero' });
      });
    });
    console.log(
      `${pad(`rows=${rows}`, 26)}${pad(`2^${Math.log2(rows * 512)}`, 12)}${pad(one.best.toFixed(3), 12)}${pad(two.best.toFixed(3), 12)}${(two.best / one.best).toFixed(2)}`,
    );
  }
  forced.dispose();
}

/** GFLOP/s from a median (best), divided by the threads that computed it. */
const perThread = (f: number, t: Timing, threads: number): string => `${gf(f / threads, t.median)} (${gf(f / threads, t.best)})`;

/**
 * GFLOP/s per thread of the exact and the fused multiply-add modules, on one thread and on two, against NumPy
 * on one thread, each row measured back to back (target: >= 40 GFLOP/s per thread with FMA).
 */
async function fmaTable(exact: Kernel, exactTwo: Kernel, np: { one: NumpyWorker } | undefined): Promise<void> {
  const runtime = `Node ${process.version}, V8 ${process.versions.v8}`;
  if (!wasmFmaSupported()) {
    console.log(`
fused multiply-add: relaxed SIMD is not available on ${runtime} (Node 20 needs --experimental-wasm-relaxed-simd): no FMA rows`);
    return;
  }
  const fma = await createWasmSimdKernel({ fma: true });
  const fmaTwo = await createParallelWasmSimdKernel(spawnKernelHelper, { fma: true });
  if (!fmaTwo) throw new Error('shared WebAssembly memory is not available: no two-thread FMA kernel to measure');
  console.log(`
fused multiply-add (f32x4.relaxed_madd, ${runtime}) vs exact (f32x4.mul + f32x4.add): GFLOP/s PER THREAD, median (best)`);
  console.log(
    [
      pad('product', 26),
      pad('exact-1t', 14),
      pad('fma-1t', 14),
      pad('exact-2t/thr', 14),
      pad('fma-2t/thr', 14),
      pad('numpy-1t', 14),
      pad('fma/exact 1t', 14),
      'fma-1t/np-1t',
    ].join(''),
  );
  for (const p of products) {
    const f = flops(p);
    const [e1, f1, e2, f2] = [exact, fma, exactTwo, fmaTwo].map((kernel) => timeProduct(kernel, p));
    const n1 = await np?.one.time({ kind: 'product', product: p });
    console.log(
      [
        pad(p.name, 26),
        pad(perThread(f, e1, 1), 14),
        pad(perThread(f, f1, 1), 14),
        pad(perThread(f, e2, 2), 14),
        pad(perThread(f, f2, 2), 14),
        pad(n1 ? perThread(f, n1, 1) : '-', 14),
        pad(`${(e1.median / f1.median).toFixed(2)}x`, 14),
        n1 ? `${(n1.median / f1.median).toFixed(2)}x` : '-',
      ].join(''),
    );
  }
  console.log('(2t/thr: GFLOP/s of the two-thread kernel divided by 2; fma/exact and fma-1t/np-1t are speed ratios, > 1 = FMA faster)');
  fmaTwo.dispose();
}

async function main(): Promise<void> {
  const wasm = await createWasmSimdKernel();
  const two = await createParallelWasmSimdKernel(spawnKernelHelper);
  if (!two) throw new Error('shared WebAssembly memory is not available: no two-thread kernel to measure');
  const kernels: Kernel[] = [tsKernel, wasm, two];
  console.log(
    `kernels benchmark: ${cpus()[0]?.model ?? '?'} x${cpus().length}, Node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('times: median ms (best ms); GF/s from the median (best); "wasm" = one thread, "wasm-2t" = two threads\n');
  const numpy = await startNumpy();
  const np = typeof numpy === 'object' ? numpy : undefined;
  console.log(np ? `${np.version} (OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset), measured right after each row's kernels\n` : `NumPy: ${String(numpy)}\n`);

  const header = [
    pad('product', 26),
    pad('ts ms', 18),
    pad('ts GF/s', 12),
    pad('wasm ms', 16),
    pad('wasm GF/s', 13),
    pad('wasm-2t ms', 16),
    pad('2t GF/s', 13),
    pad('numpy-1t ms', 16),
    pad('np GF/s', 13),
    pad('np-all ms', 16),
    pad('wasm/np-1t', 11),
    pad('2t/np-all', 10),
    ' ts/np-1t',
  ];
  console.log(header.join(''));
  for (const p of products) {
    const f = flops(p);
    const [t, w, w2] = kernels.map((kernel) => timeProduct(kernel, p));
    const n1 = await np?.one.time({ kind: 'product', product: p });
    const nd = await np?.all.time({ kind: 'product', product: p });
    console.log(
      [
        pad(p.name, 26),
        pad(fmtMs(t), 18),
        pad(`${gf(f, t.median)} (${gf(f, t.best)})`, 12),
        pad(fmtMs(w), 16),
        pad(`${gf(f, w.median)} (${gf(f, w.best)})`, 13),
        pad(fmtMs(w2), 16),
        pad(`${gf(f, w2.median)} (${gf(f, w2.best)})`, 13),
        pad(n1 ? fmtMs(n1) : '-', 16),
        pad(n1 ? `${gf(f, n1.median)} (${gf(f, n1.best)})` : '-', 13),
        pad(nd ? fmtMs(nd) : '-', 16),
        pad(n1 ? `${(w.median / n1.median).toFixed(2)}x` : '-', 11),
        pad(nd ? `${(w2.median / nd.median).toFixed(2)}x` : '-', 10),
        n1 ? `${(t.median / n1.median).toFixed(1)}x` : '-',
      ].join(''),
    );
  }

  console.log(`\n${pad('softmax rows LxL', 26)}${pad('ts ms', 18)}${pad('wasm ms', 16)}${pad('wasm-2t ms', 16)}${pad('numpy-1t ms', 16)}wasm/np-1t`);
  for (const L of softmaxSizes) {
    const [t, w, w2] = kernels.map((kernel) => timeSoftmax(kernel, L));
    const n1 = await np?.one.time({ kind: 'softmax', L });
    console.log(
      `${pad(`L=${L}`, 26)}${pad(fmtMs(t), 18)}${pad(fmtMs(w), 16)}${pad(fmtMs(w2), 16)}${pad(n1 ? fmtMs(n1) : '-', 16)}${n1 ? `${(w.median / n1.median).toFixed(2)}x` : '-'}`,
    );
  }

  const [mt, mw, mw2] = kernels.map((kernel) => timeMha(kernel));
  const m1 = await np?.one.time({ kind: 'mha' });
  const md = await np?.all.time({ kind: 'mha' });
  console.log('\nmulti-head attention forward from kernel calls only (L=512, 12 heads, d_model 768; 4 projections,');
  console.log('per head Q·Kᵀ, softmax, P·V; the engine adds its own work on top):');
  console.log(
    `  ts ${fmtMs(mt)} ms   wasm-simd ${fmtMs(mw)} ms   wasm-simd-2t ${fmtMs(mw2)} ms   numpy-1t ${m1 ? fmtMs(m1) : '-'} ms   numpy-all ${md ? fmtMs(md) : '-'} ms`,
  );
  if (m1) console.log(`  wasm-simd / numpy-1t = ${(mw.median / m1.median).toFixed(2)}x   ts / numpy-1t = ${(mt.median / m1.median).toFixed(1)}x`);
  if (md)
    console.log(`  wasm-simd-2t / numpy-all = ${(mw2.median / md.median).toFixed(2)}x   wasm-simd-2t / wasm-simd = ${(mw2.median / mw.median).toFixed(2)}x`);
  console.log(`  two-thread kernel: ${JSON.stringify(two.counters)}`);

  const big = products[0];
  const copies = timeCopies(big);
  const wBig = timeProduct(wasm, big);
  console.log(
    `\nwasm staging copies for ${big.name} (A, B in; C out, as TypedArray.set): ${fmtMs(copies)} ms = ${((100 * copies.median) / wBig.median).toFixed(1)}% of the product's median`,
  );
  await fmaTable(wasm, two, np);
  await splitThresholds(wasm);
  two.dispose();
  np?.one.close();
  np?.all.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
