// Recording overhead and the time from a recorded program's exit to the panel's data.
//   1. A program with realistic compute: a GPT-2-small-shaped model (12 layers × 12 heads, d_model 768, random
//      weights built from a config) that runs FORWARDS forwards on 128 tokens. Hand-written attention in plain
//      torch (torch 1.13, Debian bookworm) and HF transformers' GPT2Model with SDPA (torch 2.14 in the Debian
//      sid root, when scripts/setup-torch-sid.sh has built it). The same program runs RUNS times plainly and
//      RUNS times under the recorder with default limits, alternating (plain, recorded, plain, ...) so that a
//      change of the machine's load hits both alike. Each run reports the time of every forward; the first
//      four forwards are recorded (the default of 4 calls per site: each layer is a site), the rest run under
//      the recorder's mode without being kept. Printed: medians over the runs and their ratios, for the whole
//      process (wall time, what the user waits for; the target of docs/DESIGN.md is ≤ 2×), the recorded
//      forwards and the forwards past the limit.
//   2. From the recorder's exit to the panel's heads grid data, on each recorded run's trace, both ways:
//      - grid first (what the extension does): parse trace.json, group the forward pass and build the 12 × 12 run
//        the panel draws (bench/panel.ts times the drawing); the diagnosis follows in parts of ~150 ms as the
//        engine worker runs it (src/host/record/controller.ts), timed to its last finding;
//      - diagnosis first (before): parse, read and diagnose every call, then the grid.
//      The median over the runs (target ≤ 2 s to the grid).
// Numbers only: nothing here asserts a time. Run: npx tsx bench/record.ts [--runs N] [--latency-only]
// [--only hand-written|hf] (or npm run bench -- record). --latency-only skips the plain runs (no overhead figures).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { traceFileReader } from '../src/cli/files';
import { initKernels } from '../src/engine';
import { analyseTrace, buildRecordedRun, diagnoseCalls, forwardPassOf, parseTrace, readCallTensors, TraceDiagnosis, type TraceCall } from '../src/record';

const root = join(__dirname, '..');
const pyDir = join(root, 'python');
const SID = join(root, '.cache', 'torch-sid', 'bin', 'python3');
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 0) || 5;
const LATENCY_ONLY = process.argv.includes('--latency-only');
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
/** The engine worker's time per part of the diagnosis (DIAGNOSE_PART_MS in src/host/record/controller.ts). */
const PART_MS = 150;
const FORWARDS = 6;

const HAND_WRITTEN = `
import json, math, sys, time, torch, torch.nn as nn
torch.manual_seed(0)
torch.set_num_threads(2)
class Block(nn.Module):
    def __init__(self, d=768, h=12):
        super().__init__()
        self.h, self.ln1, self.ln2 = h, nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, x, causal):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(D // self.h)
        scores = scores.masked_fill(~causal, float("-inf"))
        a = (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
        x = x + self.proj(a)
        return x + self.mlp(self.ln2(x))
class GPT(nn.Module):
    def __init__(self, vocab=50257, n=12, d=768, ctx=1024):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(ctx, d)
        self.h = nn.ModuleList([Block(d) for _ in range(n)])
    def forward(self, ids):
        T = ids.shape[1]
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        x = self.wte(ids) + self.wpe(torch.arange(T))
        for block in self.h:
            x = block(x, causal)
        return x
model = GPT().eval()
`;

const HF = `
import json, sys, time, torch
from transformers import GPT2Config, GPT2Model
torch.manual_seed(0)
torch.set_num_threads(2)
model = GPT2Model(GPT2Config()).eval()
`;

const TIMING = `
ids = torch.randint(0, 50257, (1, 128))
times = []
with torch.no_grad():
    for _ in range(${FORWARDS}):
        t = time.perf_counter(); model(ids); times.append(time.perf_counter() - t)
import os, re
info = re.search(r"BLAS_INFO=([^,]+)", torch.__config__.show())
lib = "/usr/lib/x86_64-linux-gnu/libblas.so.3"
blas = ["BLAS_INFO=" + (info.group(1) if info else "?")] + (["libblas.so.3 -> " + os.path.realpath(lib)] if os.path.exists(lib) else [])
print(json.dumps({"forward_ms": [x * 1000 for x in times], "torch": torch.__version__, "blas": blas}))
`;

/** Forwards 1-4 are recorded (4 calls per site by default); the rest run past the limit. */
const RECORDED_FORWARDS = 4;

