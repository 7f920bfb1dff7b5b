// Recording overhead and the time from a recorded program's exit to the panel's data.
//   1. A GPT-2-small-shaped model (12 layers × 12 heads, d_model 768, random weights built from a config)
//      forward on 128 tokens, timed inside the program: plainly, and under the recorder with default limits.
//      Hand-written attention in plain torch (torch 1.13, Debian bookworm) and HF transformers' GPT2Model with
//      SDPA (torch 2.14 in the Debian sid root, when scripts/setup-torch-sid.sh has built it).
//   2. From the recorder's exit to the panel's heads grid data: parse trace.json, read and diagnose every call,
//      group the forward pass and build the 12 × 12 run the panel draws (bench/panel.ts times the drawing).
// Numbers only: nothing here asserts a time. Run: npx tsx bench/record.ts (or npm run bench -- record).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { traceFileReader } from '../src/cli/files';
import { analyseTrace, buildRecordedRun, forwardPassOf, parseTrace, readCallTensors, type TraceCall } from '../src/record';

const root = join(__dirname, '..');
const pyDir = join(root, 'python');
const SID = join(root, '.cache', 'torch-sid', 'bin', 'python3');
const REPEATS = 5;

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
    model(ids)  # warm-up
    for _ in range(${REPEATS}):
        t = time.perf_counter(); model(ids); times.append(time.perf_counter() - t)
import os, re
info = re.search(r"BLAS_INFO=([^,]+)", torch.__config__.show())
lib = "/usr/lib/x86_64-linux-gnu/libblas.so.3"
blas = ["BLAS_INFO=" + (info.group(1) if info else "?")] + (["libblas.so.3 -> " + os.path.realpath(lib)] if os.path.exists(lib) else [])
print(json.dumps({"median_ms": sorted(times)[len(times) // 2] * 1000, "torch": torch.__version__, "blas": blas}))
`;

function run(python: string, args: string[], env: NodeJS.ProcessEnv = process.env): { ms: number; stdout: string } {
  const t = Date.now();
  const r = spawnSync(python, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${python} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { ms: Date.now() - t, stdout: r.stdout };
}

function measure(label: string, python: string, source: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'record-bench-'));
  try {
    const prog = join(dir, 'gpt2_bench.py');
    writeFileSync(prog, source + TIMING);
    const plain = run(python, [prog]);
    const plainResult = JSON.parse(plain.stdout.trim().split('\n').pop()!);
    const out = join(dir, 'trace');
    const env = { ...process.env, PYTHONPATH: pyDir };
    const recorded = run(python, ['-m', 'attention_recorder', '--out', out, '--workspace', dir, '--script', prog], env);
    const recResult = JSON.parse(recorded.stdout.trim().split('\n').pop()!);
    console.log(`${label}: torch ${plainResult.torch}; ${plainResult.blas.join('; ') || 'BLAS: (not reported)'}`);
    console.log(`  forward, 128 tokens (median of ${REPEATS}):  plain ${plainResult.median_ms.toFixed(0)} ms   recorded ${recResult.median_ms.toFixed(0)} ms   ratio ${(recResult.median_ms / plainResult.median_ms).toFixed(2)}×`);
    console.log(`  whole process:                  plain ${plain.ms} ms   recorded ${recorded.ms} ms (incl. writing the trace)`);

    // Exit → panel data.
    const t0 = performance.now();
    const trace = parseTrace(readFileSync(join(out, 'trace.json'), 'utf8'), 'trace.json');
    const reader = traceFileReader(out);
    const t1 = performance.now();
    const analysis = analyseTrace(trace, reader);
    const t2 = performance.now();
    const pass = forwardPassOf(trace, 0);
    const cache = new Map<number, ReturnType<typeof readCallTensors>>();
    const tensorsOf = (c: TraceCall) => cache.get(c.id) ?? cache.set(c.id, readCallTensors(c, reader)).get(c.id)!;
    const rec = buildRecordedRun(trace, pass, tensorsOf, { runId: 1, batch: 0 });
    const t3 = performance.now();
    console.log(`  trace: ${trace.calls.length} calls, ${(trace.limits.bytesWritten / 1e6).toFixed(1)} MB, ${trace.limits.skippedCalls} beyond the per-site limit; findings: ${analysis.findings.length}`);
    console.log(`  exit → panel data: parse ${(t1 - t0).toFixed(0)} ms, read + diagnose all calls ${(t2 - t1).toFixed(0)} ms, ${rec.run.nLayer} × ${rec.run.nHead} heads grid ${(t3 - t2).toFixed(0)} ms; total ${(t3 - t0).toFixed(0)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

measure('hand-written GPT-2-small-shaped model, torch 1.13 (/usr/bin/python3)', '/usr/bin/python3', HAND_WRITTEN);
if (existsSync(SID)) measure('HF GPT2Model(GPT2Config()) with SDPA, torch 2.14 (Debian sid root)', SID, HF);
else console.log('(the Debian sid root is not built: run scripts/setup-torch-sid.sh for the HF GPT-2 figures)');
