// Two additive mask planes that each hold a dtype's minimum, added together in that dtype: where both mask (a key in
// the future that is also padding), finfo(D).min + finfo(D).min is beyond D's range in every float dtype and becomes
// -inf, which a softmax row, its backward or a later `- max` turns into NaN. Read from what the code says: each operand
// followed back (names, shape ops, `triu`/`tril`, `masked_fill`) to a tensor filled with `torch.finfo(D).min` and made
// in the same D (`torch.full(..., floor, dtype=D)`, `torch.where(pad, tensor(floor, dtype=D), ...)`,
// `(1.0 - keep.to(D)) * floor`); a sum clamped back to the floor (`(a + b).clamp(min=floor)`) is the correct form, and
// a plane of another dtype, or one whose dtype the code does not state, says nothing.
import type { Evaluator } from './evaluator';
import type { Ctx } from './facts';
import { liveInCtx } from './flags';
import { childByField, enclosingFunction, namedChildren, text, unparen, walk, type PyNode } from '../syntax/tree';

export interface SummedFloors {
  /** The `a + b` node. */
  readonly node: PyNode;
  readonly left: PyNode;
  readonly right: PyNode;
  /** The dtype both planes are made in and whose minimum they hold (its source text). */
  readonly dtype: string;
  /** The context of the function holding the sum. */
  readonly ctx: Ctx;
}

const MAX_DEPTH = 12;
/** Methods that keep a plane's values (and dtype). */
const SAME_VALUES = new Set(['unsqueeze', 'expand', 'expand_as', 'contiguous', 'view', 'reshape', 'repeat', 'clone', 'triu', 'tril', 'to', 'squeeze']);

/** The `a + b` sums of the file whose operands are both planes of one dtype's minimum, not clamped back. */
export function summedFloors(ev: Evaluator): SummedFloors[] {
  if (!ev.tree.source.includes('finfo')) return [];
  const out: SummedFloors[] = [];
  // The planes and the floor they hold are built where they are added: only functions that name finfo are read.
  const namesFinfo = new Map<number, boolean>();
  walk(ev.tree.root, (n) => {
    if (n.type !== 'binary_operator' || opOf(ev, n) !== '+') return;
    const left = childByField(n, 'left');
    const right = childByField(n, 'right');
    if (!left || !right) return;
    const fn = enclosingFunction(n, true);
    const key = fn?.id ?? -1;
    let named = namesFinfo.get(key);
    if (named === undefined) namesFinfo.set(key, (named = fn ? ev.tree.source.slice(fn.start, fn.end).includes('finfo') : true));
    if (!named) return;
    const scope = (fn ? ev.sr.scopeOfNode.get(fn.id) : undefined) ?? ev.sr.module;
    const ctx = ev.defaultCtx(scope);
    const a = planeOf(ev, left, ctx, 0);
    if (!a) return;
    const b = planeOf(ev, right, ctx, 0);
    if (!b || a !== b || clamped(ev, n)) return;
    out.push({ node: n, left, right, dtype: a, ctx });
  });
  return out;
}

function opOf(ev: Evaluator, n: PyNode): string {
  const l = childByField(n, 'left');
  const r = childByField(n, 'right');
  return l && r ? ev.tree.source.slice(l.end, r.start).trim() : '';
}

/** `(a + b).clamp(min=floor)`, `.clamp_min(...)`, `torch.clamp(a + b, min=...)`, `torch.maximum(a + b, ...)`. */
function clamped(ev: Evaluator, n: PyNode): boolean {
  let u = n;
  while (u.parent?.type === 'parenthesized_expression') u = u.parent;
  const p = u.parent;
  if (p?.type === 'attribute' && childByField(p, 'object')?.id === u.id)
    return /^(clamp|clamp_|clamp_min|clip|nan_to_num)$/.test(text(ev.tree, childByField(p, 'attribute') ?? p));
  const call = p?.type === 'argument_list' ? p.parent : undefined;
  const fn = call?.type === 'call' ? childByField(call, 'function') : undefined;
  return !!fn && /(^|\.)(clamp|clamp_min|clip|maximum|nan_to_num)$/.test(text(ev.tree, fn));
}

/** The reaching assignments' values of a name (undefined unless every definition is a plain assignment). */
function assignedValues(ev: Evaluator, name: PyNode, ctx: Ctx): PyNode[] | undefined {
  const defs = liveInCtx(ev, ev.resolve(name, text(ev.tree, name)) ?? [], ctx);
  if (defs.length === 0 || defs.some((d) => d.kind !== 'assign' || !d.value)) return undefined;
  return defs.map((d) => d.value!);
}

/** All the same text, or undefined. */
function agree(xs: readonly (string | undefined)[]): string | undefined {
  const first = xs[0];
  return first !== undefined && xs.every((x) => x === first) ? first : undefined;
}

function methodCall(ev: Evaluator, n: PyNode): { recv: PyNode; name: string; args: PyNode[] } | undefined {
  if (n.type !== 'call') return undefined;
  const f = childByField(n, 'function');
  if (f?.type !== 'attribute') return undefined;
  const recv = childByField(f, 'object');
  const attr = childByField(f, 'attribute');
  if (!recv || !attr) return undefined;
  return { recv, name: text(ev.tree, attr), args: namedChildren(childByField(n, 'arguments') ?? n) };
}

