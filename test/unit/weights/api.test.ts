import { strict as assert } from 'node:assert';
import { DEFAULT_LOADER_OPTIONS, describeTensors, detectFormat, readTensors, readTensorsSync, WeightFileError } from '../../../src/weights';
import { encodeNumbers, npyFile, rejectionOf, safetensorsFile, stateDictPickle, torchZip, zipFile } from './builders';

const text = (s: string) => new TextEncoder().encode(s);

describe('weights: format detection and the public API', () => {
  const st = safetensorsFile([{ name: 'a', dtype: 'F32', shape: [1], data: encodeNumbers([1], 'f32') }]);
  const npy = npyFile({ descr: '<f4', shape: [1], data: encodeNumbers([1], 'f32') });
  const pt = torchZip(stateDictPickle([{ name: 'w', storageKey: '0', storageClass: 'FloatStorage', storageNumel: 1, offset: 0, shape: [1], strides: [1] }]), {
    '0': encodeNumbers([1], 'f32'),
  });

  it('detects each format from its magic bytes whatever the name', () => {
    for (const name of ['x', 'x.bin', 'x.json', 'x.npy']) {
      assert.equal(detectFormat(st, name), 'safetensors', name);
      assert.equal(detectFormat(npy, name), 'npy', name);
      assert.equal(detectFormat(pt, name), 'torch', name);
      assert.equal(detectFormat(zipFile({ 'a.npy': npy }), name), 'npz', name);
    }
    assert.equal(detectFormat(text('  \n{"a": {"shape": [], "data": [1]}}'), 'weights'), 'json');
    assert.equal(detectFormat(text('\ufeff{}'), 'w.txt'), 'json');
    assert.equal(detectFormat(Uint8Array.from([0x80, 0x02, 0x8a, 0x0a]), 'old.pt'), 'torch-legacy');
  });

  it('falls back to the extension so a damaged file gets its format’s own error', async () => {
    assert.equal(detectFormat(Uint8Array.from([1, 2, 3, 4]), 'm.safetensors'), 'safetensors');
    assert.equal(detectFormat(Uint8Array.from([1, 2, 3, 4]), 'm.PT'), 'torch');
    assert.equal(detectFormat(Uint8Array.from([1, 2, 3, 4]), 'm.dat'), 'unknown');
    const e1 = await rejectionOf(readTensors(Uint8Array.from([1, 2, 3, 4]), 'm.pt'));
    assert.match(e1.message, /^m\.pt: not a complete zip archive/);
    const e2 = await rejectionOf(readTensors(Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 4]), 'm.dat'));
    assert.equal(
      e2.message,
      'm.dat: unrecognised weight file (9 bytes starting de ad be ef 00 01 02 03); expected safetensors, .npy, .npz, a PyTorch zip checkpoint (.pt/.bin) or JSON of named tensors',
    );
    const e3 = await rejectionOf(readTensors(new Uint8Array(0), 'empty.safetensors'));
    assert.ok(e3 instanceof WeightFileError);
    assert.equal(e3.message, 'empty.safetensors: file is empty');
    assert.equal(e3.fileName, 'empty.safetensors');
    assert.equal(e3.problem, 'file is empty');
  });

  it('readTensorsSync gives the same result as readTensors', async () => {
    const a = readTensorsSync(st, 'a.safetensors').tensors;
    const b = await readTensors(st, 'a.safetensors');
    assert.deepEqual([...a.keys()], [...b.keys()]);
    assert.deepEqual([...a.get('a')!.data], [...b.get('a')!.data]);
  });

  it('describeTensors lists name, shape, numel and the original dtype', async () => {
    const file = safetensorsFile([
      { name: 'h', dtype: 'F16', shape: [2, 3], data: new Uint8Array(12) },
      { name: 'f', dtype: 'F32', shape: [], data: new Uint8Array(4) },
    ]);
    const tensors = await readTensors(file, 'm.safetensors');
    assert.deepEqual(describeTensors(tensors), [
      { name: 'h', shape: [2, 3], numel: 6, dtype: 'float16' },
      { name: 'f', shape: [], numel: 1, dtype: 'float32' },
    ]);
    // Tensors that lost their identity (e.g. posted to a worker) fall back to float32 unless the dtypes are passed.
    const copied = new Map([...tensors].map(([k, t]) => [k, { data: t.data.slice(), shape: [...t.shape] }]));
    assert.equal(describeTensors(copied)[0].dtype, 'float32');
    assert.equal(describeTensors(copied, new Map([['h', 'float16' as const]]))[0].dtype, 'float16');
  });

  it('rejects bad arguments and bad options with TypeErrors', () => {
    assert.throws(() => readTensorsSync([1, 2] as unknown as Uint8Array, 'x'), TypeError);
    assert.throws(() => readTensorsSync(st, ''), TypeError);
    assert.throws(() => readTensorsSync(st, 'x', { maxTotalElements: -1 }), /maxTotalElements must be a non-negative integer/);
    assert.throws(() => readTensorsSync(st, 'x', { verifyZipCrc: 'yes' as unknown as boolean }), /verifyZipCrc must be a boolean/);
    assert.equal(DEFAULT_LOADER_OPTIONS.maxTotalElements, 2 ** 29);
  });
});
