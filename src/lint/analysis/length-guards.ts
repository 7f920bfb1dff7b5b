// Whether a condition compares a query length with a key length (`if Tq == Tk:`, `q.size(2) == k.size(2)`):
// code under it runs only when the two agree, so a top-left causal mask there is right.
import { unparen, type PyNode } from '../syntax/tree';
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
