// Reads a whole file into one Buffer, also past the 2 GiB that fs.readFile refuses (a single
// model.safetensors of a 1–2B-parameter model in bf16 is 2.5–4 GB): the size from fstat, then reads of at
// most 1 GiB into a buffer of that size. Only regular files: the file is opened without blocking (a FIFO
// without a writer would otherwise block for good) and its type checked through the descriptor, so what is
// checked is what is read. fs errors keep their `code` (ENOENT: a model folder lacks the file). Node-only
// (the worker and the CLI).
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

const CHUNK = 2 ** 30;

export async function readWholeFile(path: string): Promise<Uint8Array> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw Object.assign(new Error(`${path}: it is a directory`), { code: 'EISDIR' });
    if (!st.isFile()) throw new Error(`${path}: not a regular file (a FIFO, device or socket); only regular files are read`);
    const size = st.size;
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
