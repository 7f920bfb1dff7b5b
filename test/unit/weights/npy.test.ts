import { strict as assert } from 'node:assert';
import { readTensors, readTensorsWithMetadata, WeightFileError, type LoaderOptions } from '../../../src/weights';
import { concat, encodeNumbers, halfBitsToNumber, npyFile, rejectionOf } from './builders';

async function rejects(bytes: Uint8Array, file: string, pattern: RegExp, options?: LoaderOptions): Promise<void> {
  const e = await rejectionOf(readTensors(bytes, file, options));
  assert.ok(e instanceof WeightFileError, String(e));
  assert.ok(e.message.startsWith(`${file}: `), e.message);
  assert.match(e.message, pattern);
}

/** value(i, j, k) for a [2, 3, 4] array, distinct for every index. */
const value = (i: number, j: number, k: number) => 100 * i + 10 * j + k - 0.5;
const SHAPE = [2, 3, 4];

function rowMajorValues(): number[] {
  const out: number[] = [];
  for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 4; k++) out.push(value(i, j, k));
  return out;
}

function columnMajorValues(): number[] {
  const out: number[] = [];
  for (let k = 0; k < 4; k++) for (let j = 0; j < 3; j++) for (let i = 0; i < 2; i++) out.push(value(i, j, k));
  return out;
}

