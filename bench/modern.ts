// A Qwen2.5-0.5B-shaped model on the engine against PyTorch CPU on the same weights, in the same run.
// Writes the checkpoint as a download lays it out: a folder with config.json and random N(0, 0.02²) bf16
// weights as sharded safetensors (24 layers, hidden 896, 14 query / 2 kv heads of 64, MLP 4864, vocabulary
// 151,936, tied embeddings, q/k/v biases: 494M parameters, 0.99 GB). Then, each in a fresh process:
//   ours     openSnapshot (the worker's folder path) → the session's model; the forward over 128 tokens as the
//            panel runs it (every layer's attention kept), and the full forward with logits (HF's work)
//   PyTorch  Debian's python3-torch (/usr/bin/python3): the same shards read with torch.frombuffer, bf16 →
//            float32, a plain Qwen2 forward (eager attention, logits), both cores; prints which BLAS it uses
// Prints load time, forward time, peak RSS, the ratios, and the largest logit difference between the two.
// Numbers only, no assertions. Targets (issue 10): forward ≤ 3× PyTorch; peak RSS ≤ 1.5× the weights.
//
// Run: npx tsx bench/modern.ts [--tokens N] [--keep | --dir FOLDER]
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initKernels } from '../src/engine';
import { decoderForward, readDecoder } from '../src/models';
import { loadSnapshot } from '../src/models/session';
import type { TokenInfo } from '../src/protocol/engine';
import { openSnapshot } from '../src/weights/snapshot';
import { spawnKernelHelper } from '../src/worker/kernel-helper';
import { toBfloat16Bits } from '../test/unit/models/safetensors-writer';
import { fillNormal } from './random-weights';

const CONFIG = {
  architectures: ['Qwen2ForCausalLM'],
  model_type: 'qwen2',
  hidden_size: 896,
  intermediate_size: 4864,
  num_hidden_layers: 24,
  num_attention_heads: 14,
  num_key_value_heads: 2,
  vocab_size: 151936,
  max_position_embeddings: 32768,
  rms_norm_eps: 1e-6,
  rope_theta: 1000000.0,
  hidden_act: 'silu',
  tie_word_embeddings: true,
  use_sliding_window: false,
  sliding_window: 32768,
  max_window_layers: 21,
  torch_dtype: 'bfloat16',
};
const SHARD_BYTES = 400 * 2 ** 20;

function tensorList(): [string, number[], 'normal' | 'ones'][] {
  const {
    hidden: E,
    inter: I,
    kv,
  } = { hidden: CONFIG.hidden_size, inter: CONFIG.intermediate_size, kv: (CONFIG.num_key_value_heads * CONFIG.hidden_size) / CONFIG.num_attention_heads };
  const list: [string, number[], 'normal' | 'ones'][] = [['model.embed_tokens.weight', [CONFIG.vocab_size, E], 'normal']];
  for (let l = 0; l < CONFIG.num_hidden_layers; l++) {
    const p = `model.layers.${l}.`;
    list.push(
      [`${p}input_layernorm.weight`, [E], 'ones'],
      [`${p}self_attn.q_proj.weight`, [E, E], 'normal'],
      [`${p}self_attn.q_proj.bias`, [E], 'normal'],
      [`${p}self_attn.k_proj.weight`, [kv, E], 'normal'],
      [`${p}self_attn.k_proj.bias`, [kv], 'normal'],
      [`${p}self_attn.v_proj.weight`, [kv, E], 'normal'],
      [`${p}self_attn.v_proj.bias`, [kv], 'normal'],
      [`${p}self_attn.o_proj.weight`, [E, E], 'normal'],
      [`${p}post_attention_layernorm.weight`, [E], 'ones'],
      [`${p}mlp.gate_proj.weight`, [I, E], 'normal'],
      [`${p}mlp.up_proj.weight`, [I, E], 'normal'],
      [`${p}mlp.down_proj.weight`, [E, I], 'normal'],
    );
  }
  list.push(['model.norm.weight', [E], 'ones']);
  return list;
}

