// Long inputs without quadratic memory: the seeded model (d_model 768, 12 heads) on 8192 tokens, whose
// weights would be 12 × 8192² float32 = 3 GiB. Each scenario runs in a fresh child process and reports its
// peak RSS (getrusage maxrss: the whole process, every thread) and where the time went:
//   idle     the engine worker started, the seeded model configured, a 4-token run (the baseline)
//   worker   the same worker process (EngineClient + the engine worker thread, bundled from src/worker/main.ts
//            as dist/worker.js is, with its kernel helper thread) running the 8192-token inspection as the
//            extension does — forward, streamed thumbnails and entropies — and then the panel's
//            block-averaged view of one head (downsample 1024)
//   engine   the model and engine alone in one thread: the seeded model's forward (q, k, v), every head's
//            attention output by flashAttention (tiled, no weights), and the thumbnails and entropies
//            streamed from blocks of rows (headAttentionRows)
// Numbers only, no assertions (the machine is shared and noisy). The target is ≤ 300 MiB peak for outputs
// and thumbnails.
//
// Run: npx tsx bench/long-input.ts [--tokens 8192] [--heads 12] [--d-model 768] [--kernel auto|ts|wasm-simd] [--tsx]
//                                   [--modes idle,worker,engine]
//   --tsx    run the worker from its TypeScript sources through tsx instead of a fresh bundle (more memory)
//   --modes  which scenarios to run (default all three)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { flashAttention, initKernels, getKernel, type KernelPreference } from '../src/engine';
import { createSeededModel } from '../src/models';
import { streamHeadSummaries } from '../src/models/head-stream';
import { EngineClient } from '../src/worker/client';

type Mode = 'idle' | 'worker' | 'engine';

interface Report {
  mode: Mode;
  kernel: string;
  tokens: number;
  peakRssMiB: number;
  /** RSS sampled every 50 ms on the main thread (the worker computes on its own thread). */
  sampledPeakMiB: number;
  phases: { name: string; ms: number; rssMiB: number }[];
  note?: string;
}

const MiB = 2 ** 20;
const rssMiB = () => process.memoryUsage().rss / MiB;
const maxRssMiB = () => process.resourceUsage().maxRSS / 1024;

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Space-separated words, 5000 distinct (each distinct word gets its own seeded embedding row). */
function longText(tokens: number): string {
  return Array.from({ length: tokens }, (_, i) => `w${(i * 7919) % 5000}`).join(' ');
}

/** Bundles the engine worker and its kernel helper like scripts/build.mjs does; returns the worker's path. */
async function bundleWorker(dir: string): Promise<string> {
  const root = join(__dirname, '..');
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: { worker: 'src/worker/main.ts', 'kernel-helper': 'src/worker/kernel-helper.ts' },
    outdir: dir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    loader: { '.wasm': 'binary' },
    logLevel: 'warning',
  });
  return join(dir, 'worker.js');
}

