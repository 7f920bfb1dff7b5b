// Reading the CLI's input files safely: only regular files (a FIFO would block forever, a device never
// ends), and their size checked before a byte is read. The file is opened without blocking and then
// checked through its descriptor, so what is checked is what is read.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Why a path cannot be read, in words for a message (from an fs error code). */
export function unreadableReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'too many levels of symbolic links';
  return code ?? (e instanceof Error ? e.message : String(e));
}

export class InputFileError extends Error {
  /** The fs error code behind the refusal, when there was one (ENOENT: the file does not exist). */
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * The bytes of a regular file of at most `maxBytes` bytes. Throws InputFileError saying why not: not a
 * regular file (FIFO, device, socket, directory), larger than `maxBytes` (`what` names the limit), unreadable.
 */
export function readRegularFile(path: string, maxBytes: number, what = 'the limit'): Buffer {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting for one.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new InputFileError(unreadableReason(e), (e as NodeJS.ErrnoException).code);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new InputFileError('it is a directory');
    if (!st.isFile()) throw new InputFileError(`not a regular file (${kindOf(st)}); only regular files are read`);
    if (st.size > maxBytes) throw new InputFileError(`${formatMiB(st.size)} is over ${what} of ${formatMiB(maxBytes)}; it was not read`);
    return readFileSync(fd);
  } catch (e) {
    if (e instanceof InputFileError) throw e;
    throw new InputFileError(unreadableReason(e));
  } finally {
    closeSync(fd);
  }
}

function kindOf(st: import('node:fs').Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

export function formatMiB(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * Reads files of a recorded trace folder (untrusted) by their plain names, as regular files of at most
 * 2 GiB - 1 bytes each; a name that would leave the folder is refused.
 */
export function traceFileReader(dir: string): (name: string) => Uint8Array {
  return (name) => {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.')) throw new Error(`not a plain file name: ${name}`);
    return readRegularFile(join(dir, name), 2 ** 31 - 1, 'the largest file read whole');
  };
}
