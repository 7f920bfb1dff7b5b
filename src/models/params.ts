// Named parameters of a checkpoint, read with their expected shapes. Every failure names the file, the
// tensor (with its prefix, as it appears in the file), the shape found and the shape the family needs.
import { type Tensor, formatShape } from '../engine/tensor';
import type { MessageArg } from '../protocol/message';
import { MODEL_ERRORS, modelError } from './errors';

/** A dim that must equal this number, or null for "any size" (checked elsewhere). */
export type ShapeSpec = ReadonlyArray<number | null>;

export class ParamReader {
  constructor(
    private readonly tensors: Map<string, Tensor>,
    /** Prepended to every name, e.g. 'transformer.' or 'bert.' (may be ''). */
    readonly prefix: string,
    readonly fileName: string,
    /** Names the family in messages, e.g. 'a GPT-2 checkpoint'. */
    private readonly what: MessageArg,
  ) {}

  /** The name as it appears in the file. */
  fullName(name: string): string {
    return this.prefix + name;
  }

  has(name: string): boolean {
    return this.tensors.has(this.fullName(name));
  }

  /** The tensor `name`, checked against `shape`; throws when it is missing or shaped otherwise. */
  get(name: string, shape: ShapeSpec): Tensor {
    const t = this.tensors.get(this.fullName(name));
    if (!t) throw modelError(MODEL_ERRORS.tensorMissing, this.fileName, this.fullName(name), this.what, specText(shape));
    return this.checked(name, t, shape);
  }

  /** Size `axis` of tensor `name` (as read by get); throws naming the tensor when it has no such dim. */
  dim(name: string, t: Tensor, axis: number): number {
    const size = t.shape[axis];
    if (size === undefined) throw modelError(MODEL_ERRORS.tensorNoDim, this.fileName, this.fullName(name), formatShape(t.shape), axis, this.what);
    return size;
  }

  /** The first of `names` that exists (aliases such as LayerNorm.weight / LayerNorm.gamma), checked against `shape`. */
  getAny(names: readonly string[], shape: ShapeSpec): Tensor {
    for (const n of names) if (this.has(n)) return this.get(n, shape);
    const first = names[0];
    // A caller's bug, not the file's: every call site passes at least one name.
    if (first === undefined) throw new Error(`${this.fileName}: no tensor name given (shape ${specText(shape)})`);
    throw modelError(MODEL_ERRORS.tensorMissing, this.fileName, this.fullName(first), this.what, specText(shape));
  }

  /** The tensor `name` when present (checked against `shape`), else undefined. */
  optional(name: string, shape: ShapeSpec): Tensor | undefined {
    return this.has(name) ? this.get(name, shape) : undefined;
  }

  /** The first of `names` present (checked), else undefined. */
  optionalAny(names: readonly string[], shape: ShapeSpec): Tensor | undefined {
    for (const n of names) if (this.has(n)) return this.get(n, shape);
    return undefined;
  }

  private checked(name: string, t: Tensor, shape: ShapeSpec): Tensor {
    const ok = t.shape.length === shape.length && shape.every((d, i) => d === null || d === t.shape[i]);
    if (!ok) {
      throw modelError(MODEL_ERRORS.tensorShape, this.fileName, this.fullName(name), formatShape(t.shape), this.what, specText(shape));
    }
    return t;
  }
}

function specText(shape: ShapeSpec): string {
  return `[${shape.map((d) => (d === null ? '?' : String(d))).join(', ')}]`;
}

/** Number of elements over every tensor whose name starts with `prefix`. */
export function countParameters(tensors: Map<string, Tensor>, prefix = ''): number {
  let n = 0;
  for (const [name, t] of tensors) if (name.startsWith(prefix)) n += t.data.length;
  return n;
}

/** "124.4M", "35.2K", "812" */
export function formatCount(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}K`;
  return String(n);
}
