// Which definitions can hold together on one path. A join keeps every reaching definition of a variable,
// so `is_causal = True` set inside `if past is not None:` and keys concatenated with the cache in the same
// branch both reach the call after it; what the join forgets is that they reach it together (the buggy
// form) or on different paths (`is_causal = False` in the cache branch, True otherwise). Definitions carry
// the `if` arms they sit in (scopes.ts: Def.guard); two definitions are on one path unless they sit in
// different arms of one `if`, or one of them was overwritten in the arm the other sits in.
import { childByField, unparen, type PyNode } from '../syntax/tree';
import type { Evaluator } from './evaluator';
import type { SdpaSite } from './facts';
import type { Def, GuardStep } from './scopes';

const sameStep = (a: GuardStep, b: GuardStep): boolean => a.branch === b.branch && a.arm === b.arm;

/** Whether `a` and `b` sit in different arms of the same `if` (they never both run). */
export function exclusive(a: Def, b: Def): boolean {
  for (const x of a.guard ?? []) for (const y of b.guard ?? []) if (x.branch === y.branch && x.arm !== y.arm) return true;
  return false;
}

/**
 * Whether `b` can still hold where `a` holds: false when another definition of b's variable (`bAll`, every
 * definition reaching the point) sits in an arm that `a` sits in and `b` does not, so on a's path it replaced b.
 */
function survives(a: Def, b: Def, bAll: readonly Def[]): boolean {
  for (const step of a.guard ?? []) {
    if ((b.guard ?? []).some((s) => s.branch === step.branch)) continue;
    // Overwritten at the same depth of nesting as a's arm (not under a further `if` inside it).
    const depth = (a.guard ?? []).indexOf(step);
    if (bAll.some((o) => o !== b && o.guard !== undefined && o.guard.length === depth + 1 && sameStep(o.guard[depth], step))) return false;
  }
  return true;
}

/**
 * Whether definitions `a` (of one variable, reaching a point with `aAll`) and `b` (of another, with `bAll`)
 * can both be the reaching values on one path to that point.
 */
export function reachTogether(a: Def, aAll: readonly Def[], b: Def, bAll: readonly Def[]): boolean {
  if (a.scope !== b.scope) return true;
  if (exclusive(a, b)) return false;
  return survives(a, b, bAll) && survives(b, a, aAll);
}

/** The value expression of an argument node (a `name=value` keyword or the value itself), unparenthesised. */
function argValue(node: PyNode): PyNode | undefined {
  const v = node.type === 'keyword_argument' ? childByField(node, 'value') : node;
  return v ? unparen(v) : undefined;
}

/**
 * `is_causal=flag` where `flag = True` is set on a path on which the keys `k` were concatenated with a KV
 * cache (`if past is not None: k = torch.cat([past[0], k]); is_causal = True`). Both must be plain names
 * whose definitions are in view.
 */
export function causalFlagTrueWithCachedKeys(ev: Evaluator, site: SdpaSite): boolean {
  const flag = site.causalNode ? argValue(site.causalNode) : undefined;
  const keys = site.kNode ? argValue(site.kNode) : undefined;
  if (!flag || !keys || keys.type !== 'identifier') return false;
  let flagDefs: readonly Def[] =
    flag.type === 'identifier' ? (ev.resolve(flag, ev.text(flag)) ?? []) : flag.type === 'attribute' ? (ev.sr.uses[flag.id] ?? []) : [];
  let keyDefs: readonly Def[] = ev.resolve(keys, ev.text(keys)) ?? [];
  // `self.flag` set by the method that called this one, and keys passed in by it: judged at that call.
  const call = site.ctx.callSite;
  const calledWith = call ? ev.sr.selfAttrsAtCall.get(call.id) : undefined;
  if (flagDefs.length === 0 && flag.type === 'attribute' && calledWith && keyDefs.length === 1 && keyDefs[0].kind === 'param') {
    const name = ev.text(flag).replace(/^\w+\./, 'self.');
    const param = keyDefs[0].param;
    const args = ev.argsOf(call!);
    const positional = param?.index !== undefined ? args.positional[param.index - (site.ctx.scope.selfName ? 1 : 0)] : undefined;
    const arg = param ? (args.keywords.get(param.name)?.value ?? positional) : undefined;
    const argNode = arg ? unparen(arg) : undefined;
    if (!argNode || argNode.type !== 'identifier' || !flag.children.some((c) => c.field === 'object' && ev.text(c) === site.ctx.scope.selfName)) return false;
    flagDefs = calledWith.get(name) ?? [];
    keyDefs = ev.resolve(argNode, ev.text(argNode)) ?? [];
  }
  const trueDefs = flagDefs.filter(
    (d) => d.value !== undefined && d.path.length === 0 && (d.kind === 'assign' || d.kind === 'walrus') && ev.text(unparen(d.value)) === 'True',
  );
  if (trueDefs.length === 0) return false;
  const cachedKeys = keyDefs.filter((d) => d.kind !== 'param' && ev.evalDef(d, site.ctx).fromCache === true);
  return trueDefs.some((t) => cachedKeys.some((k) => reachTogether(t, flagDefs, k, keyDefs)));
}

/** `.size(…)`, `.shape[…]`, `len(…)`: a length read off a tensor or sequence. */
const LENGTH_READ = /\.size\(|\.shape\b|\blen\(/;

/**
 * A condition `a == b` (possibly among others joined by `and`/`or`) between two lengths: names whose every
 * definition reads a size off a tensor (`Tq = q.size(2)`), or such reads written in place. Code under it runs
 * only when query and key lengths agree.
 */
export function comparesLengths(ev: Evaluator, cond: PyNode): boolean {
  const isLength = (n: PyNode): boolean => {
    const u = unparen(n);
    if (u.type === 'identifier') {
      const defs = ev.resolve(u, ev.text(u)) ?? [];
      return defs.length > 0 && defs.every((d) => d.value !== undefined && LENGTH_READ.test(ev.text(d.value)));
    }
    return LENGTH_READ.test(ev.text(u));
  };
  const stack = [unparen(cond)];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'boolean_operator') {
      for (const c of n.children) if (c.named) stack.push(unparen(c));
    } else if (n.type === 'comparison_operator') {
      const parts = n.children.filter((c) => c.named);
      const ops = n.children.filter((c) => !c.named).map((c) => c.type);
      if (parts.length === 2 && ops.length === 1 && ops[0] === '==' && parts.every(isLength)) return true;
    }
  }
  return false;
}
