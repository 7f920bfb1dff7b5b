// Picks a file's format from its first bytes (magic numbers) and, where the bytes do not decide, its name.
//
//   \x93NUMPY                        → npy
//   PK\x03\x04 / PK\x05\x06 (zip)     → torch when a member is <dir>/data.pkl, npz when all are .npy
//   u64 N, then '{' at byte 8         → safetensors (when N fits in the file)
//   '{' after optional BOM/whitespace → json
// Failing those, the extension names the expected format (.safetensors, .npy, .npz, .pt/.pth/.bin/.ckpt,
// .json), so that a damaged file gets that format's specific error ("header length ... is past the end").
// A bare pickle stream or a tar archive is the legacy (pre-1.6) torch.save format: 'torch-legacy'.

import { NPY_MAGIC } from './npy';
import { DEFAULT_LOADER_OPTIONS } from './options';
import type { WeightFormat } from './result';
import { tryListZipNames, ZIP_EMPTY_MAGIC, ZIP_LOCAL_MAGIC } from './zip';

export type DetectedFormat = WeightFormat | 'torch-legacy' | 'unknown';

const EXTENSION_FORMATS: Readonly<Record<string, WeightFormat>> = Object.freeze({
  '.safetensors': 'safetensors',
  '.npy': 'npy',
  '.npz': 'npz',
  '.pt': 'torch',
  '.pth': 'torch',
  '.bin': 'torch',
  '.ckpt': 'torch',
  '.json': 'json',
});

export function detectFormat(bytes: Uint8Array, fileName: string): DetectedFormat {
  const byExtension = formatFromExtension(fileName);
  if (startsWith(bytes, NPY_MAGIC)) return 'npy';
  if (startsWith(bytes, ZIP_LOCAL_MAGIC) || startsWith(bytes, ZIP_EMPTY_MAGIC)) {
    const names = tryListZipNames(bytes, DEFAULT_LOADER_OPTIONS);
    if (names?.some((n) => /^[^/]+\/data\.pkl$/.test(n))) return 'torch';
    if (names && names.length > 0 && names.every((n) => n.endsWith('.npy') || n.endsWith('/'))) return 'npz';
    // Neither clearly: let the name say which format's error message to give.
    return byExtension === 'torch' ? 'torch' : 'npz';
  }
  if (byExtension === 'json' && looksLikeJson(bytes)) return 'json';
  if (looksLikeSafetensors(bytes)) return 'safetensors';
  if (looksLikeJson(bytes)) return 'json';
  if (looksLikeLegacyTorch(bytes)) return 'torch-legacy';
  return byExtension ?? 'unknown';
}

export function formatFromExtension(fileName: string): WeightFormat | undefined {
  const m = /\.[^./\\]+$/.exec(fileName);
  const ext = m ? m[0].toLowerCase() : '';
  return Object.hasOwn(EXTENSION_FORMATS, ext) ? EXTENSION_FORMATS[ext] : undefined;
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

function looksLikeSafetensors(bytes: Uint8Array): boolean {
  if (bytes.length < 10 || bytes[8] !== 0x7b) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getBigUint64(0, true) <= BigInt(bytes.length - 8);
}

function looksLikeJson(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x7b;
}

/** A pickle stream (PROTO 2..5 first) or a tar archive: what torch.save wrote before PyTorch 1.6. */
function looksLikeLegacyTorch(bytes: Uint8Array): boolean {
  const [opcode, protocol = -1] = bytes;
  if (opcode === 0x80 && protocol >= 2 && protocol <= 5) return true;
  const ustar = [0x75, 0x73, 0x74, 0x61, 0x72]; // "ustar" at offset 257
  return bytes.length > 262 && ustar.every((b, i) => bytes[257 + i] === b);
}
