// Whether a condition compares a query length with a key length (`if Tq == Tk:`, `q.size(2) == k.size(2)`):
// code under it runs only when the two agree, so a top-left causal mask there is right.
import { childByField, namedChildren, unparen, type PyNode } from '../syntax/tree';
import type { Evaluator } from './evaluator';

/** `.size(…)`, `.shape[…]`, `len(…)`: a length read off a tensor or sequence. */
const LENGTH_READ = /\.size\(|\.shape\b|\blen\(/;

/**
 * A condition `a == b` (possibly among others joined by `and`/`or`) between two lengths: names whose every
 * definition reads a size off a tensor (`Tq = q.size(2)`), or such reads written in place. Code under it runs
 * only when query and key lengths agree.
 */
export function comparesLengths(ev: Evaluator, cond: PyNode): boolean {
  return someComparison(cond, (ops, parts) => parts.length === 2 && ops.length === 1 && ops[0] === '==' && parts.every((n) => isLength(ev, n)));
}

/**
 * A condition that orders or equates two lengths (`k.shape[1] > q.shape[1] > 1`, `q_len == 1` beside a key length,
 * `Tq < Tk`): an earlier arm of an if/elif chain that tests it takes some length cases away from the later arms.
 */
export function ordersLengths(ev: Evaluator, cond: PyNode): boolean {
  return someComparison(cond, (ops, parts) => ops.every((o) => ORDER_OPS.has(o)) && parts.filter((n) => isLength(ev, n)).length >= 2);
}

const ORDER_OPS = new Set(['==', '<', '>', '<=', '>=']);

function isLength(ev: Evaluator, n: PyNode): boolean {
  const u = unparen(n);
  if (u.type === 'identifier') {
    const defs = ev.resolve(u, ev.text(u)) ?? [];
    return defs.length > 0 && defs.every((d) => d.value !== undefined && LENGTH_READ.test(ev.text(d.value)));
  }
  return LENGTH_READ.test(ev.text(u));
}

function someComparison(cond: PyNode, test: (ops: readonly string[], parts: readonly PyNode[]) => boolean): boolean {
  const stack = [unparen(cond)];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'boolean_operator') {
      for (const c of n.children) if (c.named) stack.push(unparen(c));
    } else if (n.type === 'comparison_operator') {
      const parts = n.children.filter((c) => c.named);
      const ops = n.children.filter((c) => !c.named).map((c) => c.type);
      if (test(ops, parts)) return true;
    }
  }
  return false;
}

/**
 * Whether `cond` having the truth value `holds` proves the query and key lengths equal (no cached keys beyond the new
 * ones), for code in the arm it guards: a `==` of two lengths, or a zero test of the keys' length minus another length
 * (`past_len == 0`, `not past_len`, `past_len > 0` failing, with `past_len = k_len - q_len` and `k_len = k.shape[2]`
 * read off `keys`, the keys the guarded call attends to). Parts joined by `and` that hold, or by `or` that fail, count
 * one by one, also through a local name bound once to such a condition (`use_sdpa = self.training and past_len == 0`;
 * `if use_sdpa:`), and through `not`. A difference read off other tensors, a name bound more than once or a part of
 * an `or` that holds proves nothing.
 */
