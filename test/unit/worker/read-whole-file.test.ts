// readWholeFile (the worker's and the CLI's file reader, which also reads files past fs.readFile's 2 GiB):
// the same bytes as readFileSync, and node's error codes for what is missing.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readWholeFile } from '../../../src/worker/read-whole-file';

describe('readWholeFile', () => {
  const file = join(__dirname, '..', '..', 'fixtures', 'modern', 'llama', 'model.safetensors');
  it('reads the whole file', async () => {
    assert.deepEqual(new Uint8Array(await readWholeFile(file)), new Uint8Array(readFileSync(file)));
  });
  it('rejects with ENOENT for a missing file (the handlers turn it into "the file does not exist")', async () => {
    await assert.rejects(readWholeFile(join(__dirname, 'no-such-file.bin')), (e: NodeJS.ErrnoException) => e.code === 'ENOENT');
  });
});