function run(python: string, args: string[], env: NodeJS.ProcessEnv = process.env): { ms: number; stdout: string } {
  const t = performance.now();
  const r = spawnSync(python, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${python} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { ms: performance.now() - t, stdout: r.stdout };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;

interface Timed {
  processMs: number;
  forwardMs: number[];
}

interface Latency {
  /** Grid first: parse, the forward pass's grid; then the diagnosis in parts. */
  parse: number;
  grid: number;
  toGrid: number;
  diagnosis: number;
  parts: number;
  toFindings: number;
  /** Diagnosis first (before): parse + read + diagnose every call, the grid. */
  before: { analyse: number; grid: number; total: number };
  calls: number;
  mb: number;
  skipped: number;
  findings: number;
  layers: number;
  heads: number;
}

/** The 12 × 12 run of the first forward pass, as the worker's recordingOpen builds it (step tensors read too). */
function gridOf(trace: ReturnType<typeof parseTrace>, reader: ReturnType<typeof traceFileReader>) {
  const pass = forwardPassOf(trace, 0);
  const cache = new Map<number, ReturnType<typeof readCallTensors>>();
  const tensorsOf = (c: TraceCall) => cache.get(c.id) ?? cache.set(c.id, readCallTensors(c, reader, true)).get(c.id)!;
  return buildRecordedRun(trace, pass, tensorsOf, { runId: 1, batch: 0 });
}

/** Grid first (now): parse, the grid; then the diagnosis in parts as the engine worker runs it. */
function gridFirst(out: string) {
  const t0 = performance.now();
  const trace = parseTrace(readFileSync(join(out, 'trace.json'), 'utf8'), 'trace.json');
  const reader = traceFileReader(out);
  const t1 = performance.now();
  const rec = gridOf(trace, reader);
  const t2 = performance.now();
  const parts = new TraceDiagnosis(trace);
  let n = 0;
  while (!parts.complete) {
    // As the worker's recordingDiagnose: call by call until the part's time is spent.
    const start = performance.now();
    const part = diagnoseCalls(trace, reader, parts.done, parts.done + 1);
    while (part.to < trace.calls.length && performance.now() - start < PART_MS) {
      const next = diagnoseCalls(trace, reader, part.to, part.to + 1);
      part.findings.push(...next.findings);
      part.problems.push(...next.problems);
      part.evidence.push(...next.evidence);
      part.to = next.to;
    }
    parts.add(part);
    n++;
  }
  const t3 = performance.now();
  return { trace, rec, analysis: parts.analysis(), parse: t1 - t0, grid: t2 - t1, toGrid: t2 - t0, diagnosis: t3 - t2, parts: n, toFindings: t3 - t0 };
}

/** Diagnosis first (before): parse, read + diagnose every call, then the grid. */
function diagnosisFirst(out: string) {
  const t0 = performance.now();
  const trace = parseTrace(readFileSync(join(out, 'trace.json'), 'utf8'), 'trace.json');
  const reader = traceFileReader(out);
  const analysis = analyseTrace(trace, reader);
  const t1 = performance.now();
  gridOf(trace, reader);
  const t2 = performance.now();
  return { analysis, analyse: t1 - t0, grid: t2 - t1, total: t2 - t0 };
}

/** Exit → panel data on one trace folder both ways; `beforeFirst` alternates which runs first (warm caches). */
function exitToGrid(out: string, beforeFirst: boolean): Latency {
  const b = beforeFirst ? diagnosisFirst(out) : undefined;
  const now = gridFirst(out);
  const before = b ?? diagnosisFirst(out);
  if (before.analysis.findings.length !== now.analysis.findings.length) throw new Error('the diagnosis in parts found other findings than the whole one');
  const { trace, rec } = now;
  return {
    parse: now.parse,
    grid: now.grid,
    toGrid: now.toGrid,
    diagnosis: now.diagnosis,
    parts: now.parts,
    toFindings: now.toFindings,
    before: { analyse: before.analyse, grid: before.grid, total: before.total },
    calls: trace.calls.length,
    mb: trace.limits.bytesWritten / 1e6,
    skipped: trace.limits.skippedCalls,
    findings: now.analysis.findings.length,
    layers: rec.run.nLayer,
    heads: rec.run.nHead,
  };
}

function measure(label: string, python: string, source: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'record-bench-'));
  try {
    const prog = join(dir, 'gpt2_bench.py');
    writeFileSync(prog, source + TIMING);
    const env = { ...process.env, PYTHONPATH: pyDir };
    const plain: Timed[] = [];
    const recorded: Timed[] = [];
    const latencies: Latency[] = [];
    let about: { torch: string; blas: string[] } | undefined;
    for (let i = 0; i < RUNS; i++) {
      if (!LATENCY_ONLY) {
        const p = run(python, [prog]);
        const pr = JSON.parse(p.stdout.trim().split('\n').pop()!);
        about ??= pr;
        plain.push({ processMs: p.ms, forwardMs: pr.forward_ms });
      }
      const out = join(dir, `trace-${i}`);
      const r = run(python, ['-m', 'attention_recorder', '--out', out, '--workspace', dir, '--script', prog], env);
      const rr = JSON.parse(r.stdout.trim().split('\n').pop()!);
      about ??= rr;
      recorded.push({ processMs: r.ms, forwardMs: rr.forward_ms });
      latencies.push(exitToGrid(out, i % 2 === 1));
      rmSync(out, { recursive: true, force: true });
    }
    console.log(`${label}: torch ${about!.torch}; ${about!.blas.join('; ') || 'BLAS: (not reported)'}`);
    console.log(
      LATENCY_ONLY
        ? `  ${RUNS} recorded runs (--latency-only: no plain runs, no overhead figures); ${FORWARDS} forwards of 128 tokens per run`
        : `  ${RUNS} runs each, alternating plain and recorded; ${FORWARDS} forwards of 128 tokens per run (forwards 1–${RECORDED_FORWARDS} recorded, the rest past the per-site limit)`,
    );
    const row = (what: string, pick: (t: Timed) => number) => {
      const a = plain.map(pick);
      const b = recorded.map(pick);
      const pairs = a.map((x, i) => b[i] / x);
      console.log(
        `  ${what.padEnd(34)} plain ${ms(median(a)).padStart(9)} (${range(a)})   recorded ${ms(median(b)).padStart(9)} (${range(b)})   ratio of medians ${(median(b) / median(a)).toFixed(2)}×, median of paired ratios ${median(pairs).toFixed(2)}×`,
      );
    };
    if (!LATENCY_ONLY) {
      row('whole process (wall)', (t) => t.processMs);
      row('one recorded forward (1st)', (t) => t.forwardMs[0]);
      row(`recorded forwards 1–${RECORDED_FORWARDS} (median)`, (t) => median(t.forwardMs.slice(0, RECORDED_FORWARDS)));
      row(`forwards past the limit (median)`, (t) => median(t.forwardMs.slice(RECORDED_FORWARDS)));
    }
    const l = latencies[0];
    console.log(`  trace: ${l.calls} calls, ${l.mb.toFixed(1)} MB of tensors, ${l.skipped} calls beyond the per-site limit; runtime findings: ${l.findings}`);
    const med = (pick: (x: Latency) => number) => ms(median(latencies.map(pick)));
    console.log(
      `  exit → panel data, grid first (median of ${RUNS}): parse ${med((x) => x.parse)}, the ${l.layers} × ${l.heads} heads grid ${med((x) => x.grid)}; total ${med((x) => x.toGrid)} (${range(latencies.map((x) => x.toGrid))}; target ≤ 2000 ms)`,
    );
    console.log(
      `    then the diagnosis in parts of ~${PART_MS} ms: ${med((x) => x.diagnosis)} in ${median(latencies.map((x) => x.parts))} parts; exit → every finding shown ${med((x) => x.toFindings)}`,
    );
    console.log(
      `  exit → panel data, diagnosis first (before, same traces): read + diagnose every call ${med((x) => x.before.analyse)}, the grid ${med((x) => x.before.grid)}; total ${med((x) => x.before.total)} (${range(latencies.map((x) => x.before.total))})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // The engine worker's kernel choice ('auto'), on one thread here (the worker may use two).
  const kernel = await initKernels('auto');
  console.log(`exit → panel data is computed with the ${kernel.name} kernel on one thread, as the engine worker's 'auto' does`);
  if (ONLY !== 'hf') measure('hand-written GPT-2-small-shaped model, torch 1.13 (/usr/bin/python3)', '/usr/bin/python3', HAND_WRITTEN);
  if (ONLY === 'hand-written') return;
  if (existsSync(SID)) measure('HF GPT2Model(GPT2Config()) with SDPA, torch 2.14 (Debian sid root)', SID, HF);
  else console.log('(the Debian sid root is not built: run scripts/setup-torch-sid.sh for the HF GPT-2 figures)');
}

void main();