export function provesEqualLengths(ev: Evaluator, cond: PyNode, holds: boolean, keys: PyNode | undefined, depth = 0): boolean {
  const c = unparen(cond);
  if (depth > 4) return false;
  if (c.type === 'boolean_operator') {
    const op = c.children.find((ch) => !ch.named)?.type;
    if ((op === 'and' && holds) || (op === 'or' && !holds)) return namedChildren(c).some((p) => provesEqualLengths(ev, p, holds, keys, depth + 1));
    return false;
  }
  if (c.type === 'not_operator') {
    const arg = childByField(c, 'argument');
    return arg !== undefined && provesEqualLengths(ev, arg, !holds, keys, depth + 1);
  }
  if (c.type === 'identifier') {
    const only = onlyValue(ev, c);
    if (only && CONDITION_TYPES.has(unparen(only).type)) return provesEqualLengths(ev, only, holds, keys, depth + 1);
    // `if past_len:` failing: the difference is zero.
    return !holds && keysMinusLength(ev, c, keys);
  }
  if (c.type !== 'comparison_operator') return false;
  const parts = namedChildren(c).map(unparen);
  const ops = c.children.filter((ch) => !ch.named).map((ch) => ch.type);
  if (parts.length !== 2 || ops.length !== 1) return false;
  const [a, b] = parts as [PyNode, PyNode];
  const op = ops[0] ?? '';
  if (((op === '==' && holds) || (op === '!=' && !holds)) && isLength(ev, a) && isLength(ev, b)) return true;
  // The difference d (keys minus another length, never negative) compared with 0: zero when `d == 0` / `d <= 0` hold or
  // `d != 0` / `d > 0` fail (and the mirrored forms with 0 on the left).
  const d = isZero(ev, b) ? a : isZero(ev, a) ? b : undefined;
  if (!d || !keysMinusLength(ev, d, keys)) return false;
  const mirrored: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };
  const o = d === a ? op : (mirrored[op] ?? op);
  return holds ? o === '==' || o === '<=' : o === '!=' || o === '>';
}

const CONDITION_TYPES = new Set(['boolean_operator', 'comparison_operator', 'not_operator']);

function isZero(ev: Evaluator, n: PyNode): boolean {
  return n.type === 'integer' && ev.text(n) === '0';
}

/** The value of a name's one reaching definition (a plain assignment, not a tuple unpacking). */
function onlyValue(ev: Evaluator, n: PyNode): PyNode | undefined {
  const defs = ev.resolve(n, ev.text(n)) ?? [];
  const only = defs.length === 1 ? defs[0] : undefined;
  return only?.path.length === 0 ? only.value : undefined;
}

/** `k_len - q_len` (directly or as a name's one value) whose left side is a length read off `keys` and right side a length. */
function keysMinusLength(ev: Evaluator, n: PyNode, keys: PyNode | undefined): boolean {
  const u = unparen(n);
  const diff = u.type === 'identifier' ? onlyValue(ev, u) : u;
  if (!keys || diff?.type !== 'binary_operator' || diff.children.find((ch) => !ch.named)?.type !== '-') return false;
  const left = childByField(diff, 'left');
  const right = childByField(diff, 'right');
  return left !== undefined && right !== undefined && isLength(ev, right) && readsLengthOf(ev, left, keys);
}

/** A length read off the tensor `keys` names (`k.shape[2]`, `k.size(-2)`, or a name bound to one, also by unpacking `k.shape`). */
function readsLengthOf(ev: Evaluator, n: PyNode, keys: PyNode, depth = 0): boolean {
  const k = unparen(keys);
  if (k.type !== 'identifier' || depth > 1) return false;
  const u = unparen(n);
  if (u.type === 'identifier') {
    const defs = ev.resolve(u, ev.text(u)) ?? [];
    return defs.length > 0 && defs.every((d) => d.value !== undefined && readsLengthOf(ev, d.value, keys, depth + 1));
  }
  if (!LENGTH_READ.test(ev.text(u))) return false;
  let base: PyNode | undefined = u;
  while (base && base.type !== 'identifier')
    base =
      base.type === 'subscript'
        ? childByField(base, 'value')
        : base.type === 'call'
          ? childByField(base, 'function')
          : base.type === 'attribute'
            ? childByField(base, 'object')
            : undefined;
  if (!base) return false;
  const same = (x: PyNode) =>
    (ev.resolve(x, ev.text(x)) ?? [])
      .map((d) => d.id)
      .sort()
      .join(',');
  return ev.text(base) === ev.text(k) && same(base) !== '' && same(base) === same(k);
}

/**
 * Whether `cond` having the truth value `holds` proves more than one query for the code it guards: a token count
 * (isTokenCount: `q_len = q.size(2)`, `T` of `B, T, C = x.shape`, `x.shape[1]` in place) compared with 1 (`q_len > 1`,
 * `T != 1`, `seqlen >= 2` holding; `q_len == 1`, `T <= 1`, `T < 2` failing). Parts joined by `and` that hold, or by
 * `or` that fail, count one by one, and through `not`. Code that takes its causal path only for several queries
 * shows a design where several queries are the prompt (a single query is the decode step): whether a call with
 * several queries ever meets a filled cache (a chunked prefill) is not in view.
 */