/** Writes the shards tensor by tensor (never the whole model in memory) and model.safetensors.index.json. */
function writeFolder(dir: string): { params: number; bytes: number; shards: number } {
  const tensors = tensorList();
  const groups: (typeof tensors)[] = [[]];
  let used = 0;
  for (const t of tensors) {
    const bytes = 2 * t[1].reduce((a, b) => a * b, 1);
    if (used > 0 && used + bytes > SHARD_BYTES) {
      groups.push([]);
      used = 0;
    }
    groups[groups.length - 1].push(t);
    used += bytes;
  }
  const pad = (i: number) => String(i).padStart(5, '0');
  const weightMap: Record<string, string> = {};
  const state = { s: 0x9e3779b9 };
  let params = 0;
  let total = 0;
  groups.forEach((group, g) => {
    const file = `model-${pad(g + 1)}-of-${pad(groups.length)}.safetensors`;
    const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
    let offset = 0;
    for (const [name, shape] of group) {
      const bytes = 2 * shape.reduce((a, b) => a * b, 1);
      header[name] = { dtype: 'BF16', shape, data_offsets: [offset, offset + bytes] };
      weightMap[name] = file;
      offset += bytes;
    }
    let json = JSON.stringify(header);
    json += ' '.repeat((8 - ((8 + json.length) % 8)) % 8);
    const fd = openSync(join(dir, file), 'w');
    try {
      const len = Buffer.alloc(8);
      len.writeBigUInt64LE(BigInt(json.length));
      writeSync(fd, len);
      writeSync(fd, Buffer.from(json, 'utf8'));
      for (const [, shape, init] of group) {
        const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
        if (init === 'normal') fillNormal(data, 0.02, state);
        else data.fill(1);
        params += data.length;
        total += 2 * data.length;
        writeSync(fd, new Uint8Array(toBfloat16Bits(data).buffer));
      }
    } finally {
      closeSync(fd);
    }
  });
  writeFileSync(join(dir, 'model.safetensors.index.json'), JSON.stringify({ metadata: { total_size: total }, weight_map: weightMap }, null, 2));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG, null, 2));
  return { params, bytes: total, shards: groups.length };
}

function tokenIds(n: number): number[] {
  return Array.from({ length: n }, (_, i) => (i * 7919 + 13) % CONFIG.vocab_size);
}

interface OursReport {
  kernel: string;
  threads: number;
  loadMs: number;
  panelForwardMs: number[];
  fullForwardMs: number[];
  rssAfterLoadMiB: number;
  /** Peak RSS after loading and the panel's forwards (before the logits runs). */
  panelPeakRssMiB: number;
  peakRssMiB: number;
  logitsHead: number[];
  name: string;
}

async function ours(dir: string, tokens: number): Promise<void> {
  const kernel = await initKernels('auto', { threads: 2, spawnHelper: spawnKernelHelper });
  let t0 = performance.now();
  const snapshot = await openSnapshot(async (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : undefined), 'qwen2.5-0.5b-shaped');
  const model = loadSnapshot(snapshot);
  const loadMs = performance.now() - t0;
  const rssAfterLoadMiB = process.memoryUsage().rss / 2 ** 20;
  const ids = tokenIds(tokens);
  const toks: TokenInfo[] = ids.map((id) => ({ text: String(id), display: String(id), start: 0, end: 0, id }));
  const panelForwardMs: number[] = [];
  for (let r = 0; r < 2; r++) {
    t0 = performance.now();
    await model.forward(toks);
    panelForwardMs.push(performance.now() - t0);
  }
  const panelPeakRssMiB = process.resourceUsage().maxRSS / 1024;
  const cp = readDecoder(snapshot.store, 'model.', JSON.parse(snapshot.configJson!), 'qwen2', 'bench');
  const fullForwardMs: number[] = [];
  let logitsHead: number[] = [];
  for (let r = 0; r < 2; r++) {
    t0 = performance.now();
    const out = await decoderForward(cp, ids, { logits: true });
    fullForwardMs.push(performance.now() - t0);
    logitsHead = Array.from(out.logits!.data.subarray((tokens - 1) * CONFIG.vocab_size, (tokens - 1) * CONFIG.vocab_size + 4096));
  }
  const report: OursReport = {
    kernel: kernel.name,
    threads: kernel.threads ?? 1,
    loadMs,
    panelForwardMs,
    fullForwardMs,
    rssAfterLoadMiB,
    panelPeakRssMiB,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    logitsHead,
    name: model.info.name,
  };
  console.log(JSON.stringify(report));
  process.exit(0); // the kernel's helper thread would keep the process alive
}