function keyword(ev: Evaluator, args: readonly PyNode[], name: string): PyNode | undefined {
  for (const a of args) if (a.type === 'keyword_argument' && text(ev.tree, childByField(a, 'name') ?? a) === name) return childByField(a, 'value');
  return undefined;
}

/** `torch.finfo(D).min` (through names, and either arm of a conditional whose other arm is a literal): D's text. */
function floorOf(ev: Evaluator, node: PyNode, ctx: Ctx, depth: number, bound?: Bound): string | undefined {
  const n = unparen(node);
  if (depth > MAX_DEPTH) return undefined;
  if (n.type === 'identifier') {
    const arg = boundArgument(ev, n, ctx, bound);
    if (arg) return floorOf(ev, arg.node, arg.ctx, depth + 1, arg.bound);
    const values = assignedValues(ev, n, ctx);
    return values ? agree(values.map((v) => floorOf(ev, v, ctx, depth + 1, bound))) : undefined;
  }
  if (n.type === 'conditional_expression') {
    const [a, , b] = namedChildren(n);
    const fa = a && floorOf(ev, a, ctx, depth + 1, bound);
    const fb = b && floorOf(ev, b, ctx, depth + 1, bound);
    const literal = (x: PyNode | undefined): boolean => !!x && /^-?\s*[\d.e+]+$/.test(text(ev.tree, unparen(x)).trim());
    return fa && (fb === fa || literal(b)) ? fa : fb && literal(a) ? fb : undefined;
  }
  if (n.type === 'attribute' && text(ev.tree, childByField(n, 'attribute') ?? n) === 'min') {
    const obj = unparen(childByField(n, 'object') ?? n);
    const fn = obj.type === 'call' ? childByField(obj, 'function') : undefined;
    if (!fn || !/(^|\.)finfo$/.test(text(ev.tree, fn))) return undefined;
    const arg = namedChildren(childByField(obj, 'arguments') ?? obj)[0];
    return arg && arg.type !== 'keyword_argument' ? text(ev.tree, arg).replace(/\s+/g, '') : undefined;
  }
  return undefined;
}

/** A scalar or tensor holding the floor in D: the floor itself, `torch.tensor(floor, dtype=D)`, `torch.full((), floor, dtype=D)`. */
function floorValue(ev: Evaluator, node: PyNode, ctx: Ctx, depth: number, bound?: Bound): string | undefined {
  const n = unparen(node);
  if (n.type === 'call') {
    const fn = text(ev.tree, childByField(n, 'function') ?? n);
    const args = namedChildren(childByField(n, 'arguments') ?? n);
    const positional = args.filter((a) => a.type !== 'keyword_argument');
    const value = /(^|\.)tensor$/.test(fn) ? positional[0] : /(^|\.)full$/.test(fn) ? positional[1] : undefined;
    const dtype = keyword(ev, args, 'dtype');
    const d = value && dtype ? floorOf(ev, value, ctx, depth + 1, bound) : undefined;
    return d && d === text(ev.tree, dtype!).replace(/\s+/g, '') ? d : undefined;
  }
  return floorOf(ev, n, ctx, depth + 1, bound);
}

