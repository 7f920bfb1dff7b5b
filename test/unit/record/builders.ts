// Builds trace folders in memory for the record tests: trace.json text plus .npy files.

export function npy(descr: '<f4' | '|b1' | '<i8' | '<f2', shape: number[], values: ArrayLike<number | boolean>): Uint8Array {
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const n = values.length;
  const size = descr === '<f4' ? 4 : descr === '<i8' ? 8 : descr === '<f2' ? 2 : 1;
  const out = new Uint8Array(10 + header.length + n * size);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0);
  out[8] = header.length & 0xff;
  out[9] = header.length >> 8;
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  const view = new DataView(out.buffer, 10 + header.length);
  for (let i = 0; i < n; i++) {
    const v = Number(values[i]);
    if (descr === '<f4') view.setFloat32(i * 4, v, true);
    else if (descr === '<i8') view.setBigInt64(i * 8, BigInt(v), true);
    else if (descr === '<f2') throw new Error('f2 not needed');
    else view.setUint8(i, v ? 1 : 0);
  }
  return out;
}

export type Json = Record<string, unknown>;

/** A trace folder: calls (with tensors given as arrays) → trace.json text and files. */
export class TraceBuilder {
  files = new Map<string, Uint8Array>();
  calls: Json[] = [];
  workspace = '/ws';

  tensor(callIndex: number, name: string, dtype: 'float32' | 'bool' | 'int64', shape: number[], values: ArrayLike<number | boolean>): Json {
    const file = `c${callIndex}-${name}.npy`;
    this.files.set(file, npy(dtype === 'float32' ? '<f4' : dtype === 'bool' ? '|b1' : '<i8', shape, values));
    return { shape, dtype, file };
  }

  add(call: Json): void {
    this.calls.push({
      id: this.calls.length,
      thread: 'MainThread',
      site: { user: { path: '/ws/prog.py', line: 7, function: '<module>' }, library: null },
      module: null,
      moduleClass: null,
      test: null,
      ...call,
    });
  }

  doc(): Json {
    return {
      format: 'attention-inspector-trace',
      version: 1,
      program: {
        kind: 'script',
        target: '/ws/prog.py',
        argv: ['prog.py'],
        exitCode: 0,
        exception: null,
        python: '3.11.2',
        torch: '1.13.0a0',
        workspace: [this.workspace],
        durationMs: 12,
      },
      limits: { maxCallsPerSite: 4, maxBytes: 268435456, skippedCalls: 0, omittedTensors: 0, summarisedTensors: 0, bytesWritten: 10 },
      recorderErrors: [],
      calls: this.calls,
    };
  }

  text(): string {
    return JSON.stringify(this.doc());
  }

  reader(): (name: string) => Uint8Array {
    return (name) => {
      const f = this.files.get(name);
      if (!f) throw new Error(`ENOENT: no such file ${name}`);
      return f;
    };
  }
}

/** Deterministic pseudo-random floats in [-1, 1). */
export function randoms(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = ((s >>> 0) / 2 ** 32) * 2 - 1;
  }
  return out;
}