/** The PyTorch side: read the shards, bf16 → float32, a plain Qwen2 forward with logits. */
const TORCH_SCRIPT = String.raw`
import json, os, resource, sys, time
import torch
import torch.nn.functional as F
folder, tokens = sys.argv[1], int(sys.argv[2])
torch.set_num_threads(2)
blas = sorted({l.split()[-1] for l in open('/proc/self/maps') if 'blas' in l.lower() or 'mkl' in l.lower()})
t0 = time.perf_counter()
cfg = json.load(open(os.path.join(folder, 'config.json')))
index = json.load(open(os.path.join(folder, 'model.safetensors.index.json')))
W = {}
for shard in sorted(set(index['weight_map'].values())):
    raw = open(os.path.join(folder, shard), 'rb').read()
    n = int.from_bytes(raw[:8], 'little')
    header = json.loads(raw[8:8 + n])
    for name, e in header.items():
        if name == '__metadata__': continue
        b, en = e['data_offsets']
        t = torch.frombuffer(bytearray(raw[8 + n + b: 8 + n + en]), dtype=torch.bfloat16).reshape(e['shape'])
        W[name] = t.float()
    del raw
load_s = time.perf_counter() - t0
E, H, KV, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_key_value_heads'], cfg['num_hidden_layers']
hd = E // H
eps = cfg['rms_norm_eps']
def rms(x, w):
    return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))
inv = 1.0 / (cfg['rope_theta'] ** (torch.arange(0, hd, 2, dtype=torch.int64).float() / hd))
def rot(x):
    return torch.cat((-x[..., hd // 2:], x[..., :hd // 2]), dim=-1)
@torch.no_grad()
def forward(ids):
    T = ids.shape[0]
    freqs = torch.arange(T).float()[:, None] * inv[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()
    causal = torch.full((T, T), float('-inf')).triu(1)
    h = W['model.embed_tokens.weight'][ids]
    for l in range(L):
        p = 'model.layers.%d.' % l
        a = rms(h, W[p + 'input_layernorm.weight'])
        q = F.linear(a, W[p + 'self_attn.q_proj.weight'], W[p + 'self_attn.q_proj.bias']).view(T, H, hd).transpose(0, 1)
        k = F.linear(a, W[p + 'self_attn.k_proj.weight'], W[p + 'self_attn.k_proj.bias']).view(T, KV, hd).transpose(0, 1)
        v = F.linear(a, W[p + 'self_attn.v_proj.weight'], W[p + 'self_attn.v_proj.bias']).view(T, KV, hd).transpose(0, 1)
        q, k = q * cos + rot(q) * sin, k * cos + rot(k) * sin
        k = k.repeat_interleave(H // KV, dim=0)
        v = v.repeat_interleave(H // KV, dim=0)
        w = torch.softmax(q @ k.transpose(-1, -2) / hd ** 0.5 + causal, dim=-1)
        o = (w @ v).transpose(0, 1).reshape(T, E)
        h = h + F.linear(o, W[p + 'self_attn.o_proj.weight'])
        m = rms(h, W[p + 'post_attention_layernorm.weight'])
        h = h + F.linear(F.silu(F.linear(m, W[p + 'mlp.gate_proj.weight'])) * F.linear(m, W[p + 'mlp.up_proj.weight']), W[p + 'mlp.down_proj.weight'])
    return F.linear(rms(h, W['model.norm.weight']), W['model.embed_tokens.weight'])
ids = torch.tensor([(i * 7919 + 13) % cfg['vocab_size'] for i in range(tokens)])
times = []
for r in range(3):
    t0 = time.perf_counter()
    logits = forward(ids)
    times.append(time.perf_counter() - t0)
print(json.dumps({'torch': torch.__version__, 'threads': torch.get_num_threads(), 'blas': blas, 'load_s': load_s, 'forward_s': times,
                  'peak_rss_mib': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 'logits_head': logits[-1, :4096].tolist()}))
`;

interface TorchReport {
  torch: string;
  threads: number;
  blas: string[];
  load_s: number;
  forward_s: number[];
  peak_rss_mib: number;
  logits_head: number[];
}

function runTorch(dir: string, tokens: number): TorchReport | string {
  const python = '/usr/bin/python3';
  if (!existsSync(python)) return `${python} is not installed`;
  const probe = spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' });
  if (probe.status !== 0) return 'PyTorch is not installed for /usr/bin/python3 (Debian: apt-get install -y python3-torch libopenblas0-pthread)';
  const script = join(dir, 'torch_forward.py');
  writeFileSync(script, TORCH_SCRIPT);
  const r = spawnSync(python, [script, dir, String(tokens)], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0) return `the PyTorch run failed: ${r.stderr.slice(-2000)}`;
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as TorchReport;
}

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const min = (xs: number[]) => Math.min(...xs);

