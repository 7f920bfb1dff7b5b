// The flag lattice: what the evaluator knows of a boolean. A flag is True, False, unknown, or "whatever the
// caller passes for parameter X" (a parameter read with no caller in view, whose default is no evidence). Known
// values come from literals, `not` / `and` / `or` of known ones, `x is None` / `x is not None` of a value known to be
// None or known not to be (so `exists(mask)` is known where a caller passes None or a tensor), and flags bound at a
// call site (`Attend(causal=True)` read back as `self.causal` in the instance's methods). A definition made in an
// `if` arm whose condition is known to be False in a context (or settled by an earlier `assert x is None` /
// `assert not x` in the function) does not reach a later read in that context.
import { childByField, namedChildren, unparen, type PyNode } from '../syntax/tree';
import type { Ctx } from './facts';
import type { Def } from './scopes';
import type { AValue } from './values';

/** What this module needs of the evaluator. */
export interface FlagHost {
  eval(node: PyNode | undefined, ctx: Ctx): AValue;
  text(node: PyNode): string;
  /** Whether the file defines `name` between two offsets (an assert's fact holds only until then). */
  readonly file?: { definedBetween(name: string, after: number, before: number): boolean };
}

const UNKNOWN_BOOL: AValue = Object.freeze({ kind: 'bool' });

/** `True` / `False` as written. */
export function boolLiteral(node: PyNode, truth: boolean): AValue {
  return { kind: 'bool', truth, setAt: node };
}

/** Whether a value is certainly truthy / falsy (undefined: not known). */
export function truthOf(v: AValue): boolean | undefined {
  if (v.kind === 'none') return false;
  if (v.kind === 'number' && v.num === 0 && !v.maybeNone) return false;
  if (v.kind === 'bool') return v.maybeNone ? (v.truth === false ? false : undefined) : v.truth;
  return undefined;
}

/** `not x`. */
export function notValue(v: AValue): AValue {
  const t = truthOf(v);
  return t === undefined ? UNKNOWN_BOOL : { kind: 'bool', truth: !t, ...(v.setAt ? { setAt: v.setAt } : {}) };
}

/**
 * `a and b` / `a or b` when the left operand's truth is known (Python's short circuit: the value of the operand
 * that decides), or the right one decides the truth whatever the left (`x and False`, `x or True`). Undefined:
 * not decided here (the caller joins the operands as before, a boolean with no truth).
 */
export function boolOp(op: 'and' | 'or', l: AValue, r: AValue): AValue | undefined {
  const lt = truthOf(l);
  if (lt !== undefined) {
    if (op === 'and') return lt ? r : l;
    return lt ? l : r;
  }
  const rt = truthOf(r);
  if (op === 'and' && rt === false && r.kind === 'bool') return { kind: 'bool', truth: false, ...(r.setAt ? { setAt: r.setAt } : {}) };
  if (op === 'or' && rt === true && r.kind === 'bool') return { kind: 'bool', truth: true, ...(r.setAt ? { setAt: r.setAt } : {}) };
  return undefined;
}

/** The result of `and`/`or` that nothing decided: a boolean of unknown truth when either side is a boolean. */
export function undecided(v: AValue): AValue {
  if (v.kind !== 'bool' || (v.truth === undefined && !v.setAt)) return v;
  const { truth: _truth, setAt: _setAt, ...rest } = v;
  return rest;
}

/** Kinds of value that are never None unless the value says it may be. */
const NEVER_NONE = new Set<AValue['kind']>(['tensor', 'number', 'string', 'bool', 'tuple', 'object', 'layer', 'function', 'class', 'dtype', 'finfo']);

/** A value certainly not None: computed here, or passed by a caller in view, not a parameter of unknown callers. */
export function notNone(v: AValue): boolean {
  return NEVER_NONE.has(v.kind) && !v.maybeNone && !v.unbound;
}

/** `x is None` (negated: `x is not None`) of the value of x: known when x is None or certainly not None. */
export function noneTest(v: AValue, negated: boolean): AValue {
  if (v.kind === 'none') return { kind: 'bool', truth: !negated };
  if (notNone(v)) return { kind: 'bool', truth: negated };
  return UNKNOWN_BOOL;
}

