import { strict as assert } from 'node:assert';
import { deflateSync } from 'fflate';
import { readTensors, readTensorsWithMetadata, WeightFileError, type LoaderOptions } from '../../../src/weights';
import { centralDirectoryOffsets, concat, encodeNumbers, npyFile, rejectionOf, toZip64, zipFile } from './builders';

const F = 'weights.npz';

async function rejects(bytes: Uint8Array, pattern: RegExp, options?: LoaderOptions, file = F): Promise<void> {
  const e = await rejectionOf(readTensors(bytes, file, options));
  assert.ok(e instanceof WeightFileError, String(e));
  assert.ok(e.message.startsWith(`${file}: `), e.message);
  assert.match(e.message, pattern);
}

const members = () => ({
  'a.npy': npyFile({ descr: '<f4', shape: [2, 2], data: encodeNumbers([1, 2, 3, 4], 'f32') }),
  'blocks/0.weight.npy': npyFile({ descr: '>f8', shape: [3], data: encodeNumbers([0.5, -1, 1e10], 'f64', false) }),
});

/** Sets a 32-bit field of the first central-directory entry (offsets from APPNOTE 4.3.12). */
function editCentral(zip: Uint8Array, field: 'crc' | 'compressed' | 'uncompressed' | 'method' | 'flags' | 'offset', value: number): Uint8Array {
  const copy = zip.slice();
  const at = centralDirectoryOffsets(copy)[0];
  const view = new DataView(copy.buffer);
  const offsets = { flags: 8, method: 10, crc: 16, compressed: 20, uncompressed: 24, offset: 42 } as const;
  if (field === 'flags' || field === 'method') view.setUint16(at + offsets[field], value, true);
  else view.setUint32(at + offsets[field], value, true);
  return copy;
}

