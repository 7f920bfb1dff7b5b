// The recorder's JavaScript side on one recorded trace folder, two source trees against each other (A/B): this
// tree's src/record and the one under --base (e.g. an export of the commit before a change), alternating A, B, A,
// B, ... in one process so that the machine's load hits both alike. Per repetition, each tree:
//   - grid: parse trace.json, read the first forward pass's tensors and build the panel's heads grid
//     (buildRecordedRun: the view of each call, the per-head slices, thumbnails, row entropies);
//   - follow-ups: every head's weights block-averaged by 4 (recordedAttention) and the step-through of up to 8
//     heads with the user's own steps compared (recordedTrace);
//   - diagnosis: read and diagnose every call (analyseTrace: row sums, the measured scale, mask checks).
// Both trees must give the same findings and the same grid (a checksum of its weights and thumbnails), else it
// stops. Printed: medians per tree and their ratio (B / A); numbers only, nothing asserts a time.
// Record a trace first, e.g. the hand-written GPT-2-small-shaped program of bench/record.ts:
//   PYTHONPATH=python python3 -m attention_recorder --out /tmp/trace --workspace /tmp --script prog.py
// Run: npx tsx bench/record-trace.ts --trace /tmp/trace --base /tmp/base [--reps 7]
//   (/tmp/base holding a src/ tree: git archive <commit> src | tar -x -C /tmp/base, plus its generated wasm modules
//   (copy src/engine/kernels/generated/ after node scripts/build-wasm.mjs); NODE_PATH=node_modules for its imports)
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { traceFileReader } from '../src/cli/files';
import type * as Engine from '../src/engine';
import type * as Record from '../src/record';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const TRACE = arg('trace');
const BASE = arg('base');
const REPS = Number(arg('reps') ?? 7) || 7;
if (!TRACE || !BASE) {
  console.error('usage: npx tsx bench/record-trace.ts --trace <recorded trace folder> --base <folder holding the other src/> [--reps N]');
  process.exit(2);
}

type RecordModule = typeof Record;

interface Times {
  grid: number;
  followUps: number;
  diagnosis: number;
}

function once(rec: RecordModule, dir: string): { times: Times; findings: number; checksum: number } {
  const reader = traceFileReader(dir);
  const t0 = performance.now();
  const trace = rec.parseTrace(readFileSync(join(dir, 'trace.json'), 'utf8'), 'trace.json');
  const pass = rec.forwardPassOf(trace, 0);
  const cache = new Map<number, ReturnType<RecordModule['readCallTensors']>>();
  const tensorsOf = (c: Record.TraceCall) => {
    const hit = cache.get(c.id);
    if (hit) return hit;
    const read = rec.readCallTensors(c, reader, true);
    cache.set(c.id, read);
    return read;
  };
  const run = rec.buildRecordedRun(trace, pass, tensorsOf, { runId: 1, batch: 0 });
  const t1 = performance.now();
  let checksum = 0;
  for (const x of run.run.attentions ?? []) checksum += x;
  for (const x of run.run.thumbnails.data) checksum += x;
  let traced = 0;
  for (let layer = 0; layer < run.run.nLayer; layer++) {
    for (let head = 0; head < run.run.nHead; head++) {
      const down = rec.recordedAttention(run, { runId: 1, layer, head, downsample: 4 });
      checksum += down.data.reduce((a, b) => a + b, 0);
      if (traced < 8 && (layer * run.run.nHead + head) % 18 === 0) {
        const stepped = rec.recordedTrace(run, { runId: 1, layer, head, options: {} });
        for (const o of stepped.own ?? []) checksum += o.maxAbsDiff + o.differing;
        traced++;
      }
    }
  }
  const t2 = performance.now();
  const analysis = rec.analyseTrace(trace, reader);
  const t3 = performance.now();
  return { times: { grid: t1 - t0, followUps: t2 - t1, diagnosis: t3 - t2 }, findings: analysis.findings.length, checksum };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
}

async function main(): Promise<void> {
  const trees: { name: string; rec: RecordModule }[] = [];
  let kernel = '';
  for (const [name, root] of [
    ['A', resolve(__dirname, '..')],
    ['B', resolve(BASE ?? '')],
  ] as const) {
    // Each tree has its own engine module and so its own kernel to initialise ('auto', one thread, as the worker).
    const engine = (await import(pathToFileURL(join(root, 'src', 'engine', 'index.ts')).href)) as typeof Engine;
    kernel = (await engine.initKernels('auto')).name;
    trees.push({ name: `${name} ${root}`, rec: (await import(pathToFileURL(join(root, 'src', 'record', 'index.ts')).href)) as RecordModule });
  }
  for (const t of trees) console.log(t.name);
  const [l1, l5, l15] = loadavg();
  console.log(`record-trace A/B on ${TRACE}, ${REPS} repetitions alternating A, B (first of each pair alternating); kernel ${kernel}`);
  console.log(`load average ${l1?.toFixed(2)} ${l5?.toFixed(2)} ${l15?.toFixed(2)} (1, 5, 15 min) at the start`);
  const times: Times[][] = [[], []];
  let reference: { findings: number; checksum: number } | undefined;
  for (let r = 0; r < REPS + 1; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const tree = trees[i];
      if (!tree) continue;
      const got = once(tree.rec, TRACE ?? '');
      reference ??= got;
      if (got.findings !== reference.findings || got.checksum !== reference.checksum) {
        throw new Error(`${tree.name}: ${got.findings} findings, checksum ${got.checksum}; expected ${reference.findings}, ${reference.checksum}`);
      }
      if (r > 0) times[i]?.push(got.times); // repetition 0 warms both up
    }
  }
  console.log(`both trees: ${reference?.findings} findings, the same grid and follow-ups (checksum ${reference?.checksum.toFixed(6)})`);
  for (const key of ['grid', 'followUps', 'diagnosis'] as const) {
    const [a, b] = times.map((ts) => median(ts.map((t) => t[key])));
    console.log(`  ${key.padEnd(10)} A ${a?.toFixed(1).padStart(8)} ms   B ${b?.toFixed(1).padStart(8)} ms   A / B ${((a ?? NaN) / (b ?? NaN)).toFixed(3)}`);
  }
  const [e1, e5, e15] = loadavg();
  console.log(`load average ${e1?.toFixed(2)} ${e5?.toFixed(2)} ${e15?.toFixed(2)} at the end`);
}

void main();