export function provesSeveralQueries(ev: Evaluator, cond: PyNode, holds: boolean, depth = 0): boolean {
  const c = unparen(cond);
  if (depth > 4) return false;
  if (c.type === 'boolean_operator') {
    const op = c.children.find((ch) => !ch.named)?.type;
    if ((op === 'and' && holds) || (op === 'or' && !holds)) return namedChildren(c).some((p) => provesSeveralQueries(ev, p, holds, depth + 1));
    return false;
  }
  if (c.type === 'not_operator') {
    const arg = childByField(c, 'argument');
    return arg !== undefined && provesSeveralQueries(ev, arg, !holds, depth + 1);
  }
  if (c.type === 'identifier') {
    const only = onlyValue(ev, c);
    return !!only && CONDITION_TYPES.has(unparen(only).type) && provesSeveralQueries(ev, only, holds, depth + 1);
  }
  if (c.type !== 'comparison_operator') return false;
  const parts = namedChildren(c).map(unparen);
  const ops = c.children.filter((ch) => !ch.named).map((ch) => ch.type);
  if (parts.length !== 2 || ops.length !== 1) return false;
  const [a, b] = parts as [PyNode, PyNode];
  const num = (n: PyNode): number | undefined => (n.type === 'integer' ? Number(ev.text(n)) : undefined);
  const mirrored: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };
  const [len, bound, op] =
    num(b) !== undefined ? [a, num(b), ops[0] ?? ''] : num(a) !== undefined ? [b, num(a), mirrored[ops[0] ?? ''] ?? ops[0] ?? ''] : [undefined, undefined, ''];
  if (!len || bound === undefined || !isTokenCount(ev, len)) return false;
  // The operator that holds here: the written one, or its negation where the condition failed.
  const negated: Record<string, string> = { '==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };
  const o = holds ? op : (negated[op] ?? '');
  return (o === '>' && bound >= 1) || (o === '>=' && bound >= 2) || (o === '!=' && bound === 1);
}

/**
 * A length read off a tensor that can count tokens: not its first axis (the batch: `q.shape[0]`, `B` of
 * `B, T, C = x.shape`, `len(x)`) nor its last (the features: `x.size(-1)`), also through a name every definition of
 * which is such a read.
 */
function isTokenCount(ev: Evaluator, n: PyNode): boolean {
  const u = unparen(n);
  if (u.type === 'identifier') {
    const defs = ev.resolve(u, ev.text(u)) ?? [];
    return (
      defs.length > 0 &&
      defs.every((d) => {
        if (!d.value || !LENGTH_READ.test(ev.text(d.value))) return false;
        // `T, S = q.size(-2), k.size(-2)`: the item itself; `B, T, C = x.shape`: the first item is the batch.
        const whole = unparen(d.value);
        const item = d.path.length === 1 && (whole.type === 'expression_list' || whole.type === 'tuple') ? namedChildren(whole)[d.path[0] ?? -1] : undefined;
        if (item) return tokenAxisRead(ev.text(unparen(item)));
        if (d.path.length === 1) return d.path[0] !== 0 && /\.(shape|size\(\))\s*$/.test(ev.text(d.value).trim());
        return d.path.length === 0 && tokenAxisRead(ev.text(unparen(d.value)));
      })
    );
  }
  return tokenAxisRead(ev.text(u));
}

/** `x.shape[i]` / `x.size(i)` with i neither 0 nor -1. */
function tokenAxisRead(t: string): boolean {
  const m = /^[\w.]+(?:\.shape\[\s*(-?\d+)\s*\]|\.size\(\s*(-?\d+)\s*\))$/.exec(t.replace(/\s+/g, ''));
  const i = m ? Number(m[1] ?? m[2]) : undefined;
  return i !== undefined && i !== 0 && i !== -1;
}
