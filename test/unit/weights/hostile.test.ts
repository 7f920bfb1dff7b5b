// Regression tests for the hostile-input audit (issue 13), each built from a small generated file:
// Buffer-backed and unaligned input, JSON size limits, amplification (stride-0 views, zip bombs, shared
// members) and the container checks of the reference readers (Python's zipfile, safetensors, np.load).
import { strict as assert } from 'node:assert';
import { zipSync } from 'fflate';
import { readTensorsSync, WeightFileError, type LoaderOptions } from '../../../src/weights';
import { DEFAULT_LOADER_OPTIONS } from '../../../src/weights/options';
import { firstDuplicateKey } from '../../../src/weights/json-keys';
import { loadFixtureBytes } from '../helpers/fixtures';
import { centralDirectoryOffsets, concat, encodeNumbers, npyFile, safetensorsFile, stateDictPickle, torchZip, zipFile } from './builders';

const encoder = new TextEncoder();

function refusal(bytes: Uint8Array, fileName: string, options?: LoaderOptions): string {
  try {
    readTensorsSync(bytes, fileName, options);
  } catch (e) {
    assert.ok(e instanceof WeightFileError, `expected a WeightFileError, got ${String(e)}`);
    assert.ok(e.message.startsWith(`${fileName}: `), e.message);
    return e.message;
  }
  throw new Error(`${fileName} was accepted`);
}

/** `bytes` copied into a Node Buffer that starts at an odd offset of a larger allocation. */
function oddBuffer(bytes: Uint8Array, offset = 1): Buffer {
  const b = Buffer.alloc(bytes.length + offset).subarray(offset);
  b.set(bytes);
  return b;
}

function floats(bytes: Uint8Array, fileName: string): Map<string, number[]> {
  return new Map([...readTensorsSync(bytes, fileName).tensors].map(([k, t]) => [k, Array.from(t.data)]));
}

