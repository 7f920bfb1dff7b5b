// GPT-2 small on the engine: writes a GPT-2-small-shaped safetensors checkpoint (12 layers, 12 heads,
// d_model 768, vocab 50257, 1024 positions: 124,439,808 float32 parameters with HF GPT2Model names and
// random N(0, 0.02²) weights, LayerNorm gains 1) to a temp dir, then, in a fresh child process, reads it
// with readTensors, builds the model with loadModel and runs one forward pass over 256 tokens. Prints the
// load time, the forward time, the peak RSS and where the time went. Numbers only, no assertions (the
// machine is shared and noisy).
//
// Run: npx tsx bench/gpt2.ts [--tokens N] [--kernel auto|ts|wasm-simd] [--keep | --file model.safetensors]
//   --keep  leave the written checkpoint behind (its path is printed); --file  reuse such a checkpoint
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initKernels, type KernelPreference } from '../src/engine';
import { loadModel } from '../src/models';
import type { TokenInfo } from '../src/protocol/engine';
import { readTensors } from '../src/weights';
import { fillNormal } from './random-weights';

const E = 768;
const LAYERS = 12;
const HEADS = 12;
const VOCAB = 50257;
const POSITIONS = 1024;

type Init = 'normal' | 'ones' | 'zeros';

function gpt2SmallTensors(): [string, number[], Init][] {
  const list: [string, number[], Init][] = [
    ['wte.weight', [VOCAB, E], 'normal'],
    ['wpe.weight', [POSITIONS, E], 'normal'],
  ];
  for (let i = 0; i < LAYERS; i++) {
    const h = `h.${i}.`;
    list.push(
      [`${h}ln_1.weight`, [E], 'ones'],
      [`${h}ln_1.bias`, [E], 'zeros'],
      [`${h}attn.c_attn.weight`, [E, 3 * E], 'normal'],
      [`${h}attn.c_attn.bias`, [3 * E], 'zeros'],
      [`${h}attn.c_proj.weight`, [E, E], 'normal'],
      [`${h}attn.c_proj.bias`, [E], 'zeros'],
      [`${h}ln_2.weight`, [E], 'ones'],
      [`${h}ln_2.bias`, [E], 'zeros'],
      [`${h}mlp.c_fc.weight`, [E, 4 * E], 'normal'],
      [`${h}mlp.c_fc.bias`, [4 * E], 'zeros'],
      [`${h}mlp.c_proj.weight`, [4 * E, E], 'normal'],
      [`${h}mlp.c_proj.bias`, [E], 'zeros'],
    );
  }
  list.push(['ln_f.weight', [E], 'ones'], ['ln_f.bias', [E], 'zeros']);
  return list;
}

/** Writes the checkpoint tensor by tensor (safetensors: u64 header length, JSON header, raw little-endian F32). */
function writeCheckpoint(path: string): number {
  const tensors = gpt2SmallTensors().sort(([a], [b]) => (a < b ? -1 : 1));
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, shape] of tensors) {
    const bytes = 4 * shape.reduce((p, d) => p * d, 1);
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const fd = openSync(path, 'w');
  try {
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(json.length));
    writeSync(fd, len);
    writeSync(fd, Buffer.from(json, 'utf8'));
    const state = { s: 0x2545f491 };
    let params = 0;
    for (const [, shape, init] of tensors) {
      const data = new Float32Array(shape.reduce((p, d) => p * d, 1));
      if (init === 'normal') fillNormal(data, 0.02, state);
      else if (init === 'ones') data.fill(1);
      params += data.length;
      writeSync(fd, new Uint8Array(data.buffer));
    }
    return params;
  } finally {
    closeSync(fd);
  }
}

interface ChildReport {
  kernel: string;
  readFileMs: number;
  readTensorsMs: number;
  loadModelMs: number;
  forwardMs: number;
  /** User + system CPU time of the forward (less sensitive than wall time to other processes). */
  forwardCpuMs: number;
  tokens: number;
  peakRssMiB: number;
  rssAfterLoadMiB: number;
  name: string;
  attentionsMiB: number;
}

