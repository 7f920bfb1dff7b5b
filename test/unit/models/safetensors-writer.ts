// Writes safetensors files (header: 8-byte length + JSON, then the data in order), float32 or bfloat16, and
// sharded folders with model.safetensors.index.json, as HF save_pretrained lays them out. Used by the
// snapshot tests and bench/modern.ts.

export interface TensorToWrite {
  name: string;
  shape: readonly number[];
  /** float32 values; written as F32, or as BF16 rounded to nearest even. */
  data: Float32Array;
}

export type WriteDtype = 'F32' | 'BF16';

/** float32 → bfloat16 bits, rounding to nearest even (torch's .to(torch.bfloat16)). */
export function toBfloat16Bits(x: Float32Array): Uint16Array {
  const words = new Uint32Array(x.buffer, x.byteOffset, x.length);
  const out = new Uint16Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const w = words[i];
    if ((w & 0x7f800000) === 0x7f800000 && (w & 0x7fffff) !== 0)
      out[i] = (w >>> 16) | 0x40; // NaN stays NaN
    else out[i] = (w + 0x7fff + ((w >>> 16) & 1)) >>> 16;
  }
  return out;
}

/** The float32 values a bf16 round trip gives (what a model computes with after loading bf16 weights). */
export function roundToBfloat16(x: Float32Array): Float32Array {
  const bits = toBfloat16Bits(x);
  const words = new Uint32Array(bits.length);
  for (let i = 0; i < bits.length; i++) words[i] = bits[i] << 16;
  return new Float32Array(words.buffer);
}

/** One safetensors file of `tensors` in `dtype`. */
export function encodeSafetensors(tensors: readonly TensorToWrite[], dtype: WriteDtype): Uint8Array {
  const size = dtype === 'F32' ? 4 : 2;
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const t of tensors) {
    const bytes = t.data.length * size;
    header[t.name] = { dtype, shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  while ((8 + json.length) % 8 !== 0) json += ' ';
  const head = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + head.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  let at = 8 + head.length;
  for (const t of tensors) {
    const raw = dtype === 'F32' ? new Uint8Array(new Float32Array(t.data).buffer) : new Uint8Array(toBfloat16Bits(t.data).buffer);
    out.set(raw, at);
    at += raw.length;
  }
  return out;
}

/**
 * A sharded checkpoint: files model-0000i-of-0000n.safetensors holding about `shardBytes` each (whole
 * tensors, in order) and the index mapping every tensor to its shard.
 */
export function encodeShards(tensors: readonly TensorToWrite[], dtype: WriteDtype, shardBytes: number): Map<string, Uint8Array> {
  const size = dtype === 'F32' ? 4 : 2;
  const groups: TensorToWrite[][] = [[]];
  let used = 0;
  for (const t of tensors) {
    const bytes = t.data.length * size;
    if (used > 0 && used + bytes > shardBytes) {
      groups.push([]);
      used = 0;
    }
    groups[groups.length - 1].push(t);
    used += bytes;
  }
  const n = groups.length;
  const pad = (i: number) => String(i).padStart(5, '0');
  const files = new Map<string, Uint8Array>();
  const weightMap: Record<string, string> = {};
  let total = 0;
  groups.forEach((group, i) => {
    const name = `model-${pad(i + 1)}-of-${pad(n)}.safetensors`;
    files.set(name, encodeSafetensors(group, dtype));
    for (const t of group) {
      weightMap[t.name] = name;
      total += t.data.length * size;
    }
  });
  files.set('model.safetensors.index.json', new TextEncoder().encode(JSON.stringify({ metadata: { total_size: total }, weight_map: weightMap }, null, 2)));
  return files;
}