describe('weights: .npy', () => {
  for (const version of [1, 2, 3] as const) {
    for (const [descr, type, little] of [
      ['<f4', 'f32', true],
      ['>f4', 'f32', false],
      ['<f8', 'f64', true],
      ['>f8', 'f64', false],
    ] as const) {
      for (const fortranOrder of [false, true]) {
        it(`v${version}.0 ${descr} ${fortranOrder ? 'Fortran' : 'C'} order`, async () => {
          const data = encodeNumbers(fortranOrder ? columnMajorValues() : rowMajorValues(), type, little);
          const bytes = npyFile({ descr, fortranOrder, shape: SHAPE, version, data });
          const r = await readTensorsWithMetadata(bytes, 'dir/weights.npy');
          assert.equal(r.format, 'npy');
          assert.deepEqual([...r.tensors.keys()], ['weights']);
          const t = r.tensors.get('weights')!;
          assert.deepEqual(t.shape, SHAPE);
          assert.deepEqual([...t.data], rowMajorValues());
          assert.equal(r.sourceDtypes.get('weights'), type === 'f32' ? 'float32' : 'float64');
        });
      }
    }
  }

  it('float16 both byte orders, integers and bool convert to float32', async () => {
    const halves = [0x3c00, 0xc000, 0x7bff, 0x0001, 0x7c00, 0x8000];
    for (const [descr, little] of [
      ['<f2', true],
      ['>f2', false],
    ] as const) {
      const t = (await readTensors(npyFile({ descr, shape: [6], data: encodeNumbers(halves, 'u16', little) }), 'h.npy')).get('h')!;
      assert.deepEqual([...t.data], halves.map(halfBitsToNumber));
    }
    const ints = [-5, 0, 7, 2 ** 33];
    const i8 = (await readTensors(npyFile({ descr: '>i8', shape: [4], data: encodeNumbers(ints, 'i64', false) }), 'i.npy')).get('i')!;
    assert.deepEqual([...i8.data], ints);
    const u1 = (await readTensors(npyFile({ descr: '|u1', shape: [2], data: Uint8Array.from([3, 250]) }), 'u.npy')).get('u')!;
    assert.deepEqual([...u1.data], [3, 250]);
    const b1 = (await readTensors(npyFile({ descr: '|b1', shape: [3], data: Uint8Array.from([1, 0, 1]) }), 'b.npy')).get('b')!;
    assert.deepEqual([...b1.data], [1, 0, 1]);
  });

  it('scalars and zero-size arrays; an aligned <f4 array is a view over the file', async () => {
    const scalar = npyFile({ descr: '<f4', shape: [], data: encodeNumbers([2.5], 'f32') });
    const s = (await readTensors(scalar, 's.npy')).get('s')!;
    assert.deepEqual(s.shape, []);
    assert.deepEqual([...s.data], [2.5]);
    assert.equal(s.data.buffer, scalar.buffer);
    const empty = (await readTensors(npyFile({ descr: '<f8', shape: [0, 5], data: new Uint8Array(0) }), 'e.npy')).get('e')!;
    assert.deepEqual(empty.shape, [0, 5]);
    assert.equal(empty.data.length, 0);
  });

  it('reads headers written by old numpy (Python 2 long suffixes, no trailing comma)', async () => {
    const headerText = "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 1L)}";
    const t = (await readTensors(npyFile({ headerText, data: encodeNumbers([1, 2], 'f32') }), 'old.npy')).get('old')!;
    assert.deepEqual(t.shape, [2, 1]);
  });

  describe('hostile .npy files', () => {
    const good = () => npyFile({ descr: '<f4', shape: [2], data: encodeNumbers([1, 2], 'f32') });

    it('bad magic, unsupported version, truncated header', async () => {
      await rejects(Uint8Array.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x58, 1, 0, 0, 0]), 'x.npy', /x\.npy: not a \.npy array/);
      const v9 = good();
      v9[6] = 9;
      await rejects(v9, 'x.npy', /\.npy format version 9\.0 is not supported \(supported: 1\.0, 2\.0, 3\.0\)/);
      await rejects(good().subarray(0, 40), 'x.npy', /\.npy header length 118 is past the end of the file \(40 bytes\)/);
    });

    it('header limits and header syntax', async () => {
      await rejects(good(), 'x.npy', /header length 118 is over the limit of 100/, { maxHeaderBytes: 100 });
      await rejects(npyFile({ headerText: "{'descr': '<f4', 'shape': (2,", data: new Uint8Array(8) }), 'x.npy', /not a Python dict literal/);
      await rejects(npyFile({ headerText: "{'descr': __import__('os')}", data: new Uint8Array(8) }), 'x.npy', /not a Python dict literal: unexpected text/);
      await rejects(npyFile({ headerText: '(1, 2)', data: new Uint8Array(8) }), 'x.npy', /header must be a dict/);
      await rejects(
        npyFile({ headerText: "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", data: new Uint8Array(8) }),
        'x.npy',
        /unexpected key "x"/,
      );
      await rejects(
        npyFile({ headerText: "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", data: new Uint8Array(8) }),
        'x.npy',
        /'fortran_order' must be True or False/,
      );
      await rejects(
        npyFile({ headerText: "{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", data: new Uint8Array(8) }),
        'x.npy',
        /'shape' must be a tuple/,
      );
      const deep = `{'descr': ${'('.repeat(40)}${')'.repeat(40)}}`;
      await rejects(npyFile({ headerText: deep, data: new Uint8Array(0) }), 'x.npy', /nesting deeper than 16/);
      await rejects(
        npyFile({ headerText: "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", data: new Uint8Array(0) }),
        'x.npy',
        /too large/,
      );
    });

    it('unsupported dtypes', async () => {
      await rejects(npyFile({ descr: '|O', shape: [1], data: new Uint8Array(8) }), 'x.npy', /dtype "\|O" is not supported \(object arrays need pickle/);
      await rejects(npyFile({ descr: '<c8', shape: [1], data: new Uint8Array(8) }), 'x.npy', /dtype "<c8" is not supported/);
      await rejects(npyFile({ descr: '=f4', shape: [1], data: new Uint8Array(4) }), 'x.npy', /native \('='\) byte order/);
      await rejects(
        npyFile({ headerText: "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", data: new Uint8Array(4) }),
        'x.npy',
        /structured \.npy dtypes/,
      );
    });

    it('negative dims, truncated data, trailing bytes, absurd sizes', async () => {
      await rejects(npyFile({ descr: '<f4', shape: [-2], data: new Uint8Array(8) }), 'x.npy', /has a dim that is not a non-negative integer \(-2\)/);
      await rejects(
        npyFile({ descr: '<f4', shape: [3], data: new Uint8Array(8) }),
        'x.npy',
        /array data is truncated: shape \[3\] of <f4 needs 12 bytes, the file has 8/,
      );
      await rejects(concat(good(), new Uint8Array(3)), 'x.npy', /3 unexpected bytes after the array data/);
      await rejects(npyFile({ descr: '<f4', shape: [2 ** 30, 2 ** 30], data: new Uint8Array(8) }), 'x.npy', /1\.2e18 elements\) takes the file past the limit/);
    });
  });
});