describe('weights: hostile and odd inputs (issue 13)', () => {
  describe('1. any Uint8Array: Buffers, offsets, alignment; the caller’s bytes are never changed', () => {
    for (const file of ['mha_weights.npz', 'mha_weights_compressed.npz', 'mha_state_dict.pt', 'in_proj_weight.npy', 'gpt2_tiny.safetensors']) {
      it(`${file} reads the same from a Buffer at offsets 1, 2 and 3 as from a plain Uint8Array`, () => {
        const plain = loadFixtureBytes(file);
        const expected = floats(plain, file);
        for (const offset of [1, 2, 3]) assert.deepEqual(floats(oddBuffer(plain, offset), file), expected, `offset ${offset}`);
      });
    }

    it('big-endian data is swapped in a copy: a Buffer read twice gives the same values and stays unchanged', () => {
      const values = [1.5, -2.25, 3e-5, 1e30];
      const npy = npyFile({ descr: '>f4', shape: [4], data: encodeNumbers(values, 'f32', false) });
      const pt = torchZip(
        stateDictPickle([{ name: 'w', storageKey: '0', storageClass: 'FloatStorage', storageNumel: 4, offset: 0, shape: [4], strides: [1] }]),
        { '0': encodeNumbers(values, 'f32', false) },
        { byteorder: 'big' },
      );
      for (const [bytes, name] of [
        [npy, 'w.npy'],
        [pt, 'w.pt'],
      ] as const) {
        const held = oddBuffer(bytes, 3);
        const before = Buffer.from(held);
        for (let read = 0; read < 2; read++) {
          assert.deepEqual([...readTensorsSync(held, name).tensors.get('w')!.data], values.map(Math.fround), `${name}, read ${read + 1}`);
        }
        assert.ok(held.equals(before), `${name}: the caller's bytes were changed`);
      }
    });
  });

  describe('2. JSON is refused by size before it is parsed', () => {
    it('a JSON weight file over maxJsonBytes (64 MiB by default)', () => {
      const bytes = new Uint8Array(DEFAULT_LOADER_OPTIONS.maxJsonBytes + 1).fill(0x20);
      bytes.set(encoder.encode('{"w": {"shape": [1], "data": ['));
      const message = refusal(bytes, 'huge.json');
      assert.match(message, /^huge\.json: the JSON weight file is 64\.0 MiB, over the limit of 64 MiB; it was not parsed/);
    });
  });

  describe('3. what a file expands to is budgeted against its size', () => {
    it('a 1 KB .pt whose stride-0 view would be 2 GiB is refused before allocating', () => {
      const pickle = stateDictPickle([
        { name: 'w', storageKey: '0', storageClass: 'FloatStorage', storageNumel: 1, offset: 0, shape: [1 << 15, 1 << 14], strides: [0, 0] },
      ]);
      const pt = torchZip(pickle, { '0': encodeNumbers([1], 'f32') });
      assert.ok(pt.length < 1200, `${pt.length} bytes`);
      assert.match(refusal(pt, 'stride0.pt'), /tensor "w" with shape \[32768, 16384\] would make this [\d,]+-byte file expand past 67,108,864 bytes/);
    });

    it('an .npz bomb is refused from its directory, before anything is inflated', () => {
      // 96 MiB of zeros deflate to ~100 KB; its directory entry says 96 MiB.
      const zeros = new Uint8Array(96 << 20);
      const member = npyFile({ descr: '<f4', shape: [(96 << 20) / 4 - 32], data: zeros.subarray(0, (96 << 20) - 128) });
      const npz = zipSync({ 'w.npy': [member, { level: 9 }] });
      assert.ok(npz.length < 200_000, `${npz.length} bytes`);
      assert.match(refusal(npz, 'bomb.npz'), /member "w\.npy" \([\d,]+ bytes inflated\) would make this [\d,]+-byte file expand past 67,108,864 bytes/);
    });

    it('the limit follows the file size: the same bomb is read when maxExpansion allows it', () => {
      const member = npyFile({ descr: '<f4', shape: [1 << 16], data: new Uint8Array(1 << 18) });
      const npz = zipSync({ 'w.npy': [member, { level: 9 }] });
      const small = { minMaterializedBytes: 1 << 16 };
      assert.match(refusal(npz, 'z.npz', small), /expand past/);
      assert.equal(readTensorsSync(npz, 'z.npz', { ...small, maxExpansion: 10_000 }).tensors.get('w')!.data.length, 1 << 16);
    });

    it('forty directory entries sharing one compressed member are refused at the first shared read', () => {
      assert.match(refusal(sharedMemberZip(40), 'shared.npz'), /member "m1\.npy": its local header names it "m0\.npy"/);
    });

    it('a member whose data runs over the next member’s header is refused as overlapping (Python’s zipfile does too)', () => {
      const a = npyFile({ descr: '<f4', shape: [2], data: encodeNumbers([1, 2], 'f32') });
      const b = npyFile({ descr: '<f4', shape: [2], data: encodeNumbers([3, 4], 'f32') });
      const zip = zipFile({ 'a.npy': a, 'b.npy': b });
      const view = new DataView(zip.buffer);
      const [first] = centralDirectoryOffsets(zip);
      view.setUint32(first + 20, a.length + 40, true); // compressed and uncompressed size reach into b's header
      view.setUint32(first + 24, a.length + 40, true);
      assert.match(refusal(zip, 'overlap.npz'), /member "a\.npy": its data overlaps the next member/);
    });
  });

  describe('11. containers: refuse what the reference readers refuse', () => {
    const member = npyFile({ descr: '<f4', shape: [2], data: encodeNumbers([1, 2], 'f32') });

    it('an .npz member whose CRC-32 is recorded as 0 is checked, not trusted', () => {
      const zip = zipFile({ 'w.npy': member });
      const view = new DataView(zip.buffer);
      for (const at of centralDirectoryOffsets(zip)) view.setUint32(at + 16, 0, true);
      assert.match(refusal(zip, 'crc0.npz'), /member "w\.npy" is corrupt: its CRC-32 does not match/);
    });

    it('a torch archive whose every CRC is 0 (torch.save with compute_crc32=False) is read; one zeroed CRC among real ones is not', () => {
      const pickle = stateDictPickle([{ name: 'w', storageKey: '0', storageClass: 'FloatStorage', storageNumel: 2, offset: 0, shape: [2], strides: [1] }]);
      const all = torchZip(pickle, { '0': encodeNumbers([1, 2], 'f32') });
      const one = all.slice();
      for (const at of centralDirectoryOffsets(all)) new DataView(all.buffer).setUint32(at + 16, 0, true);
      assert.deepEqual([...readTensorsSync(all, 'nocrc.pt').tensors.get('w')!.data], [1, 2]);
      new DataView(one.buffer).setUint32(centralDirectoryOffsets(one)[0] + 16, 0, true);
      assert.match(refusal(one, 'onecrc.pt'), /is corrupt: its CRC-32 does not match/);
    });

    it('a local header whose name differs from the directory’s is refused', () => {
      const zip = zipFile({ 'w.npy': member });
      zip[30] = 'v'.charCodeAt(0); // the local header's name: "v.npy"
      assert.match(refusal(zip, 'names.npz'), /member "w\.npy": its local header names it "v\.npy"/);
    });

    it('a directory entry (name/) that carries data is refused, an empty one is skipped', () => {
      assert.match(refusal(zipFile({ 'w.npy': member, 'hidden/': member }), 'dir.npz'), /member "hidden\/" is a directory entry but carries \d+ bytes/);
      assert.deepEqual([...readTensorsSync(zipFile({ 'w.npy': member, 'empty/': new Uint8Array(0) }), 'dir.npz').tensors.keys()], ['w']);
    });

    it('a safetensors key given twice is refused (JSON.parse would keep the last)', () => {
      const f32 = encodeNumbers([1, 2], 'f32');
      const text = `{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"w":{"dtype":"I32","shape":[2],"data_offsets":[0,8]}}`;
      assert.match(refusal(rawSafetensors(text, f32), 'dup.safetensors'), /header gives the key "w" twice/);
      const inner = `{"w":{"dtype":"F32","shape":[2],"dtype":"I32","data_offsets":[0,8]}}`;
      assert.match(refusal(rawSafetensors(inner, f32), 'dup.safetensors'), /header gives the key "dtype" twice in "w"/);
      const escaped = `{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"\\u0077":{"dtype":"I32","shape":[2],"data_offsets":[0,8]}}`;
      assert.match(refusal(rawSafetensors(escaped, f32), 'dup.safetensors'), /header gives the key "w" twice/);
    });

    it('a byte-order mark before the safetensors header is refused', () => {
      const good = safetensorsFile([{ name: 'w', dtype: 'F32', shape: [2], data: encodeNumbers([1, 2], 'f32') }]);
      const text = new TextDecoder().decode(good.subarray(8, 8 + Number(new DataView(good.buffer).getBigUint64(0, true))));
      assert.match(
        refusal(rawSafetensors(`\ufeff${text.slice(0, -3)}`, encodeNumbers([1, 2], 'f32')), 'bom.safetensors'),
        /header starts with a byte-order mark/,
      );
    });

    it('.npy headers np.load refuses: over 10,000 bytes, string escapes, an L suffix in version 3.0', () => {
      const data = encodeNumbers([1, 2], 'f32');
      const long = npyFile({ headerText: `{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }${' '.repeat(10_100)}`, version: 2, data });
      assert.match(refusal(long, 'long.npy'), /header length 10,\d{3} is over the limit of 10,000 bytes/);
      const escaped = npyFile({ headerText: `{'descr': '<f\\4', 'fortran_order': False, 'shape': (2,), }`, data });
      assert.match(refusal(escaped, 'esc.npy'), /string escapes are not supported/);
      const v3 = npyFile({ headerText: `{'descr': '<f4', 'fortran_order': False, 'shape': (2L,), }`, version: 3, data });
      assert.match(refusal(v3, 'v3.npy'), /not a Python dict literal/);
      const v1 = npyFile({ headerText: `{'descr': '<f4', 'fortran_order': False, 'shape': (2L,), }`, version: 1, data });
      assert.deepEqual([...readTensorsSync(v1, 'v1.npy').tensors.get('v1')!.data], [1, 2]);
    });
  });

  describe('firstDuplicateKey', () => {
    it('finds repeated keys at any depth and ignores keys inside strings and arrays', () => {
      assert.equal(firstDuplicateKey('{"a": 1, "b": {"a": 2}}'), undefined);
      assert.deepEqual(firstDuplicateKey('{"a": [{"x": 1}, {"x": 2, "y": "\\"x\\"", "x": 3}]}'), { key: 'x', path: ['a', '[]'] });
      assert.deepEqual(firstDuplicateKey('{"a": "{\\"a\\": 1}", "a": 2}'), { key: 'a', path: [] });
      assert.equal(firstDuplicateKey('[{"a": 1}, {"a": 1}]'), undefined);
    });
  });
});

