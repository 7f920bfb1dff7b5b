// A read-only zip reader for .npz and PyTorch archives. It trusts nothing: the central directory,
// local headers and sizes are checked against the file, compressed members are inflated with a hard
// cap on output (no allocation from a declared size that the data does not back), and CRC-32s are
// verified. Stored members are returned as views over the file bytes (zero-copy).
//
// It refuses what Python's zipfile (which NumPy's np.load uses) refuses when a member is read: a local
// header whose name differs from the central directory's, members whose data overlap the next member's
// header (one compressed member listed many times: a zip bomb), a CRC-32 that does not match (a recorded
// 0 included; only an archive whose every CRC is 0, as torch.save writes with compute_crc32=False, is
// read unchecked, like torch.load reads it); and a directory entry (`name/`) that carries data.

import { Inflate } from 'fflate';
import type { ElementBudget } from './budget';
import { crc32 } from './crc32';
import { defineTemplates, errorArg, msg, type MessageArg, type MessageParts } from '../protocol/message';
import { fail, formatCount, quote, WEIGHT_PHRASES } from './errors';

const ZIP_ERRORS = defineTemplates(
  {
    duplicateMember: 'zip archive lists member {0} twice',
    directoryWithData: 'zip member {0} is a directory entry but carries {1} bytes of data',
    storedSizesDiffer: '{0} is stored uncompressed but its sizes differ ({1} vs {2} bytes)',
    crc: '{0} is corrupt: its CRC-32 does not match the zip directory',
    inflateLimit: '{0} declares {1} bytes uncompressed, past the limit of {2} inflated bytes per file (option maxInflatedBytes)',
    inflated: '{0} ({1} bytes inflated)',
    corruptDeflate: '{0} has corrupt deflate data ({1})',
    inflatesPast: '{0} inflates to more than its declared {1} bytes (a zip bomb or a corrupt directory)',
    inflatesTo: '{0} inflates to {1} bytes but the zip directory declares {2}',
    noLocalHeader: '{0}: no local file header at offset {1}',
    dataPastEnd: '{0}: its {1} bytes of data run past the end of the file ({2} bytes)',
    namesDiffer: '{0}: its local header names it {1}; the names in the directory and the header differ',
    overlapsNext: '{0}: its data overlaps the next member (at offset {1}); overlapping members are a zip bomb or a corrupt archive',
    notZip: 'not a complete zip archive (no end-of-central-directory record; the file may be truncated)',
    multiVolume: 'multi-volume zip archives are not supported',
    directoryPastEnd: 'zip central directory ({0} bytes at offset {1}) is past the end of the file ({2} bytes)',
    directoryTooSmall: 'zip central directory claims {0} entries but is only {1} bytes',
    entryMalformed: 'zip central directory entry {0} is malformed (no signature at offset {1})',
    entryPastDirectory: 'zip central directory entry {0} runs past the directory',
    encrypted: '{0} is encrypted, which is not supported',
    method: '{0} uses compression method {1}; only stored (0) and deflate (8) are supported',
    offsetPastEnd: '{0}: offset {1} or size {2} is past the end of the file ({3} bytes)',
    noZip64Locator: 'zip archive needs a zip64 end-of-central-directory locator but has none',
    noZip64Record: 'zip64 end-of-central-directory record is missing at offset {0}',
    zip64DirectoryOffset: 'zip64 directory offset',
    zip64EntryCount: 'zip64 entry count',
    zip64DirectorySize: 'zip64 directory size',
    extraTooShort: '{0}: zip64 extra field is too short for the {1}',
    fieldOf: '{0} {1}',
    uncompressedSize: 'uncompressed size',
    compressedSize: 'compressed size',
    headerOffset: 'header offset',
    noZip64Extra: '{0} has 0xFFFFFFFF sizes but no zip64 extra field',
    absurd: '{0} {1} is absurd',
  },
  'error',
);
import type { ResolvedLoaderOptions } from './options';

export const ZIP_LOCAL_MAGIC = [0x50, 0x4b, 0x03, 0x04];
export const ZIP_EMPTY_MAGIC = [0x50, 0x4b, 0x05, 0x06];

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** Input fed to the inflater per step: bounds how far one step can overshoot the output cap. */
const INFLATE_STEP = 16 * 1024;

