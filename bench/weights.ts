// Loader benchmark: writes a GPT-2-small-shaped safetensors file (124,439,808 float32 parameters, HF
// GPT2Model names, random values) to a temp dir, then loads it in a fresh child process and prints the
// time to read the file and to parse it, the peak RSS and the ArrayBuffer memory, and how many tensors are
// zero-copy views over the file's buffer. Numbers only, no assertions (the machine is shared and noisy).
//
// Run: npx tsx bench/weights.ts [--prefix] [--f16] [--keep]
//   --prefix  names with the "transformer." prefix (as GPT2LMHeadModel.state_dict() writes them)
//   --f16     also write and load an F16 copy (converted to float32 on load: the copying path)
//   --keep    leave the temp files behind
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTensors } from '../src/weights';

const E = 768;
const LAYERS = 12;
const VOCAB = 50257;
const POSITIONS = 1024;

function gpt2SmallShapes(prefix: string): [string, number[]][] {
  const shapes: [string, number[]][] = [
    [`${prefix}wte.weight`, [VOCAB, E]],
    [`${prefix}wpe.weight`, [POSITIONS, E]],
  ];
  for (let i = 0; i < LAYERS; i++) {
    const h = `${prefix}h.${i}.`;
    shapes.push(
      [`${h}ln_1.weight`, [E]],
      [`${h}ln_1.bias`, [E]],
      [`${h}attn.c_attn.weight`, [E, 3 * E]],
      [`${h}attn.c_attn.bias`, [3 * E]],
      [`${h}attn.c_proj.weight`, [E, E]],
      [`${h}attn.c_proj.bias`, [E]],
      [`${h}ln_2.weight`, [E]],
      [`${h}ln_2.bias`, [E]],
      [`${h}mlp.c_fc.weight`, [E, 4 * E]],
      [`${h}mlp.c_fc.bias`, [4 * E]],
      [`${h}mlp.c_proj.weight`, [4 * E, E]],
      [`${h}mlp.c_proj.bias`, [E]],
    );
  }
  shapes.push([`${prefix}ln_f.weight`, [E]], [`${prefix}ln_f.bias`, [E]]);
  return shapes.sort(([a], [b]) => (a < b ? -1 : 1)); // safetensors writers store tensors in name order
}

/** Writes the file tensor by tensor (never holding the whole model in memory). */
function writeSafetensors(path: string, shapes: [string, number[]][], dtype: 'F32' | 'F16'): number {
  const itemSize = dtype === 'F32' ? 4 : 2;
  const header: Record<string, unknown> = { __metadata__: { format: 'pt', note: 'random weights for bench/weights.ts' } };
  let offset = 0;
  for (const [name, shape] of shapes) {
    const bytes = shape.reduce((a, b) => a * b, 1) * itemSize;
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  while ((8 + json.length) % 8) json += ' ';
  const fd = openSync(path, 'w');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  writeSync(fd, length);
  writeSync(fd, Buffer.from(json, 'latin1'));
  let seed = 12345;
  const chunk = new Float32Array(1 << 20);
  const half = new Uint16Array(1 << 20);
  for (const [, shape] of shapes) {
    let remaining = shape.reduce((a, b) => a * b, 1);
    while (remaining > 0) {
      const n = Math.min(remaining, chunk.length);
      for (let i = 0; i < n; i++) {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        chunk[i] = (seed / 2 ** 32 - 0.5) * 0.04;
        half[i] = 0x2000 | (seed >>> 22) | (seed & 0x8000); // a small random float16
      }
      const out = dtype === 'F32' ? new Uint8Array(chunk.buffer, 0, n * 4) : new Uint8Array(half.buffer, 0, n * 2);
      writeSync(fd, out);
      remaining -= n;
    }
  }
  closeSync(fd);
  return offset;
}

interface LoadReport {
  fileBytes: number;
  readMs: number;
  parseMs: number;
  tensors: number;
  parameters: number;
  viewsOverFile: number;
  rssMB: number;
  peakRssMB: number;
  arrayBuffersMB: number;
}

/** Child process: load one file and report (peak RSS then covers only the load). */
async function loadAndReport(path: string): Promise<void> {
  const t0 = performance.now();
  const buffer = readFileSync(path);
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const t1 = performance.now();
  const tensors = await readTensors(bytes, path);
  const t2 = performance.now();
  let parameters = 0;
  let viewsOverFile = 0;
  for (const t of tensors.values()) {
    parameters += t.data.length;
    if (t.data.buffer === bytes.buffer) viewsOverFile++;
  }
  const memory = process.memoryUsage();
  const report: LoadReport = {
    fileBytes: bytes.length,
    readMs: t1 - t0,
    parseMs: t2 - t1,
    tensors: tensors.size,
    parameters,
    viewsOverFile,
    rssMB: memory.rss / 2 ** 20,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    arrayBuffersMB: memory.arrayBuffers / 2 ** 20,
  };
  console.log(JSON.stringify(report));
}

function runChild(path: string): LoadReport {
  const child = spawnSync(process.execPath, [...process.execArgv, __filename, '--load', path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as LoadReport;
}

function print(label: string, r: LoadReport): void {
  const mb = r.fileBytes / 2 ** 20;
  console.log(label);
  console.log(`  file            ${mb.toFixed(1)} MB, ${r.tensors} tensors, ${r.parameters.toLocaleString('en-US')} parameters`);
  console.log(`  read file       ${r.readMs.toFixed(0)} ms`);
  console.log(`  parse (load)    ${r.parseMs.toFixed(1)} ms   (${((mb / r.parseMs) * 1000).toFixed(0)} MB/s)`);
  console.log(`  zero-copy views ${r.viewsOverFile} of ${r.tensors} tensors share the file's ArrayBuffer`);
  console.log(
    `  memory          ArrayBuffers ${r.arrayBuffersMB.toFixed(0)} MB (${(r.arrayBuffersMB / mb).toFixed(2)}× the file), RSS ${r.rssMB.toFixed(0)} MB, peak RSS ${r.peakRssMB.toFixed(0)} MB`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--load') return loadAndReport(args[1]);
  const prefix = args.includes('--prefix') ? 'transformer.' : '';
  const dir = mkdtempSync(join(tmpdir(), 'attention-inspector-weights-'));
  try {
    const shapes = gpt2SmallShapes(prefix);
    const f32 = join(dir, 'gpt2-small.safetensors');
    let t = performance.now();
    writeSafetensors(f32, shapes, 'F32');
    console.log(`wrote ${f32} (${(statSync(f32).size / 2 ** 20).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    print('GPT-2 small, F32 safetensors (zero-copy path):', runChild(f32));
    if (args.includes('--f16')) {
      const f16 = join(dir, 'gpt2-small-f16.safetensors');
      t = performance.now();
      writeSafetensors(f16, shapes, 'F16');
      console.log(`wrote ${f16} (${(statSync(f16).size / 2 ** 20).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      print('GPT-2 small, F16 safetensors (converted to float32):', runChild(f16));
    }
  } finally {
    if (args.includes('--keep')) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

void main();