async function child(mode: Mode, tokens: number, heads: number, dModel: number, kernel: KernelPreference, workerPath: string | undefined): Promise<void> {
  const phases: Report['phases'] = [];
  let sampled = rssMiB();
  const sampler = setInterval(() => (sampled = Math.max(sampled, rssMiB())), 50);
  const phase = async <T>(name: string, work: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    const out = await work();
    phases.push({ name, ms: performance.now() - t0, rssMiB: rssMiB() });
    return out;
  };
  let kernelName = kernel as string;
  let note: string | undefined;
  if (mode === 'engine') {
    await initKernels(kernel);
    kernelName = getKernel().name;
    const words = longText(tokens).split(' ');
    const model = createSeededModel({ seed: 0, heads, dModel });
    const forward = await phase('seeded model forward (q, k, v; weights not kept)', () =>
      model.forward(words.map((w, i) => ({ text: w, display: w, start: i, end: i }))),
    );
    await phase(`outputs of ${heads} heads (flashAttention)`, () => {
      for (let h = 0; h < heads; h++) {
        const { q, k, v, scale } = forward.headInputs(0, h); // (T, hd) each
        flashAttention(q, k, v, { scale }); // (T, hd): the weights are never held
      }
    });
    await phase('thumbnails + entropies (streamed rows)', () =>
      streamHeadSummaries((l, h, r0, r1, out) => forward.headAttentionRows(l, h, r0, r1, out), 1, heads, tokens, 48, {
        checkpoint: () => new Promise((r) => setImmediate(r)),
      }),
    );
    note = `attentions kept: ${forward.attentions ? 'yes' : 'no'}`;
  } else {
    const client = new EngineClient({
      workerPath: workerPath ?? join(__dirname, '..', 'src', 'worker', 'main.ts'),
      execArgv: workerPath ? [] : ['--require', 'tsx/cjs'],
      workerData: { kernel },
      timeoutMs: 60 * 60_000,
    });
    try {
      await phase('worker start + configure', () => client.request('configureModel', { kind: 'seeded', seed: 0, heads, dModel }));
      const n = mode === 'idle' ? 4 : tokens;
      const run = await phase(`run on ${n} tokens (forward + thumbnails + entropies)`, () =>
        client.request('run', { text: longText(n), maxTokens: Math.max(n, 16384) }),
      );
      note = `run: ${run.seqLen} tokens, weights sent: ${run.attentions ? `${(run.attentions.byteLength / MiB).toFixed(1)} MiB` : 'none (computed on demand)'}, worker-side ${run.elapsedMs.toFixed(0)} ms`;
      if (mode === 'worker') {
        const view = await phase('panel view of head 0 (downsample 1024)', () =>
          client.request('attention', { runId: run.runId, layer: 0, head: 0, downsample: 1024 }),
        );
        note += `; view ${view.rows}×${view.cols} cells of ${view.block}×${view.block} weights`;
      }
    } finally {
      client.dispose();
    }
  }
  clearInterval(sampler);
  const report: Report = { mode, kernel: kernelName, tokens, peakRssMiB: maxRssMiB(), sampledPeakMiB: sampled, phases, note };
  console.log(JSON.stringify(report));
}

async function main(): Promise<void> {
  const tokens = Number(argValue('--tokens') ?? 8192);
  const heads = Number(argValue('--heads') ?? 12);
  const dModel = Number(argValue('--d-model') ?? 768);
  const kernel = (argValue('--kernel') ?? 'auto') as KernelPreference;
  const mode = argValue('--child') as Mode | undefined;
  if (mode) return child(mode, tokens, heads, dModel, kernel, argValue('--worker'));

  const weightsGiB = (heads * tokens * tokens * 4) / 2 ** 30;
  console.log(
    `seeded model: d_model ${dModel}, ${heads} heads; ${tokens} tokens. All weights would be ${heads} × ${tokens}² × 4 B = ${weightsGiB.toFixed(2)} GiB.`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'ai-long-input-'));
  const worker = process.argv.includes('--tsx') ? [] : ['--worker', await bundleWorker(dir)];
  console.log(`worker thread: ${worker.length ? 'bundled from src/worker/main.ts (as dist/worker.js)' : 'src/worker/main.ts through tsx'}`);
  let baseline = 0;
  try {
    const modes = (argValue('--modes') ?? 'idle,worker,engine').split(',') as Mode[];
    for (const m of modes) {
      if (!['idle', 'worker', 'engine'].includes(m)) throw new Error(`--modes: unknown scenario '${m}' (idle, worker, engine)`);
      const r = spawnSync(
        process.execPath,
        [
          ...process.execArgv,
          __filename,
          '--child',
          m,
          '--tokens',
          String(tokens),
          '--heads',
          String(heads),
          '--d-model',
          String(dModel),
          '--kernel',
          kernel,
          ...worker,
        ],
        {
          encoding: 'utf8',
          maxBuffer: 1 << 20,
        },
      );
      if (r.status !== 0) throw new Error(`the ${m} child failed:\n${r.stderr}`);
      const rep = JSON.parse(r.stdout.trim().split('\n').pop()!) as Report;
      if (m === 'idle') baseline = rep.peakRssMiB;
      const extra = m === 'idle' || baseline === 0 ? '' : `, ${(rep.peakRssMiB - baseline).toFixed(0)} MiB above the idle worker`;
      console.log(`\n${m} (kernel ${rep.kernel}): peak RSS ${rep.peakRssMiB.toFixed(0)} MiB${extra}${m === 'engine' ? ' (no worker thread)' : ''}`);
      for (const p of rep.phases)
        console.log(`  ${p.name.padEnd(52)} ${(p.ms / 1000).toFixed(1).padStart(7)} s   RSS after ${p.rssMiB.toFixed(0).padStart(5)} MiB`);
      if (rep.note) console.log(`  ${rep.note}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('\nTarget: peak ≤ 300 MiB for outputs and thumbnails (whole process, including node and the wasm kernel memory).');
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
