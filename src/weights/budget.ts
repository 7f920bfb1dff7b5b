// Shared validation of what a file claims: shapes, element counts, tensor counts.

import { fail, formatCount, quote } from './errors';
import type { ResolvedLoaderOptions } from './options';

/** Checks that `shape` is an array of non-negative safe integers; `what` names it for the message. */
export function checkShape(fileName: string, what: string, shape: unknown): number[] {
  if (!Array.isArray(shape)) fail(fileName, `${what}: shape must be an array of dims, got ${describeValue(shape)}`);
  const dims: number[] = [];
  for (const d of shape) {
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) {
      fail(fileName, `${what}: shape [${shape.map(describeValue).join(', ')}] has a dim that is not a non-negative integer (${describeValue(d)})`);
    }
    dims.push(d);
  }
  if (dims.length > 64) fail(fileName, `${what}: shape has ${dims.length} dims (at most 64 are supported)`);
  return dims;
}

export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing (the key is missing)';
  if (typeof v === 'string') return quote(v, 40);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (typeof v === 'bigint') return `${v}`;
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : typeof v;
}

/**
 * Counts elements, tensors and bytes as a file is read, and refuses as soon as any passes its limit, before
 * anything of that size is allocated. Bytes are everything the loader produces: float32 tensors (views over
 * the file included), inflated zip members and converted storages; together they may not exceed
 * max(minMaterializedBytes, maxExpansion × the file's size), so a small file cannot make a large allocation
 * (stride-0 views, zip bombs, one compressed member listed many times).
 */
export class ElementBudget {
  private elements = 0;
  private tensors = 0;
  private bytes = 0;
  readonly byteLimit: number;
  constructor(
    private readonly fileName: string,
    private readonly options: ResolvedLoaderOptions,
    /** Size of the whole file in bytes. */
    readonly fileBytes: number,
  ) {
    this.byteLimit = Math.max(options.minMaterializedBytes, fileBytes * options.maxExpansion);
  }

  /** Number of elements of `shape`; throws if this tensor would take the file past a limit. */
  take(name: string, shape: readonly number[]): number {
    this.tensors++;
    if (this.tensors > this.options.maxTensors) {
      fail(this.fileName, `more than ${formatCount(this.options.maxTensors)} tensors (limit maxTensors)`);
    }
    let n = 1;
    for (const d of shape) n *= d;
    if (shape.includes(0)) n = 0;
    if (this.elements + n > this.options.maxTotalElements) {
      fail(
        this.fileName,
        `tensor ${quote(name)} with shape [${shape.join(', ')}] (${formatCount(n)} elements) takes the file past ` +
          `the limit of ${formatCount(this.options.maxTotalElements)} elements (option maxTotalElements)`,
      );
    }
    this.charge(n * 4, `tensor ${quote(name)} with shape [${shape.join(', ')}]`);
    this.elements += n;
    return n;
  }

  /** Counts `bytes` about to be produced for `what`; throws when they take the file past its byte limit. */
  charge(bytes: number, what: string): void {
    if (this.bytes + bytes > this.byteLimit) {
      fail(
        this.fileName,
        `${what} would make this ${formatCount(this.fileBytes)}-byte file expand past ${formatCount(this.byteLimit)} bytes ` +
          `(${this.options.maxExpansion}× its size, and never less than ${formatCount(this.options.minMaterializedBytes)}: ` +
          `options maxExpansion and minMaterializedBytes)`,
      );
    }
    this.bytes += bytes;
  }
}
