import { strict as assert } from 'node:assert';
import { readTensors, readTensorsWithMetadata, WeightFileError, type LoaderOptions } from '../../../src/weights';
import { bfloat16BitsToNumber, concat, encodeNumbers, halfBitsToNumber, rejectionOf, safetensorsFile, type StEntry } from './builders';

const F = 'model.safetensors';

async function rejects(bytes: Uint8Array, pattern: RegExp, options?: LoaderOptions, file = F): Promise<void> {
  const e = await rejectionOf(readTensors(bytes, file, options));
  assert.ok(e instanceof WeightFileError, `not a WeightFileError: ${e}`);
  assert.ok(e.message.startsWith(`${file}: `), e.message);
  assert.match(e.message, pattern);
}

const f32 = (name: string, shape: number[], values: number[]): StEntry => ({ name, dtype: 'F32', shape, data: encodeNumbers(values, 'f32') });

describe('weights: safetensors', () => {
  it('reads F32 tensors as row-major views over the file, with __metadata__', async () => {
    const bytes = safetensorsFile([f32('a', [2, 3], [1, 2, 3, 4, 5, 6]), f32('b', [], [7.5])], { metadata: { format: 'pt', note: 'x' } });
    const r = await readTensorsWithMetadata(bytes, F);
    assert.equal(r.format, 'safetensors');
    assert.deepEqual(r.metadata, { format: 'pt', note: 'x' });
    assert.deepEqual(r.tensors.get('a')!.shape, [2, 3]);
    assert.deepEqual([...r.tensors.get('a')!.data], [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(r.tensors.get('b')!.shape, []);
    assert.deepEqual([...r.tensors.get('b')!.data], [7.5]);
    assert.equal(r.tensors.get('a')!.data.buffer, bytes.buffer);
  });

  it('copies F32 data that is not 4-byte aligned (a Float32Array view needs byteOffset % 4 == 0)', async () => {
    const values = [0.5, -1.25, 3e-8];
    // Data misaligned inside the file...
    const misaligned = safetensorsFile([f32('w', [3], values)], { misalign: 1 });
    const t1 = (await readTensors(misaligned, F)).get('w')!;
    assert.deepEqual([...t1.data], values.map(Math.fround));
    assert.notEqual(t1.data.buffer, misaligned.buffer);
    // ...and an aligned file inside a buffer at an odd offset (e.g. a pooled Node Buffer).
    const file = safetensorsFile([f32('w', [3], values)]);
    const host = new Uint8Array(file.length + 1);
    host.set(file, 1);
    const t2 = (await readTensors(host.subarray(1), F)).get('w')!;
    assert.deepEqual([...t2.data], values.map(Math.fround));
  });

  it('converts every F16 and BF16 bit pattern exactly (independent decoders)', async () => {
    const all = Array.from({ length: 65536 }, (_, i) => i);
    const bytes = safetensorsFile([
      { name: 'bf16', dtype: 'BF16', shape: [65536], data: encodeNumbers(all, 'u16') },
      { name: 'f16', dtype: 'F16', shape: [256, 256], data: encodeNumbers(all, 'u16') },
    ]);
    const r = await readTensorsWithMetadata(bytes, F);
    const h = r.tensors.get('f16')!.data;
    const b = r.tensors.get('bf16')!.data;
    for (const i of all) {
      assert.ok(Object.is(h[i], halfBitsToNumber(i)) || (Number.isNaN(h[i]) && Number.isNaN(halfBitsToNumber(i))), `f16 0x${i.toString(16)}: ${h[i]}`);
      const expected = Math.fround(bfloat16BitsToNumber(i));
      assert.ok(Object.is(b[i], expected) || (Number.isNaN(b[i]) && Number.isNaN(expected)), `bf16 0x${i.toString(16)}: ${b[i]} vs ${expected}`);
    }
    assert.equal(r.sourceDtypes.get('f16'), 'float16');
    assert.equal(r.sourceDtypes.get('bf16'), 'bfloat16');
  });

  it('narrows F64 to float32 with round-to-nearest and converts integer and bool dtypes', async () => {
    const doubles = [1 / 3, -2.5, 1e-50, 3.4e38, 1e300, -0];
    const bytes = safetensorsFile([
      { name: 'd', dtype: 'F64', shape: [6], data: encodeNumbers(doubles, 'f64') },
      { name: 'i64', dtype: 'I64', shape: [3], data: encodeNumbers([-3, 0, 2 ** 40], 'i64') },
      { name: 'i32', dtype: 'I32', shape: [2], data: encodeNumbers([-7, 123456], 'i32') },
      { name: 'u8', dtype: 'U8', shape: [2], data: encodeNumbers([0, 255], 'u8') },
      { name: 'bool', dtype: 'BOOL', shape: [3], data: Uint8Array.from([0, 1, 1]) },
    ]);
    const t = await readTensors(bytes, F);
    assert.deepEqual([...t.get('d')!.data], doubles.map(Math.fround));
    assert.deepEqual([...t.get('i64')!.data], [-3, 0, 2 ** 40]);
    assert.deepEqual([...t.get('i32')!.data], [-7, 123456]);
    assert.deepEqual([...t.get('u8')!.data], [0, 255]);
    assert.deepEqual([...t.get('bool')!.data], [0, 1, 1]);
  });

  it('accepts zero-size tensors and tensors stored out of name order', async () => {
    const bytes = safetensorsFile([f32('z', [2, 0], []), f32('b', [1], [2]), f32('a', [1], [1])]);
    const t = await readTensors(bytes, F);
    assert.deepEqual([...t.keys()].sort(), ['a', 'b', 'z']);
    assert.equal(t.get('z')!.data.length, 0);
    assert.deepEqual([...t.get('a')!.data], [1]);
  });

  describe('hostile files give an Error naming the file and the problem', () => {
    const good = () => safetensorsFile([f32('a', [2], [1, 2]), f32('b', [2], [3, 4])]);

    it('empty and too-short files', async () => {
      await rejects(new Uint8Array(0), /file is empty/);
      await rejects(Uint8Array.from([1, 2, 3]), /too short for a safetensors header length/);
    });

    it('a header length past the end of the file (1,024 bytes)', async () => {
      const bytes = new Uint8Array(1024);
      new DataView(bytes.buffer).setBigUint64(0, 0x7fffffffffffff00n, true);
      bytes[8] = 0x7b;
      await rejects(bytes, /^model\.safetensors: header length 9\.2e18 is past the end of the file \(1,024 bytes\)$/);
      const cut = good().subarray(0, 20);
      await rejects(cut, /header length \d+ is past the end of the file \(20 bytes\)/);
    });

    it('a header over the size limit', async () => {
      await rejects(good(), /header length 112 bytes is over the limit of 50 \(option maxHeaderBytes\)/, { maxHeaderBytes: 50 });
    });

    it('a header that is not UTF-8, not JSON, or not an object', async () => {
      const make = (header: Uint8Array) => {
        const len = new Uint8Array(8);
        new DataView(len.buffer).setBigUint64(0, BigInt(header.length), true);
        return concat(len, header);
      };
      await rejects(make(Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d])), /header is not valid UTF-8/);
      await rejects(make(new TextEncoder().encode('{"a": ')), /header is not valid JSON/);
      await rejects(make(new TextEncoder().encode('[1, 2]  ')), /header does not start with '\{'/);
      await rejects(make(new TextEncoder().encode('{"a": 3}')), /tensor "a": expected \{dtype, shape, data_offsets\}, got 3/);
    });

    it('unknown dtypes, bad shapes and bad offsets', async () => {
      await rejects(
        safetensorsFile([{ name: 'a', dtype: 'F8_E4M3', shape: [2], data: new Uint8Array(2) }]),
        /tensor "a": dtype "F8_E4M3" is not supported \(supported: F32, F16, BF16, F64/,
      );
      await rejects(
        safetensorsFile([{ name: 'a', dtype: 'F32', shape: [-1, 2], data: new Uint8Array(8) }]),
        /tensor "a": shape \[-1, 2\] has a dim that is not a non-negative integer \(-1\)/,
      );
      await rejects(safetensorsFile([{ name: 'a', dtype: 'F32', shape: [1.5], data: new Uint8Array(8) }]), /not a non-negative integer \(1\.5\)/);
      await rejects(safetensorsFile([{ name: 'a', dtype: 'F32', shape: 'big', data: new Uint8Array(8) }]), /tensor "a": shape must be an array/);
      await rejects(
        safetensorsFile([f32('a', [2], [1, 2])], { header: (h) => ((h.a as any).data_offsets = [0, 9]) }),
        /tensor "a": data_offsets \[0, 9\] are past the end of the data \(8 bytes\)/,
      );
      await rejects(safetensorsFile([f32('a', [2], [1, 2])], { header: (h) => ((h.a as any).data_offsets = [8, 0]) }), /end before they begin/);
      await rejects(safetensorsFile([f32('a', [2], [1, 2])], { header: (h) => ((h.a as any).data_offsets = [0, -8]) }), /data_offsets must be \[begin, end\]/);
      await rejects(safetensorsFile([f32('a', [2], [1, 2])], { header: (h) => ((h.a as any).dtype = 7) }), /dtype must be a string/);
    });

    it('a shape whose byte count does not match its offsets', async () => {
      await rejects(
        safetensorsFile([f32('a', [2], [1, 2])], { header: (h) => ((h.a as any).shape = [3]) }),
        /tensor "a": shape \[3\] of F32 needs 12 bytes but data_offsets cover 8/,
      );
    });

    it('overlapping tensors, gaps, and bytes after the last tensor', async () => {
      await rejects(
        safetensorsFile([f32('a', [2], [1, 2]), f32('b', [2], [3, 4])], { header: (h) => ((h.b as any).data_offsets = [4, 12]) }),
        /tensors "a" and "b" overlap/,
      );
      await rejects(
        safetensorsFile([f32('a', [2], [1, 2]), f32('b', [1], [3]), f32('c', [1], [4])], { header: (h) => delete h.b }),
        /data bytes 8\.\.12 belong to no tensor/,
      );
      await rejects(concat(good(), new Uint8Array(4)), /4 bytes after the last tensor's data belong to no tensor/);
    });

    it('absurd sizes are refused before anything is allocated', async () => {
      const huge = safetensorsFile([f32('a', [2], [1, 2])], { header: (h) => ((h.a as any).shape = [2 ** 40, 2 ** 20]) });
      await rejects(huge, /tensor "a" with shape \[1099511627776, 1048576\] \(1\.2e18 elements\) takes the file past the limit of 536,870,912 elements/);
      await rejects(good(), /takes the file past the limit of 3 elements \(option maxTotalElements\)/, { maxTotalElements: 3 });
      await rejects(good(), /more than 1 tensors \(limit maxTensors\)/, { maxTensors: 1 });
    });

    it('malformed __metadata__', async () => {
      await rejects(safetensorsFile([f32('a', [1], [1])], { metadata: { n: 3 } }), /__metadata__ value "n" must be a string, got 3/);
      await rejects(safetensorsFile([f32('a', [1], [1])], { header: (h) => (h.__metadata__ = [1]) }), /__metadata__ must be an object of strings/);
    });
  });
});