/** The operand tested by `x is None` / `x is not None`, and which of the two it is; undefined for other comparisons. */
export function noneComparison(host: FlagHost, node: PyNode): { operand: PyNode; negated: boolean } | undefined {
  const operands = namedChildren(node);
  const [left, right] = operands;
  if (operands.length !== 2 || !left || !right || unparen(right).type !== 'none') return undefined;
  const ops = node.children.filter((c) => !c.named).map((c) => host.text(c));
  const op = ops.join(' ');
  if (op === 'is') return { operand: left, negated: false };
  if (op === 'is not') return { operand: left, negated: true };
  return undefined;
}

/** `yes if cond else no` where the condition's truth is known: the branch that runs. */
export function conditionalBranch(host: FlagHost, node: PyNode, ctx: Ctx): PyNode | undefined {
  const [yes, cond, no] = namedChildren(node);
  if (!yes || !cond || !no) return undefined;
  const t = truthOf(host.eval(cond, ctx));
  return t === undefined ? undefined : t ? yes : no;
}

/**
 * Whether the `if`/`elif`/`else` arms around a definition certainly do not run in this context: an arm whose own
 * condition is known False, or an `elif`/`else` after a condition known True.
 */
function deadInCtx(host: FlagHost, def: Def, ctx: Ctx): boolean {
  return armDeadInCtx(host, def.target, ctx);
}

/** Whether the `if`/`elif`/`else` arms around a statement (a definition, a `return`) certainly do not run here. */
export function armDeadInCtx(host: FlagHost, node: PyNode, ctx: Ctx): boolean {
  let child: PyNode = node;
  for (let p = node.parent; p; child = p, p = p.parent) {
    if (p.type === 'function_definition' || p.type === 'class_definition' || p.type === 'module' || p.type === 'lambda') return false;
    let ifNode: PyNode | undefined;
    let arm: PyNode | undefined;
    if ((p.type === 'if_statement' || p.type === 'elif_clause') && child.field === 'consequence') {
      ifNode = p.type === 'if_statement' ? p : (p.parent ?? undefined);
      arm = p;
    } else if (p.type === 'else_clause' && p.parent?.type === 'if_statement') {
      ifNode = p.parent;
      arm = p;
    }
    if (!ifNode || !arm) continue;
    const arms = [ifNode, ...ifNode.children.filter((c) => c.type === 'elif_clause' || c.type === 'else_clause')];
    for (const a of arms) {
      const cond = a.type === 'else_clause' ? undefined : childByField(a, 'condition');
      const t = cond ? (truthOf(host.eval(cond, ctx)) ?? assertedTruth(host, cond, ifNode)) : undefined;
      if (a === arm) {
        if (t === false) return true;
        break;
      }
      if (t === true) return true;
    }
  }
  return false;
}

/** A name, and whether it is known None (`x is None`) or known falsy (`not x`); undefined for other forms. */
function nameTest(host: FlagHost, cond: PyNode): { name: string; none: boolean; truth: boolean } | undefined {
  let u = unparen(cond);
  let negated = false;
  if (u.type === 'not_operator') {
    const arg = childByField(u, 'argument');
    if (!arg) return undefined;
    u = unparen(arg);
    negated = true;
  }
  if (u.type === 'identifier') return { name: host.text(u), none: false, truth: !negated };
  if (u.type !== 'comparison_operator' || negated) return undefined;
  const test = noneComparison(host, u);
  const operand = test ? unparen(test.operand) : undefined;
  if (!test || operand?.type !== 'identifier') return undefined;
  return { name: host.text(operand), none: true, truth: test.negated };
}

/**
 * The truth of an `if` condition on a name that an earlier `assert` in the function settles: after
 * `assert past_key_value is None` (or `assert not use_cache`), `if past_key_value is not None:` (or `if use_cache:`)
 * is False; the assert raises otherwise. Only asserts that run before the `if` on every path (earlier statements of
 * the blocks around it) and only while nothing assigns the name again in between.
 */
