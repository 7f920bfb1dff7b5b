import { strict as assert } from 'node:assert';
import { readTensors, readTensorsWithMetadata, WeightFileError, type LoaderOptions } from '../../../src/weights';
import { loadFixture } from '../helpers/fixtures';
import { rejectionOf } from './builders';

const F = 'weights.json';
const bytesOf = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));

async function rejects(value: unknown, pattern: RegExp, options?: LoaderOptions): Promise<void> {
  const e = await rejectionOf(readTensors(bytesOf(value), F, options));
  assert.ok(e instanceof WeightFileError, String(e));
  assert.ok(e.message.startsWith(`${F}: `), e.message);
  assert.match(e.message, pattern);
}

describe('weights: JSON of named tensors', () => {
  it('reads the fixture tensor encoding, including non-finite strings, dtypes and metadata', async () => {
    const r = await readTensorsWithMetadata(
      bytesOf({
        w: { shape: [2, 2], data: [0.1, 'NaN', 'Infinity', '-Infinity'] },
        m: { shape: [3], dtype: 'bool', data: [true, false, 1] },
        ids: { shape: [2], dtype: 'int64', data: [5, -1] },
        s: { shape: [], data: [3] },
        __metadata__: { source: 'test' },
      }),
      F,
    );
    assert.equal(r.format, 'json');
    assert.deepEqual(r.metadata, { source: 'test' });
    const w = r.tensors.get('w')!;
    assert.equal(w.data[0], Math.fround(0.1));
    assert.ok(Number.isNaN(w.data[1]));
    assert.deepEqual([w.data[2], w.data[3]], [Infinity, -Infinity]);
    assert.deepEqual([...r.tensors.get('m')!.data], [1, 0, 1]);
    assert.deepEqual([...r.tensors.get('ids')!.data], [5, -1]);
    assert.deepEqual(r.tensors.get('s')!.shape, []);
    assert.equal(r.sourceDtypes.get('m'), 'bool');
  });

  it('round-trips the MultiheadAttention weights of mha.json (bit-exact float32)', async () => {
    const weights = loadFixture('mha').cases[0].weights as Record<string, { shape: number[]; data: number[] }>;
    const t = await readTensors(bytesOf(weights), 'mha_weights.json');
    for (const [name, json] of Object.entries(weights)) {
      assert.deepEqual(t.get(name)!.shape, json.shape);
      assert.deepEqual(
        [...t.get(name)!.data],
        json.data.map((v) => Math.fround(Number(v))),
      );
    }
  });

  it('hostile or malformed JSON', async () => {
    await rejects('{"a": ', /not valid JSON/);
    await rejects([1, 2], /expected a JSON object of named tensors/);
    await rejects({ a: [1, 2] }, /tensor "a": expected \{"shape": \[\.\.\.\], "data": \[\.\.\.\]\}, got an array/);
    await rejects({ a: { shape: [2], data: [1] } }, /tensor "a": shape \[2\] needs 2 values but data has 1/);
    await rejects({ a: { shape: [2, -1], data: [] } }, /not a non-negative integer \(-1\)/);
    await rejects({ a: { shape: [2], data: [1, 'nan'] } }, /tensor "a": data\[1\] is "nan"; expected a number or "NaN"/);
    await rejects({ a: { shape: [1], data: [[1]] } }, /data\[0\] is an array/);
    await rejects({ a: { shape: [1], dtype: 'complex64', data: [1] } }, /dtype "complex64" is not supported/);
    await rejects({ a: { shape: [1], dtype: 'bool', data: [2] } }, /bool data\[0\] is 2/);
    await rejects({ a: { shape: [1], data: [1], grad: [0] } }, /unexpected key "grad"/);
    await rejects({ a: { shape: [1e6, 1e6], data: [] } }, /\(1\.0e12 elements\) takes the file past the limit/);
    await rejects({ a: { shape: [3], data: [1, 2, 3] } }, /past the limit of 2 elements/, { maxTotalElements: 2 });
    await rejects({ __metadata__: { a: 1 } }, /__metadata__ value "a" must be a string/);
    const e = await rejectionOf(readTensors(Uint8Array.from([0x7b, 0xff, 0x7d]), F));
    assert.match(e.message, /^weights\.json: file is not valid UTF-8 text$/);
  });
});
