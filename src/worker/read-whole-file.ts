// Reads a whole file into one Buffer, also past the 2 GiB that fs.readFile refuses (a single
// model.safetensors of a 1–2B-parameter model in bf16 is 2.5–4 GB): the size from fstat, then reads of at
// most 1 GiB into a buffer of that size. Node-only (the worker and the CLI).
import { open } from 'node:fs/promises';

const CHUNK = 2 ** 30;

export async function readWholeFile(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(out, at, Math.min(CHUNK, size - at), at);
      if (bytesRead === 0) throw new Error(`${path}: the file ended after ${at} of ${size} bytes`);
      at += bytesRead;
    }
    return out;
  } finally {
    await handle.close();
  }
}