/** A safetensors file with exactly this header text (padded with spaces) and data. */
function rawSafetensors(header: string, data: Uint8Array): Uint8Array {
  let text = header;
  while ((8 + encoder.encode(text).length) % 8) text += ' ';
  const h = encoder.encode(text);
  const length = new Uint8Array(8);
  new DataView(length.buffer).setBigUint64(0, BigInt(h.length), true);
  return concat(length, h, data);
}

/** An .npz whose directory lists `count` entries that all point at one deflated member (a "shared member" bomb). */
function sharedMemberZip(count: number): Uint8Array {
  const member = npyFile({ descr: '<f4', shape: [1 << 20], data: new Uint8Array(4 << 20) });
  const single = zipSync({ 'm0.npy': [member, { level: 9 }] });
  const [entry] = centralDirectoryOffsets(single);
  const fixed = single.slice(entry, entry + 46);
  const entries: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const name = encoder.encode(`m${i}.npy`);
    const e = concat(fixed, name);
    new DataView(e.buffer).setUint16(28, name.length, true);
    new DataView(e.buffer).setUint16(30, 0, true);
    new DataView(e.buffer).setUint16(32, 0, true);
    entries.push(e);
  }
  const directory = concat(...entries);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, count, true);
  ev.setUint16(10, count, true);
  ev.setUint32(12, directory.length, true);
  ev.setUint32(16, entry, true);
  return concat(single.subarray(0, entry), directory, end);
}
