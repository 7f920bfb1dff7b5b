// What a call looks like to the transfer functions: its node, context, arguments and receiver, and the small
// helpers every handler uses to read them (an argument by name or position, its value, an integer literal).
import { argument, intLiteral, type CallArgs } from '../syntax/python';
import { childByField, enclosingFunction, unparen, type PyNode } from '../syntax/tree';
import type { Evaluator } from './evaluator';
import type { Ctx } from './facts';
import type { ClassInfo } from './scopes';
import { UNKNOWN, tensor, type AValue } from './values';

export interface Call {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly args: CallArgs;
  /** Method name, or the qualified name for module functions. */
  readonly name: string;
  readonly recv?: AValue;
  readonly recvNode?: PyNode;
  readonly calleeNode?: PyNode;
}

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function arg(c: Call, name: string, pos?: number): PyNode | undefined {
  return argument(c.args, name, pos);
}

export function val(ev: Evaluator, c: Call, node: PyNode | undefined): AValue {
  return node ? ev.eval(node, c.ctx) : UNKNOWN;
}

/** Integer value of an argument node: a literal, or a name bound to one. */
export function intOf(ev: Evaluator, c: Call, node: PyNode | undefined): number | undefined {
  if (!node) return undefined;
  const lit = intLiteral(ev.tree, node);
  if (lit !== undefined) return lit;
  const v = ev.eval(node, c.ctx);
  return v.kind === 'number' && v.num !== undefined && Number.isInteger(v.num) ? v.num : undefined;
}

/** Base identifier of an expression: `k.transpose(-2, -1)` → k, `self.key(x)` → key, `ctx[0]` → ctx. */
/**
 * The value a local holds (`t = np.sqrt(K)` then `/ t`): its one definition reaching `node`, a plain assignment;
 * undefined for anything else (not a name, defined twice, unpacked from a tuple, not resolved).
 */
export function heldValue(ev: Evaluator, node: PyNode): PyNode | undefined {
  const u = unparen(node);
  if (u.type !== 'identifier') return undefined;
  const defs = ev.resolve(u, ev.text(u)) ?? [];
  const only = defs.length === 1 ? defs[0] : undefined;
  return only?.path.length === 0 ? only.value : undefined;
}

/**
 * The class of the method whose call, in this file, made `ctx` (a module-level helper called as `wei = scores(q, k, C)`
 * from `Head.forward`); undefined for a default context or a call an importing file makes.
 */
export function callerClass(ev: Evaluator, ctx: Ctx): ClassInfo | undefined {
  const fn = ctx.callSite && !ctx.calledAt ? enclosingFunction(ctx.callSite) : undefined;
  return fn ? ev.sr.scopeOfNode.get(fn.id)?.ownerClass : undefined;
}

export function rootName(ev: Evaluator, node: PyNode | undefined): string | undefined {
  let n = node ? unparen(node) : undefined;
  while (n) {
    if (n.type === 'identifier') return ev.text(n);
    if (n.type === 'attribute') {
      const obj = childByField(n, 'object');
      const attr = childByField(n, 'attribute');
      if (obj && unparen(obj).type === 'identifier' && ev.text(unparen(obj)) === 'self' && attr) return ev.text(attr);
      n = obj ? unparen(obj) : undefined;
      continue;
    }
    if (n.type === 'call') {
      const f = childByField(n, 'function');
      if (f && f.type === 'attribute') {
        const obj = childByField(f, 'object');
        const objU = obj ? unparen(obj) : undefined;
        if (objU && objU.type === 'identifier' && ev.text(objU) === 'self') return ev.text(childByField(f, 'attribute')!);
        n = objU;
        continue;
      }
      return undefined;
    }
    if (n.type === 'subscript') {
      const v = childByField(n, 'value');
      n = v ? unparen(v) : undefined;
      continue;
    }
    return undefined;
  }
  return undefined;
}

export function mutable(v: AValue): Mutable<AValue> {
  return { ...v };
}

export function emptyArgs(): CallArgs {
  return { positional: [], keywords: new Map(), hasSplat: false, list: undefined };
}

export function tensorish(v: AValue): AValue {
  return v.kind === 'unknown' ? tensor() : v;
}

/**
 * Whether an argument or tuple element is starred although the grammar does not parse it as a list_splat:
 * `*x.shape` and `*x.shape[:2]` are an attribute / subscript whose innermost object is the list_splat `*x`.
 */
export function isStarred(el: PyNode): boolean {
  let cur: PyNode | undefined = el;
  while (cur && (cur.type === 'attribute' || cur.type === 'subscript' || cur.type === 'call')) {
    cur = childByField(cur, cur.type === 'attribute' ? 'object' : cur.type === 'subscript' ? 'value' : 'function');
  }
  return cur !== el && cur?.type === 'list_splat';
}