async function child(path: string, tokens: number, kernel: KernelPreference): Promise<void> {
  const k = await initKernels(kernel);
  let t0 = performance.now();
  const bytes: Uint8Array = readFileSync(path); // a Buffer is a Uint8Array: no second copy of the file
  const readFileMs = performance.now() - t0;
  t0 = performance.now();
  const tensors = await readTensors(bytes, 'model.safetensors');
  const readTensorsMs = performance.now() - t0;
  t0 = performance.now();
  const model = loadModel(tensors, { fileName: 'model.safetensors' });
  const loadModelMs = performance.now() - t0;
  const rssAfterLoadMiB = process.memoryUsage().rss / 2 ** 20;
  const ids: TokenInfo[] = Array.from({ length: tokens }, (_, i) => {
    const id = (i * 7919 + 13) % VOCAB;
    return { text: String(id), display: String(id), start: 0, end: 0, id };
  });
  t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const result = await model.forward(ids, { checkpoint: () => new Promise((r) => setImmediate(r)) });
  const forwardMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const forwardCpuMs = (cpu.user + cpu.system) / 1000;
  const report: ChildReport = {
    kernel: k.name,
    readFileMs,
    readTensorsMs,
    loadModelMs,
    forwardMs,
    forwardCpuMs,
    tokens,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    rssAfterLoadMiB,
    name: model.info.name,
    attentionsMiB: (result.attentions?.byteLength ?? 0) / 2 ** 20, // 0: a long run keeps q, k, v only (tiled path)
  };
  console.log(JSON.stringify(report));
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const tokens = Number(argValue('--tokens') ?? 256);
  const kernel = (argValue('--kernel') ?? 'auto') as KernelPreference;
  const childPath = argValue('--child');
  if (childPath) return child(childPath, tokens, kernel);

  const reuse = argValue('--file'); // an existing checkpoint from an earlier --keep run
  const dir = reuse ? undefined : mkdtempSync(join(tmpdir(), 'ai-gpt2-bench-'));
  const path = reuse ?? join(dir!, 'model.safetensors');
  try {
    if (!reuse) {
      const t0 = performance.now();
      const params = writeCheckpoint(path);
      console.log(
        `wrote ${path}: ${params.toLocaleString('en-US')} parameters, ${(statSync(path).size / 2 ** 20).toFixed(1)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    const run = spawnSync(process.execPath, [...process.execArgv, __filename, '--child', path, '--tokens', String(tokens), '--kernel', kernel], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (run.status !== 0) throw new Error(`the benchmark child failed:\n${run.stderr}`);
    const r = JSON.parse(run.stdout.trim().split('\n').pop()!) as ChildReport;
    const load = r.readFileMs + r.readTensorsMs + r.loadModelMs;
    console.log(`model: ${r.name}${r.name.includes(`× ${HEADS} heads`) ? '' : ` (expected ${HEADS} heads!)`}, kernel ${r.kernel}`);
    console.log(
      `load:    ${load.toFixed(0).padStart(7)} ms  (read file ${r.readFileMs.toFixed(0)} ms, readTensors ${r.readTensorsMs.toFixed(0)} ms, loadModel ${r.loadModelMs.toFixed(0)} ms)`,
    );
    console.log(
      `forward: ${r.forwardMs.toFixed(0).padStart(7)} ms  for ${r.tokens} tokens, ${r.forwardCpuMs.toFixed(0)} ms CPU (all ${LAYERS} layers' attention: ${r.attentionsMiB > 0 ? `${r.attentionsMiB.toFixed(1)} MiB` : 'not kept, tiled path'})`,
    );
    console.log(`memory:  peak RSS ${r.peakRssMiB.toFixed(0)} MiB, RSS after load ${r.rssAfterLoadMiB.toFixed(0)} MiB`);
  } finally {
    if (dir && !process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