function assertedTruth(host: FlagHost, cond: PyNode, ifNode: PyNode): boolean | undefined {
  const tested = nameTest(host, cond);
  if (!tested || !host.file) return undefined;
  let child: PyNode = ifNode;
  for (let p = ifNode.parent; p; child = p, p = p.parent) {
    if (p.type === 'function_definition' || p.type === 'class_definition' || p.type === 'module' || p.type === 'lambda') return undefined;
    if (p.type !== 'block') continue;
    for (const stmt of namedChildren(p)) {
      if (stmt.start >= child.start) break;
      if (stmt.type !== 'assert_statement') continue;
      const [claim] = namedChildren(stmt);
      const asserted = claim ? nameTest(host, claim) : undefined;
      // `assert x is None` says the name is None (so falsy too); `assert not x` says it is falsy, not that it is None.
      if (!asserted || asserted.name !== tested.name || asserted.truth || (tested.none && !asserted.none)) continue;
      if (host.file.definedBetween(tested.name, stmt.end, ifNode.start)) continue;
      return tested.truth ? false : true;
    }
  }
  return undefined;
}

/** The definitions that can reach a read in this context (all of them when none can: never an empty list). */
export function liveInCtx(host: FlagHost, defs: readonly Def[], ctx: Ctx): readonly Def[] {
  if (defs.length < 2) return defs;
  const live = defs.filter((d) => !deadInCtx(host, d, ctx));
  return live.length > 0 ? live : defs;
}

/** The statement a node belongs to: the ancestor (or the node) whose parent is a block. */
function statementOf(n: PyNode): PyNode | undefined {
  for (let c: PyNode | null = n; c; c = c.parent) {
    if (c.parent?.type === 'block') return c;
    if (c.type === 'function_definition' || c.type === 'class_definition' || c.type === 'module') return undefined;
  }
  return undefined;
}

/** The `if` statement and arm whose own block holds `stmt` directly, when that arm certainly runs in this context. */
function armRunningInCtx(host: FlagHost, stmt: PyNode, ctx: Ctx): PyNode | undefined {
  const block = stmt.parent;
  const arm = block?.parent;
  if (!block || !arm) return undefined;
  const ifNode = arm.type === 'if_statement' ? arm : arm.type === 'elif_clause' || arm.type === 'else_clause' ? arm.parent : undefined;
  if (ifNode?.type !== 'if_statement') return undefined;
  if (block !== (childByField(arm, 'consequence') ?? childByField(arm, 'body'))) return undefined;
  const arms = [ifNode, ...ifNode.children.filter((c) => c.type === 'elif_clause' || c.type === 'else_clause')];
  for (const a of arms) {
    const cond = a.type === 'else_clause' ? undefined : childByField(a, 'condition');
    const t = cond ? truthOf(host.eval(cond, ctx)) : true;
    if (a === arm) return t === true ? ifNode : undefined;
    if (t !== false) return undefined;
  }
  return undefined;
}

/**
 * Definitions an `if` arm that certainly runs in this context overwrites before the read: `att = bmm(q, y)`, then
 * `if self.softmax: att = softmax(att)` with `self.softmax` known True here (the module built with its default),
 * read after the `if`: only the arm's definition reaches the read. The arm's definition is a statement of the arm's own
 * block (it runs whenever the arm does); the overwritten one is a statement before the `if` in the same block, or a
 * parameter when the `if` is a statement of the function's body.
 */
export function overwrittenInCtx(host: FlagHost, defs: readonly Def[], read: PyNode, ctx: Ctx): readonly Def[] {
  if (defs.length < 2) return defs;
  let out = defs;
  for (const d of defs) {
    if (d.kind !== 'assign' && d.kind !== 'aug') continue;
    const stmt = statementOf(d.target);
    const ifNode = stmt ? armRunningInCtx(host, stmt, ctx) : undefined;
    if (!ifNode || read.start < ifNode.end) continue;
    const body = ifNode.parent;
    const fnBody = body?.parent?.type === 'function_definition' ? body : undefined;
    out = out.filter((o) => {
      if (o === d) return true;
      if (o.kind === 'param') return !(fnBody && o.scope.node === fnBody.parent);
      const s = statementOf(o.target);
      return !(s && s.parent === body && s.end <= ifNode.start);
    });
  }
  return out.length > 0 ? out : defs;
}
