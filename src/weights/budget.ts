// Shared validation of what a file claims: shapes, element counts, tensor counts.

import { defineTemplates, msg, renderMessage, type MessageArg, type MessageParts } from '../protocol/message';
import { fail, formatCount, quote, shapeText, WEIGHT_PHRASES } from './errors';
import type { ResolvedLoaderOptions } from './options';

const BUDGET_ERRORS = defineTemplates(
  {
    shapeNotArray: '{0}: shape must be an array of dims, got {1}',
    badDim: '{0}: shape {1} has a dim that is not a non-negative integer ({2})',
    tooManyDims: '{0}: shape has {1} dims (at most 64 are supported)',
    tooManyTensors: 'more than {0} tensors (limit maxTensors)',
    tooManyElements: 'tensor {0} with shape {1} ({2} elements) takes the file past the limit of {3} elements (option maxTotalElements)',
    tensorWithShape: 'tensor {0} with shape {1}',
    expandsPast:
      '{0} would make this {1}-byte file expand past {2} bytes ({3}× its size, and never less than {4}: options maxExpansion and minMaterializedBytes)',
  },
  'error',
);

/** Checks that `shape` is an array of non-negative safe integers; `what` names it for the message. */
export function checkShape(fileName: string | MessageParts, what: MessageArg, shape: unknown): number[] {
  if (!Array.isArray(shape)) fail(fileName, msg(BUDGET_ERRORS.shapeNotArray, what, describeValue(shape)));
  const dims: number[] = [];
  for (const d of shape) {
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) {
      fail(fileName, msg(BUDGET_ERRORS.badDim, what, shapeText(shape.map(describeText)), describeValue(d)));
    }
    dims.push(d);
  }
  if (dims.length > 64) fail(fileName, msg(BUDGET_ERRORS.tooManyDims, what, dims.length));
  return dims;
}

/** A value from a file for a message: the value itself when it is short and plain, else what kind it is. */
export function describeValue(v: unknown): MessageArg {
  if (v === undefined) return msg(WEIGHT_PHRASES.missingKey);
  if (typeof v === 'string') return quote(v, 40);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (typeof v === 'bigint') return `${v}`;
  if (Array.isArray(v)) return msg(WEIGHT_PHRASES.anArray);
  return typeof v === 'object' ? msg(WEIGHT_PHRASES.anObject) : typeof v;
}

/** A dim of a shape as written in the file, inside a code-like list "[2, \"x\"]" (a rare nested value in English). */
function describeText(v: unknown): string {
  const d = describeValue(v);
  return typeof d === 'object' ? renderMessage(d) : String(d);
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
      fail(this.fileName, msg(BUDGET_ERRORS.tooManyTensors, formatCount(this.options.maxTensors)));
    }
    let n = 1;
    for (const d of shape) n *= d;
    if (shape.includes(0)) n = 0;
    if (this.elements + n > this.options.maxTotalElements) {
      fail(this.fileName, msg(BUDGET_ERRORS.tooManyElements, quote(name), shapeText(shape), formatCount(n), formatCount(this.options.maxTotalElements)));
    }
    this.charge(n * 4, msg(BUDGET_ERRORS.tensorWithShape, quote(name), shapeText(shape)));
    this.elements += n;
    return n;
  }

  /** Counts `bytes` about to be produced for `what`; throws when they take the file past its byte limit. */
  charge(bytes: number, what: MessageArg): void {
    if (this.bytes + bytes > this.byteLimit) {
      fail(
        this.fileName,
        msg(
          BUDGET_ERRORS.expandsPast,
          what,
          formatCount(this.fileBytes),
          formatCount(this.byteLimit),
          this.options.maxExpansion,
          formatCount(this.options.minMaterializedBytes),
        ),
      );
    }
    this.bytes += bytes;
  }
}