describe('weights: .npz (zip of .npy)', () => {
  for (const level of [0, 6] as const) {
    it(`${level ? 'deflated (savez_compressed)' : 'stored (savez)'} members load with their names minus .npy`, async () => {
      const r = await readTensorsWithMetadata(zipFile(members(), level), F);
      assert.equal(r.format, 'npz');
      assert.deepEqual([...r.tensors.keys()], ['a', 'blocks/0.weight']);
      assert.deepEqual([...r.tensors.get('a')!.data], [1, 2, 3, 4]);
      assert.deepEqual(r.tensors.get('blocks/0.weight')!.shape, [3]);
      assert.deepEqual([...r.tensors.get('blocks/0.weight')!.data], [0.5, -1, 1e10]);
      assert.equal(r.sourceDtypes.get('blocks/0.weight'), 'float64');
    });
  }

  it('reads zip64 central directories (archives over 4 GB use them)', async () => {
    const t = await readTensors(toZip64(zipFile(members(), 6)), F);
    assert.deepEqual([...t.get('a')!.data], [1, 2, 3, 4]);
  });

  it('an empty archive is an empty map', async () => {
    assert.equal((await readTensors(zipFile({}), F)).size, 0);
  });

  describe('hostile archives', () => {
    it('truncated archives and garbage directories', async () => {
      const zip = zipFile(members());
      await rejects(zip.subarray(0, zip.length - 10), /not a complete zip archive \(no end-of-central-directory record/);
      const badOffset = zip.slice();
      new DataView(badOffset.buffer).setUint32(badOffset.length - 6, 0x7fffffff, true);
      await rejects(badOffset, /zip central directory \(\d+ bytes at offset 2,147,483,647\) is past the end of the file/);
      const badCount = zip.slice();
      new DataView(badCount.buffer).setUint16(badCount.length - 12, 60000, true);
      await rejects(badCount, /central directory claims 60,000 entries but is only \d+ bytes/);
      await rejects(editCentral(zip, 'offset', zip.length - 5), /zip member "a\.npy": offset [\d,]+ or size \d+ is past the end of the file/);
      await rejects(editCentral(zip, 'offset', 7), /zip member "a\.npy": no local file header at offset 7/);
    });

    it('unsupported compression and encryption', async () => {
      await rejects(
        editCentral(zipFile(members()), 'method', 12),
        /zip member "a\.npy" uses compression method 12; only stored \(0\) and deflate \(8\) are supported/,
      );
      await rejects(editCentral(zipFile(members()), 'flags', 1), /zip member "a\.npy" is encrypted/);
    });

    it('CRC mismatches (corrupt data) are caught, and can be switched off', async () => {
      const zip = editCentral(zipFile(members()), 'crc', 0x12345678);
      await rejects(zip, /zip member "a\.npy" is corrupt: its CRC-32 does not match/);
      assert.equal((await readTensors(zip, F, { verifyZipCrc: false })).size, 2);
    });

    it('stored members whose sizes disagree', async () => {
      await rejects(editCentral(zipFile(members()), 'uncompressed', 5), /stored uncompressed but its sizes differ/);
    });

    it('a zip bomb: declared size over the inflate limit is refused before inflating', async () => {
      const bomb = zipFile({ 'zeros.npy': npyFile({ descr: '<f4', shape: [1_000_000], data: new Uint8Array(4_000_000) }) }, 6);
      assert.ok(bomb.length < 10_000, `bomb is ${bomb.length} bytes`);
      await rejects(
        bomb,
        /zip member "zeros\.npy" declares 4,000,128 bytes uncompressed, past the limit of 1,000,000 inflated bytes per file \(option maxInflatedBytes\)/,
        {
          maxInflatedBytes: 1_000_000,
        },
      );
    });

    it('a zip bomb that lies about its size is stopped at the declared size', async () => {
      const liar = editCentral(
        zipFile({ 'zeros.npy': npyFile({ descr: '<f4', shape: [1_000_000], data: new Uint8Array(4_000_000) }) }, 6),
        'uncompressed',
        1000,
      );
      await rejects(liar, /zip member "zeros\.npy" inflates to more than its declared 1,000 bytes/);
    });

    it('deflate data that is corrupt or shorter than declared', async () => {
      const zip = zipFile(members(), 6);
      const short = editCentral(zip, 'uncompressed', 1_000_000);
      await rejects(short, /zip member "a\.npy" inflates to 144 bytes but the zip directory declares 1,000,000/);
      // A member whose deflate stream is cut off: rebuild the archive around a truncated stream.
      const raw = deflateSync(new Uint8Array(5000).map((_, i) => (i * 7919) % 251));
      const truncated = replaceMemberData(zipFile({ 'a.npy': new Uint8Array(5000) }, 6), raw.subarray(0, raw.length >> 1), 5000);
      await rejects(truncated, /zip member "a\.npy" has corrupt deflate data/);
    });

    it('members that are not .npy, and a bad .npy inside (the message names the member)', async () => {
      await rejects(zipFile({ 'notes.txt': new Uint8Array(3) }), /member "notes\.txt" is not a \.npy array/);
      const bad = zipFile({ 'w.npy': npyFile({ descr: '<f4', shape: [5], data: new Uint8Array(8) }) });
      await rejects(bad, /^weights\.npz: member "w\.npy": array data is truncated/);
    });

    it('the element limit counts across members', async () => {
      await rejects(zipFile(members()), /tensor "blocks\/0\.weight" with shape \[3\] \(3 elements\) takes the file past the limit of 5 elements/, {
        maxTotalElements: 5,
      });
    });
  });
});

/** A one-member deflated zip with its compressed data replaced by `data` (sizes and offsets rewritten). */
function replaceMemberData(zip: Uint8Array, data: Uint8Array, uncompressedSize: number): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const nameLength = view.getUint16(26, true);
  const extraLength = view.getUint16(28, true);
  const dataStart = 30 + nameLength + extraLength;
  const oldSize = view.getUint32(18, true);
  const local = zip.slice(0, dataStart);
  new DataView(local.buffer).setUint32(18, data.length, true);
  const rest = zip.slice(dataStart + oldSize);
  const rv = new DataView(rest.buffer);
  // central entry at the start of `rest`
  rv.setUint32(20, data.length, true);
  rv.setUint32(24, uncompressedSize, true);
  rv.setUint32(16, 0, true); // no CRC: the point is the deflate stream
  const eocd = rest.length - 22;
  rv.setUint32(eocd + 16, dataStart + data.length, true);
  return concat(local, data, rest);
}
