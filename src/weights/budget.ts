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
 * Counts elements and tensors as a file is read, and refuses as soon as either passes its limit, before
 * anything of that size is allocated.
 */
export class ElementBudget {
  private elements = 0;
  private tensors = 0;
  constructor(
    private readonly fileName: string,
    private readonly options: ResolvedLoaderOptions,
  ) {}

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
    this.elements += n;
    return n;
  }
}