export interface ZipEntry {
  readonly name: string;
  /** Where the next member's local header (or the central directory) starts: this member's data ends by then. */
  readonly endBound: number;
  readonly method: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
}

export class ZipArchive {
  readonly entries: readonly ZipEntry[];
  private readonly byName = new Map<string, ZipEntry>();
  private readonly view: DataView;
  private inflatedTotal = 0;
  /** True when every member records CRC 0 (torch.save with compute_crc32=False): CRCs are then not checked. */
  private readonly crcsUnrecorded: boolean;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly fileName: string,
    private readonly options: ResolvedLoaderOptions,
    private readonly budget?: ElementBudget,
    /** Accept an archive whose every CRC is 0 as one written without CRCs (torch.save can be told to). */
    reading: { allowUnrecordedCrcs?: boolean } = {},
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.entries = this.readCentralDirectory();
    for (const e of this.entries) {
      if (this.byName.has(e.name)) fail(fileName, msg(ZIP_ERRORS.duplicateMember, quote(e.name)));
      this.byName.set(e.name, e);
      if (e.name.endsWith('/') && e.uncompressedSize !== 0) {
        fail(fileName, msg(ZIP_ERRORS.directoryWithData, quote(e.name), formatCount(e.uncompressedSize)));
      }
    }
    this.crcsUnrecorded = reading.allowUnrecordedCrcs === true && this.entries.length > 0 && this.entries.every((e) => e.crc32 === 0);
  }

  get(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  /** The member's uncompressed bytes: a view over the file when stored, a new buffer when deflated. */
  read(entry: ZipEntry): Uint8Array {
    const where = msg(WEIGHT_PHRASES.zipMember, quote(entry.name));
    const start = this.dataOffset(entry);
    const compressed = this.bytes.subarray(start, start + entry.compressedSize);
    let data: Uint8Array;
    if (entry.method === STORED) {
      if (entry.compressedSize !== entry.uncompressedSize) {
        fail(this.fileName, msg(ZIP_ERRORS.storedSizesDiffer, where, formatCount(entry.compressedSize), formatCount(entry.uncompressedSize)));
      }
      data = compressed;
    } else {
      data = this.inflate(entry, compressed, where);
    }
    if (this.options.verifyZipCrc && !this.crcsUnrecorded && crc32(data) !== entry.crc32) {
      fail(this.fileName, msg(ZIP_ERRORS.crc, where));
    }
    return data;
  }

  private inflate(entry: ZipEntry, compressed: Uint8Array, where: MessageParts): Uint8Array {
    const declared = entry.uncompressedSize;
    const cap = this.options.maxInflatedBytes;
    if (this.inflatedTotal + declared > cap) {
      fail(this.fileName, msg(ZIP_ERRORS.inflateLimit, where, formatCount(declared), formatCount(cap)));
    }
    // Counted before anything is inflated: a bomb is refused at once, from its directory entry.
    this.budget?.charge(declared, msg(ZIP_ERRORS.inflated, where, formatCount(declared)));
    // Grow the output as data actually arrives, never past the declared size: a small member that lies
    // about its size cannot make us allocate, and one that inflates to more than it declared is refused.
    let out = new Uint8Array(Math.min(declared, compressed.length * 4 + 65536));
    let length = 0;
    let finished = false;
    let overflow = false;
    const inflater = new Inflate((chunk, final) => {
      if (final) finished = true;
      if (length + chunk.length > declared) {
        overflow = true;
        return;
      }
      if (length + chunk.length > out.length) {
        const grown = new Uint8Array(Math.min(declared, Math.max(out.length * 2, length + chunk.length)));
        grown.set(out.subarray(0, length));
        out = grown;
      }
      out.set(chunk, length);
      length += chunk.length;
    });
    try {
      for (let i = 0; i < compressed.length && !overflow && !finished; i += INFLATE_STEP) {
        const end = Math.min(i + INFLATE_STEP, compressed.length);
        inflater.push(compressed.subarray(i, end), end === compressed.length);
      }
      if (compressed.length === 0) inflater.push(compressed, true);
    } catch (e) {
      fail(this.fileName, msg(ZIP_ERRORS.corruptDeflate, where, errorArg(e)));
    }
    if (overflow) fail(this.fileName, msg(ZIP_ERRORS.inflatesPast, where, formatCount(declared)));
    if (length !== declared) {
      fail(this.fileName, msg(ZIP_ERRORS.inflatesTo, where, formatCount(length), formatCount(declared)));
    }
    this.inflatedTotal += length;
    return out.length === length ? out : out.subarray(0, length);
  }

  private dataOffset(entry: ZipEntry): number {
    const where = msg(WEIGHT_PHRASES.zipMember, quote(entry.name));
    const at = entry.localHeaderOffset;
    if (at + 30 > this.bytes.length || this.view.getUint32(at, true) !== LOCAL_SIGNATURE) {
      fail(this.fileName, msg(ZIP_ERRORS.noLocalHeader, where, formatCount(at)));
    }
    const nameLength = this.view.getUint16(at + 26, true);
    const start = at + 30 + nameLength + this.view.getUint16(at + 28, true);
    if (start + entry.compressedSize > this.bytes.length) {
      fail(this.fileName, msg(ZIP_ERRORS.dataPastEnd, where, formatCount(entry.compressedSize), formatCount(this.bytes.length)));
    }
    const localName = new TextDecoder('utf-8').decode(this.bytes.subarray(at + 30, at + 30 + nameLength));
    if (localName !== entry.name) {
      fail(this.fileName, msg(ZIP_ERRORS.namesDiffer, where, quote(localName)));
    }
    if (start + entry.compressedSize > entry.endBound) {
      fail(this.fileName, msg(ZIP_ERRORS.overlapsNext, where, formatCount(entry.endBound)));
    }
    return start;
  }

  private readCentralDirectory(): ZipEntry[] {
    const { bytes, view, fileName } = this;
    const eocd = findEndOfCentralDirectory(bytes, view);
    if (eocd < 0) fail(fileName, msg(ZIP_ERRORS.notZip));
    if (view.getUint16(eocd + 4, true) !== 0 || view.getUint16(eocd + 6, true) !== 0) {
      fail(fileName, msg(ZIP_ERRORS.multiVolume));
    }
    let count = view.getUint16(eocd + 10, true);
    let size = view.getUint32(eocd + 12, true);
    let offset = view.getUint32(eocd + 16, true);
    if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
      ({ count, size, offset } = this.readZip64EndOfCentralDirectory(eocd));
    }
    if (offset + size > bytes.length) {
      fail(fileName, msg(ZIP_ERRORS.directoryPastEnd, formatCount(size), formatCount(offset), formatCount(bytes.length)));
    }
    if (count * 46 > size) fail(fileName, msg(ZIP_ERRORS.directoryTooSmall, formatCount(count), formatCount(size)));
    const entries: ZipEntry[] = [];
    const names = new TextDecoder('utf-8');
    let p = offset;
    for (let i = 0; i < count; i++) {
      if (p + 46 > offset + size || view.getUint32(p, true) !== CENTRAL_SIGNATURE) {
        fail(fileName, msg(ZIP_ERRORS.entryMalformed, i, formatCount(p)));
      }
      const flags = view.getUint16(p + 8, true);
      const method = view.getUint16(p + 10, true);
      const nameLength = view.getUint16(p + 28, true);
      const extraLength = view.getUint16(p + 30, true);
      const commentLength = view.getUint16(p + 32, true);
      const next = p + 46 + nameLength + extraLength + commentLength;
      if (next > offset + size) fail(fileName, msg(ZIP_ERRORS.entryPastDirectory, i));
      const name = names.decode(bytes.subarray(p + 46, p + 46 + nameLength));
      const where = msg(WEIGHT_PHRASES.zipMember, quote(name));
      if (flags & 0x41) fail(fileName, msg(ZIP_ERRORS.encrypted, where));
      if (method !== STORED && method !== DEFLATED) {
        fail(fileName, msg(ZIP_ERRORS.method, where, method));
      }
      let compressedSize = view.getUint32(p + 20, true);
      let uncompressedSize = view.getUint32(p + 24, true);
      let localHeaderOffset = view.getUint32(p + 42, true);
      if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
        const z = this.readZip64Extra(bytes.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength), where, {
          uncompressedSize,
          compressedSize,
          localHeaderOffset,
        });
        ({ compressedSize, uncompressedSize, localHeaderOffset } = z);
      }
      if (localHeaderOffset + 30 > bytes.length || compressedSize > bytes.length) {
        fail(fileName, msg(ZIP_ERRORS.offsetPastEnd, where, formatCount(localHeaderOffset), formatCount(compressedSize), formatCount(bytes.length)));
      }
      entries.push({ name, endBound: offset, method, crc32: view.getUint32(p + 16, true), compressedSize, uncompressedSize, localHeaderOffset });
      p = next;
    }
    // Each member's data must end before the next local header (by offset) or, for the last, the directory.
    const byOffset = [...entries].sort((a, b) => b.localHeaderOffset - a.localHeaderOffset);
    let bound = offset;
    for (const e of byOffset) {
      (e as { endBound: number }).endBound = bound;
      bound = Math.min(bound, e.localHeaderOffset);
    }
    return entries;
  }

  private readZip64EndOfCentralDirectory(eocd: number): { count: number; size: number; offset: number } {
    const { view, fileName } = this;
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR_SIGNATURE) {
      fail(fileName, msg(ZIP_ERRORS.noZip64Locator));
    }
    const at = safeU64(view, locator + 8, fileName, msg(ZIP_ERRORS.zip64DirectoryOffset));
    if (at + 56 > this.bytes.length || view.getUint32(at, true) !== ZIP64_EOCD_SIGNATURE) {
      fail(fileName, msg(ZIP_ERRORS.noZip64Record, formatCount(at)));
    }
    return {
      count: safeU64(view, at + 32, fileName, msg(ZIP_ERRORS.zip64EntryCount)),
      size: safeU64(view, at + 40, fileName, msg(ZIP_ERRORS.zip64DirectorySize)),
      offset: safeU64(view, at + 48, fileName, msg(ZIP_ERRORS.zip64DirectoryOffset)),
    };
  }

  /** Zip64 extended information (header id 1): 8-byte values for the fields whose 4-byte form is 0xFFFFFFFF. */
  private readZip64Extra(
    extra: Uint8Array,
    where: MessageParts,
    fields: { uncompressedSize: number; compressedSize: number; localHeaderOffset: number },
  ): { uncompressedSize: number; compressedSize: number; localHeaderOffset: number } {
    const view = new DataView(extra.buffer, extra.byteOffset, extra.byteLength);
    for (let p = 0; p + 4 <= extra.length;) {
      const id = view.getUint16(p, true);
      const length = view.getUint16(p + 2, true);
      if (p + 4 + length > extra.length) break;
      if (id === 1) {
        let q = p + 4;
        const next = (what: MessageParts): number => {
          if (q + 8 > p + 4 + length) fail(this.fileName, msg(ZIP_ERRORS.extraTooShort, where, what));
          const v = safeU64(view, q, this.fileName, msg(ZIP_ERRORS.fieldOf, where, what));
          q += 8;
          return v;
        };
        const out = { ...fields };
        if (fields.uncompressedSize === 0xffffffff) out.uncompressedSize = next(msg(ZIP_ERRORS.uncompressedSize));
        if (fields.compressedSize === 0xffffffff) out.compressedSize = next(msg(ZIP_ERRORS.compressedSize));
        if (fields.localHeaderOffset === 0xffffffff) out.localHeaderOffset = next(msg(ZIP_ERRORS.headerOffset));
        return out;
      }
      p += 4 + length;
    }
    return fail(this.fileName, msg(ZIP_ERRORS.noZip64Extra, where));
  }
}

function safeU64(view: DataView, at: number, fileName: string, what: MessageArg): number {
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) fail(fileName, msg(ZIP_ERRORS.absurd, what, formatCount(v)));
  return Number(v);
}

/** Offset of the end-of-central-directory record (searched backwards over a possible comment), or -1. */
function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let p = bytes.length - 22; p >= lowest; p--) {
    if (bytes[p] === 0x50 && view.getUint32(p, true) === EOCD_SIGNATURE && p + 22 + view.getUint16(p + 20, true) <= bytes.length) {
      return p;
    }
  }
  return -1;
}

/** Member names of a zip archive, or undefined when its directory cannot be read (for format detection). */
export function tryListZipNames(bytes: Uint8Array, options: ResolvedLoaderOptions): string[] | undefined {
  try {
    return new ZipArchive(bytes, '', options).entries.map((e) => e.name);
  } catch {
    return undefined;
  }
}
