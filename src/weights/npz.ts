// NumPy .npz: a zip archive (np.savez: stored, np.savez_compressed: deflated) of .npy members.
// Tensor names are the member names without their ".npy" suffix.

import type { Tensor } from '../engine/tensor';
import { ElementBudget } from './budget';
import type { SourceDType } from './dtype';
import { defineTemplates, msg } from '../protocol/message';
import { fail, quote, WEIGHT_PHRASES } from './errors';

const NPZ_ERRORS = defineTemplates({ notNpyMember: 'member {0} is not a .npy array (an .npz holds only .npy members)' }, 'error');
import { readNpyArray } from './npy';
import type { ResolvedLoaderOptions } from './options';
import type { DecodedFile } from './result';
import { ZipArchive } from './zip';

export function readNpz(bytes: Uint8Array, fileName: string, options: ResolvedLoaderOptions): DecodedFile {
  const budget = new ElementBudget(fileName, options, bytes.length);
  const archive = new ZipArchive(bytes, fileName, options, budget);
  const tensors = new Map<string, Tensor>();
  const sourceDtypes = new Map<string, SourceDType>();
  for (const entry of archive.entries) {
    if (entry.name.endsWith('/')) continue; // a directory entry (one carrying data is refused by ZipArchive)
    if (!entry.name.endsWith('.npy')) {
      fail(fileName, msg(NPZ_ERRORS.notNpyMember, quote(entry.name)));
    }
    const name = entry.name.slice(0, -'.npy'.length);
    const where = msg(WEIGHT_PHRASES.member, fileName, quote(entry.name));
    const { tensor, dtype } = readNpyArray(archive.read(entry), where, name, options, budget);
    tensors.set(name, tensor);
    sourceDtypes.set(name, dtype);
  }
  return { format: 'npz', tensors, sourceDtypes, metadata: {} };
}