/** A tensor whose masked entries are `finfo(D).min` and whose dtype is D: D's text. */
export function planeOf(ev: Evaluator, node: PyNode, ctx: Ctx, depth: number, bound?: Bound): string | undefined {
  const n = unparen(node);
  if (depth > MAX_DEPTH) return undefined;
  if (n.type === 'identifier') {
    const arg = boundArgument(ev, n, ctx, bound);
    if (arg) return planeOf(ev, arg.node, arg.ctx, depth + 1, arg.bound);
    const values = assignedValues(ev, n, ctx);
    return values ? agree(values.map((v) => planeOf(ev, v, ctx, depth + 1, bound))) : undefined;
  }
  // A method of the tensor, not a function of the library (`torch.triu(x, 1)`, read below).
  const m0 = methodCall(ev, n);
  const m = m0 && !/^(torch|np|numpy)$/.test(text(ev.tree, m0.recv)) ? m0 : undefined;
  if (m && SAME_VALUES.has(m.name)) {
    // `.to(torch.float32)` and the like change the dtype; `.to(D)` of the plane's own D, or a device, do not.
    const d = planeOf(ev, m.recv, ctx, depth + 1, bound);
    if (m.name === 'to' && d && m.args.some((a) => /(float|half|bfloat|double)/.test(text(ev.tree, a)) && text(ev.tree, a).replace(/\s+/g, '') !== d))
      return undefined;
    return d;
  }
  if (m && m.name === 'masked_fill') {
    const d = planeOf(ev, m.recv, ctx, depth + 1, bound);
    const fill = m.args[1];
    return d && fill && floorValue(ev, fill, ctx, 0, bound) === d ? d : undefined;
  }
  if (n.type === 'call') {
    const fn = text(ev.tree, childByField(n, 'function') ?? n);
    const args = namedChildren(childByField(n, 'arguments') ?? n);
    const positional = args.filter((a) => a.type !== 'keyword_argument');
    if (/^torch\.(triu|tril)$/.test(fn) && positional[0]) return planeOf(ev, positional[0], ctx, depth + 1, bound);
    if (/^torch\.full$/.test(fn) && positional[1]) {
      const dtype = keyword(ev, args, 'dtype');
      const d = dtype ? floorOf(ev, positional[1], ctx, 0, bound) : undefined;
      return d && d === text(ev.tree, dtype!).replace(/\s+/g, '') ? d : undefined;
    }
    const [, chosen, other] = positional;
    if (/^torch\.where$/.test(fn) && positional.length === 3 && chosen && other) {
      return floorValue(ev, chosen, ctx, 0, bound) ?? floorValue(ev, other, ctx, 0, bound);
    }
    // A function of this file handing back a plane (`causal = cut_future(causal)` with `def cut_future(m): return
    // torch.triu(m, diagonal=1)`): its return read with its parameters bound to this call's arguments, as if written here.
    const helper = helperReturn(ev, n, ctx, bound);
    return helper ? planeOf(ev, helper.ret, helper.ctx, depth + 1, helper.bound) : undefined;
  }
  // `plane[None, None]`, `plane[:, None, :]`: new length-1 axes and whole slices keep the values.
  if (n.type === 'subscript') {
    const subs = namedChildren(n).filter((c) => c.field === 'subscript');
    const whole = (c: PyNode): boolean => c.type === 'none' || c.type === 'ellipsis' || (c.type === 'slice' && namedChildren(c).length === 0);
    const value = childByField(n, 'value');
    return value && subs.length > 0 && subs.every(whole) ? planeOf(ev, value, ctx, depth + 1, bound) : undefined;
  }
  if (n.type === 'binary_operator' && opOf(ev, n) === '*') {
    // `(1.0 - keep.to(D)) * floor`: a 0/1 mask made in D times D's minimum.
    const l = childByField(n, 'left');
    const r = childByField(n, 'right');
    if (!l || !r) return undefined;
    for (const [mask, floor] of [
      [l, r],
      [r, l],
    ] as const) {
      const d = floorOf(ev, floor, ctx, 0, bound);
      if (d && castTo(ev, mask) === d) return d;
    }
  }
  return undefined;
}

/** A helper's parameters bound to the arguments of the call being read (their nodes and the caller's context). */
type Bound = ReadonlyMap<string, { readonly node: PyNode; readonly ctx: Ctx; readonly bound?: Bound }>;

/** The argument bound to `name` when it is a parameter of the helper being read (its only definition). */
function boundArgument(ev: Evaluator, name: PyNode, ctx: Ctx, bound: Bound | undefined): { node: PyNode; ctx: Ctx; bound?: Bound } | undefined {
  if (!bound) return undefined;
  const defs = liveInCtx(ev, ev.resolve(name, text(ev.tree, name)) ?? [], ctx);
  return defs.length === 1 && defs[0]?.kind === 'param' ? bound.get(defs[0].name) : undefined;
}

/**
 * `helper(a, b=c)` of a module-level function of this file with one return statement and plain parameters: its return
 * expression, in its own context, with each parameter bound to the argument passed (undefined when any is missing).
 */
function helperReturn(ev: Evaluator, call: PyNode, ctx: Ctx, bound?: Bound): { ret: PyNode; ctx: Ctx; bound: Bound } | undefined {
  const fn = childByField(call, 'function');
  if (fn?.type !== 'identifier') return undefined;
  const f = ev.eval(fn, ctx);
  const scope = f.kind === 'function' ? f.fn?.scope : undefined;
  if (!scope || !ev.owns(scope) || scope.parent !== ev.sr.module || scope.returns.length !== 1) return undefined;
  const ret = scope.returns[0];
  if (!ret) return undefined;
  const args = ev.argsOf(call);
  if (args.hasSplat) return undefined;
  const out = new Map<string, { node: PyNode; ctx: Ctx; bound?: Bound }>();
  for (const p of scope.params) {
    if (p.kind !== 'positional') return undefined;
    const a = args.keywords.get(p.name)?.value ?? (p.index !== undefined ? args.positional[p.index] : undefined);
    if (!a) return undefined;
    out.set(p.name, { node: a, ctx, ...(bound ? { bound } : {}) });
  }
  return { ret, ctx: ev.defaultCtx(scope), bound: out };
}

/** The dtype a 0/1 mask expression is cast to (`keep.to(D)`, `(1.0 - keep.to(D))`), by its text. */
function castTo(ev: Evaluator, node: PyNode): string | undefined {
  let found: string | undefined;
  walk(unparen(node), (c) => {
    const m = methodCall(ev, c);
    const only = m && (m.name === 'to' || m.name === 'type') && m.args.length === 1 ? m.args[0] : undefined;
    if (only && only.type !== 'keyword_argument') found ??= text(ev.tree, only).replace(/\s+/g, '');
  });
  return found;
}