async function main(): Promise<void> {
  const tokens = Number(argValue('--tokens') ?? 128);
  const childDir = argValue('--child');
  if (childDir) return ours(childDir, tokens);

  const reuse = argValue('--dir');
  const dir = reuse ?? mkdtempSync(join(tmpdir(), 'ai-qwen-bench-'));
  try {
    let weightBytes: number;
    if (!reuse) {
      const t0 = performance.now();
      const w = writeFolder(dir);
      weightBytes = w.bytes;
      console.log(
        `wrote ${dir}: ${w.params.toLocaleString('en-US')} bf16 parameters, ${(w.bytes / 2 ** 20).toFixed(0)} MiB in ${w.shards} shards, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    } else {
      const index = JSON.parse(readFileSync(join(dir, 'model.safetensors.index.json'), 'utf8'));
      weightBytes = [...new Set(Object.values<string>(index.weight_map))].reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    }
    const run = spawnSync(process.execPath, [...process.execArgv, __filename, '--child', dir, '--tokens', String(tokens)], {
      encoding: 'utf8',
      maxBuffer: 16 << 20,
    });
    if (run.status !== 0) throw new Error(`our benchmark child failed:\n${run.stderr}`);
    const r = JSON.parse(run.stdout.trim().split('\n').pop()!) as OursReport;
    const torch = runTorch(dir, tokens);
    const fileMiB = weightBytes / 2 ** 20;
    console.log(`model: ${r.name}; kernel ${r.kernel} on ${r.threads} thread(s); ${tokens} tokens`);
    console.log(`weights: ${fileMiB.toFixed(0)} MiB of bf16 safetensors shards`);
    const rows: [string, string, string][] = [
      [
        'load (read shards, build the model)',
        `${(r.loadMs / 1000).toFixed(2)} s`,
        typeof torch === 'string' ? '-' : `${torch.load_s.toFixed(2)} s (bf16 → float32)`,
      ],
      [
        'forward with logits (best of 2 / 3)',
        `${(min(r.fullForwardMs) / 1000).toFixed(2)} s`,
        typeof torch === 'string' ? '-' : `${min(torch.forward_s).toFixed(2)} s`,
      ],
      ['forward as the panel runs it (all attentions kept, no logits)', `${(min(r.panelForwardMs) / 1000).toFixed(2)} s`, ''],
      ["peak RSS: load + the panel's forwards", `${r.panelPeakRssMiB.toFixed(0)} MiB = ${(r.panelPeakRssMiB / fileMiB).toFixed(2)}× the weights`, ''],
      [
        'peak RSS: the whole run (with the logits runs)',
        `${r.peakRssMiB.toFixed(0)} MiB = ${(r.peakRssMiB / fileMiB).toFixed(2)}× the weights`,
        typeof torch === 'string' ? '-' : `${torch.peak_rss_mib.toFixed(0)} MiB = ${(torch.peak_rss_mib / fileMiB).toFixed(2)}×`,
      ],
      ['RSS after load', `${r.rssAfterLoadMiB.toFixed(0)} MiB`, ''],
    ];
    console.log(`${'Qwen2.5-0.5B-shaped'.padEnd(64)} ${'Attention Inspector'.padEnd(34)} PyTorch CPU`);
    for (const [a, b, c] of rows) console.log(`${a.padEnd(64)} ${b.padEnd(34)} ${c}`);
    console.log(
      `(median forward with logits: ours ${(median(r.fullForwardMs) / 1000).toFixed(2)} s${typeof torch === 'string' ? '' : `, PyTorch ${median(torch.forward_s).toFixed(2)} s`})`,
    );
    if (typeof torch === 'string') {
      console.log(`PyTorch comparison skipped: ${torch}`);
    } else {
      const ratio = min(r.fullForwardMs) / 1000 / min(torch.forward_s);
      let diff = 0;
      for (let i = 0; i < r.logitsHead.length; i++) diff = Math.max(diff, Math.abs(r.logitsHead[i] - torch.logits_head[i]));
      console.log(`PyTorch ${torch.torch} on ${torch.threads} threads, BLAS: ${torch.blas.join(', ') || 'none found in the process maps'}`);
      console.log(
        `forward: ${ratio.toFixed(2)}× PyTorch's time (target ≤ 3×); peak RSS ${(r.panelPeakRssMiB / fileMiB).toFixed(2)}× the weights file as the panel runs it, ${(r.peakRssMiB / fileMiB).toFixed(2)}× over the whole run (target ≤ 1.5×)`,
      );
      console.log(`agreement: last token's first 4096 logits differ from PyTorch's by at most ${diff.toExponential(2)}`);
    }
  } finally {
    if (!reuse && !process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
    else console.log(`(kept ${dir})`);
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
