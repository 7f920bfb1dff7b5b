// Masks computed and thrown away: an out-of-place masking op (`scores.masked_fill(m, -inf)`, `torch.where(m, scores,
// fill)`, `np.where`, `tf.where`, JAX's `scores.at[idx].set(fill)`, `scores + mask`, `scores.add(mask)`) written as
// a bare expression statement returns the masked scores and the statement drops them: the name still holds the
// unmasked scores. Reported only when the data flow shows that this matters: the name is read again, unchanged
// (no definition in between: an in-place `masked_fill_` or an assignment makes a new one), and a softmax of the
// file normalises scores formed at the same place along the very path the discarded op was applied to, with no
// mask added after it. Anything else (the name never read again, the scores masked later) is dead code, not an
// attention bug, and stays silent. In-place methods (`masked_fill_`, `add_`), `out=` forms, assignments, returns and
// calls as arguments never get here: they are no expression statement of an out-of-place op.
import { childByField, unparen, walk, type PyNode } from '../syntax/tree';
import { canonicalQualifiedName } from './apis';
import type { Evaluator } from './evaluator';
import { armDeadInCtx } from './flags';
import type { Ctx, SoftmaxSite } from './facts';
import type { Def } from './scopes';
import type { AValue, MaskInfo, MaskOp, PathOp } from './values';

export interface DiscardedMaskSite {
  /** The discarded expression (the whole call or operator expression of the statement). */
  readonly node: PyNode;
  /** The statement's expression as written (`node`, or it in parentheses): where an assignment would go. */
  readonly statement: PyNode;
  readonly ctx: Ctx;
  /** What it computes: the masked scores nobody keeps. */
  readonly value: AValue;
  /** The masking step it would have added. */
  readonly op: MaskOp;
  /** The mask it would have applied (the condition, the index, the added mask), and what is known of it. */
  readonly maskNode: PyNode;
  readonly mask: MaskInfo | undefined;
  /** The operand holding the scores: a plain name, read again later unchanged. */
  readonly receiver: PyNode;
  /**
   * Every definition reaching the receiver is of the statement's own function (or module): an assignment to it there
   * rebinds that name, where in a nested function it would make a closure's or a global's name local.
   */
  readonly receiverLocal: boolean;
  /** That later read. */
  readonly readAgain: PyNode;
  /** A softmax that normalises those scores without the mask. */
  readonly softmax: SoftmaxSite;
  /** The torch tensor method it is (`masked_fill`, `add`, ...), when an in-place twin exists. */
  readonly inPlaceTwin?: string;
}

/** Tensor methods that return a new tensor, with their in-place twin (torch). `where` has none. */
const OUT_OF_PLACE_METHODS: ReadonlyMap<string, string | undefined> = new Map([
  ['masked_fill', 'masked_fill_'],
  ['where', undefined],
  ['add', 'add_'],
  ['sub', 'sub_'],
  ['subtract', 'subtract_'],
  ['mul', 'mul_'],
  ['multiply', 'multiply_'],
]);

/** Library functions that return a new array (never write into an argument unless given `out=`). */
const OUT_OF_PLACE_FUNCTIONS =
  /^(torch|numpy|jax\.numpy|jax\.lax|tensorflow|tensorflow\.math|mlx\.core)\.(where|masked_fill|select|add|subtract|sub|multiply|mul)$/;

const OUT_OF_PLACE_OPERATORS = new Set(['+', '-', '*']);

/** The file's discarded masking ops that matter (computed once per file, on first use). */
export function discardedMasks(ev: Evaluator): readonly DiscardedMaskSite[] {
  return ev.file.perNode('discarded masks', ev.tree.root, () => find(ev));
}

function find(ev: Evaluator): DiscardedMaskSite[] {
  const out: DiscardedMaskSite[] = [];
  for (const scope of ev.sr.scopes) {
    if (scope.kind === 'comprehension' || scope.kind === 'lambda' || scope.node.skipped) continue;
    for (const e of ev.sr.exprsOfScope.get(scope.id) ?? []) {
      if (e.parent?.type !== 'expression_statement') continue;
      const x = unparen(e);
      const form = outOfPlaceForm(ev, x);
      if (!form) continue;
      for (const ctx of ev.contextsOf(scope)) {
        const site = judge(ev, e, x, ctx, form);
        if (site) {
          out.push(site);
          break;
        }
      }
    }
  }
  return out;
}

interface Form {
  /** The operands that can hold the scores. */
  readonly operands: readonly PyNode[];
  /** The object of the call whose value decides whether it is a library function (a module) or a tensor method. */
  readonly object?: PyNode;
  readonly qualified?: string;
  readonly method?: string;
}

/** The statement's expression is an out-of-place op by its syntax; which value it is applied to is judged in a context. */
function outOfPlaceForm(ev: Evaluator, x: PyNode): Form | undefined {
  if (x.type === 'binary_operator') {
    const op = childByField(x, 'operator');
    const l = childByField(x, 'left');
    const r = childByField(x, 'right');
    if (!op || !l || !r || !OUT_OF_PLACE_OPERATORS.has(ev.text(op))) return undefined;
    return { operands: [l, r] };
  }
  if (x.type !== 'call') return undefined;
  const fn = childByField(x, 'function');
  const args = childByField(x, 'arguments');
  if (!fn || fn.type !== 'attribute' || !args || args.type !== 'argument_list') return undefined;
  const obj = childByField(fn, 'object');
  const attr = childByField(fn, 'attribute');
  if (!obj || !attr) return undefined;
  const name = ev.text(attr);
  const positional = args.children.filter((c) => c.named && c.type !== 'keyword_argument' && c.type !== 'comment');
  // `out=` writes the result into a tensor: nothing is discarded.
  if (args.children.some((c) => c.type === 'keyword_argument' && ev.text(childByField(c, 'name') ?? c) === 'out')) return undefined;
  // JAX's functional update `scores.at[idx].set(fill)`: the array is the object of `.at`.
  if (name === 'set') {
    const sub = unparen(obj);
    const at = sub.type === 'subscript' ? childByField(sub, 'value') : undefined;
    const base = at?.type === 'attribute' && ev.text(childByField(at, 'attribute') ?? at) === 'at' ? childByField(at, 'object') : undefined;
    return base ? { operands: [base], method: 'set' } : undefined;
  }
  if (OUT_OF_PLACE_METHODS.has(name)) return { operands: [obj, ...positional], object: obj, method: name };
  return { operands: positional, object: obj, qualified: name };
}

/**
 * A library function (`torch.where`, `np.where`) or a tensor method (`scores.masked_fill`), never the code's own; with
 * the method's in-place twin in a torch file. Undefined: not an out-of-place op of a library in this context.
 */
function libraryOp(ev: Evaluator, form: Form, ctx: Ctx): { inPlaceTwin?: string } | undefined {
  if (!form.object) return {};
  const o = ev.evaluatedValue(form.object, ctx);
  if (!o) return undefined;
  if (o.kind === 'module') {
    const ok = !!o.qname && OUT_OF_PLACE_FUNCTIONS.test(canonicalQualifiedName(`${o.qname}.${form.method ?? form.qualified ?? ''}`));
    return ok ? {} : undefined;
  }
  if (!form.method || (o.kind !== 'tensor' && o.kind !== 'unknown')) return undefined;
  const twin = ev.file.importsTorch ? OUT_OF_PLACE_METHODS.get(form.method) : undefined;
  return twin ? { inPlaceTwin: twin } : {};
}

/**
 * `node` is (or is inside) the expression of a bare expression statement that is a library's out-of-place op, as
 * evaluated in ctx: whatever it writes is discarded (a fill site there fills nothing).
 */
export function bareOutOfPlace(ev: Evaluator, node: PyNode, ctx: Ctx): boolean {
  let e: PyNode = node;
  while (e.parent && e.parent.type !== 'expression_statement') {
    if (/_statement$|^block$|_definition$|^module$|^lambda$|^assignment$|^augmented_assignment$/.test(e.parent.type)) return false;
    e = e.parent;
  }
  if (!e.parent) return false;
  const form = outOfPlaceForm(ev, unparen(e));
  return !!form && !!libraryOp(ev, form, ctx);
}

/**
 * A fill, a mask's use or a post-softmax mask (a `FillSite`, `MaskSite` or `WeightsMaskSite`) inside a bare statement
 * of an out-of-place op: the statement throws its result away, so the fill has no effect, hence neither a polarity, a
 * value nor a position to judge; nor has one in an arm that cannot run in its context. Every rule that reads these sites skips such ones (ATT002, ATT006, ATT007, ATT008);
 * ATT007 reports the discarded statement itself where it matters (`discardedMasks`).
 */
export function discardedSite(ev: Evaluator, site: { readonly node: PyNode; readonly ctx: Ctx }): boolean {
  // Also a site in an `if` arm that cannot run in the site's context (its condition known False there, such as
  // `else:` after `if mask.dtype == torch.bool:` where the caller passes a boolean mask): judged only where it runs.
  return bareOutOfPlace(ev, site.node, site.ctx) || armDeadInCtx(ev, site.node, site.ctx);
}

function judge(ev: Evaluator, e: PyNode, x: PyNode, ctx: Ctx, form: Form): DiscardedMaskSite | undefined {
  const v = ev.evaluatedValue(e, ctx);
  if (!v || v.kind !== 'tensor' || v.attn?.stage !== 'scores') return undefined;
  const lib = libraryOp(ev, form, ctx);
  if (!lib) return undefined;
  // Every path ends with the masking step this expression adds.
  const alts = v.ops && v.ops.length > 0 ? v.ops : [];
  const last = alts.map((a) => a[a.length - 1]);
  const op = last[0];
  // A term the code does not show (`scores + attn_bias` with no caller in view) is no mask that was meant to apply.
  if (!op || op.kind !== 'mask' || !op.maskNode || op.unshown || !last.every((o) => o?.kind === 'mask' && within(o.node, x))) return undefined;
  const maskNode = op.maskNode;
  const before = alts.map((a) => a.slice(0, -1));
  // The scores were masked with the same mask already on every path (a line repeated): redundant, not missing.
  const maskText = ev.text(op.maskNode);
  if (before.every((p) => p.some((o) => o.kind === 'mask' && o.maskNode !== undefined && ev.text(o.maskNode) === maskText))) return undefined;
  const formed = v.attn.formedAt;
  // The operand that holds those scores, a plain name.
  const receiver = form.operands.find((n) => {
    const u = unparen(n);
    if (u.type !== 'identifier') return false;
    const rv = ev.evaluatedValue(u, ctx) ?? ev.evaluatedValue(n, ctx);
    return rv?.kind === 'tensor' && rv.attn?.stage === 'scores' && rv.attn.formedAt === formed;
  });
  const name = receiver && unparen(receiver);
  if (!name) return undefined;
  const defs = ev.resolve(name, ev.text(name));
  if (!defs || defs.length === 0) return undefined;
  const readAgain = laterRead(ev, name, defs, x);
  if (!readAgain) return undefined;
  const softmax = ev.facts.softmaxFormedAt(formed).find((s) => s.input.attn?.stage === 'scores' && reachesUnmasked(s.input, before));
  if (!softmax) return undefined;
  const mask = ev.evaluatedValue(maskNode, ctx)?.mask;
  const receiverLocal = defs.every((d) => d.scope === ctx.scope);
  return { node: x, statement: e, ctx, value: v, op, maskNode, mask, receiver: name, receiverLocal, readAgain, softmax, ...lib };
}

/** A read of the same name after `x` that the same definitions reach (the value the statement left unchanged). */
function laterRead(ev: Evaluator, name: PyNode, defs: readonly Def[], x: PyNode): PyNode | undefined {
  const text = ev.text(name);
  const scopeNode = defs[0]?.scope.node ?? ev.tree.root;
  const ids = new Set(defs.map((d) => d.id));
  let found: PyNode | undefined;
  walk(scopeNode, (n) => {
    if (found || n.end <= x.end) return false;
    if (n.type !== 'identifier' || n.start < x.end || ev.text(n) !== text) return;
    const reaching = ev.resolve(n, text);
    if (reaching?.some((d) => ids.has(d.id))) found = n;
  });
  return found;
}

function sameOp(a: PathOp, b: PathOp): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.node !== b.node) return false;
  return a.kind !== 'mask' || b.kind !== 'mask' || a.how === b.how;
}

/**
 * The softmax's input went through one of the paths the discarded op was applied to (the same steps, in order), and
 * no mask was added after them: the unmasked scores are what it normalises.
 */
function reachesUnmasked(input: AValue, before: readonly (readonly PathOp[])[]): boolean {
  const alts = input.ops && input.ops.length > 0 ? input.ops : [[]];
  return alts.some((a) => before.some((p) => startsWith(a, p) && a.slice(p.length).every((o) => o.kind !== 'mask')));
}

/** `path` begins with the steps of `prefix`, in order. */
function startsWith(path: readonly PathOp[], prefix: readonly PathOp[]): boolean {
  if (prefix.length > path.length) return false;
  return prefix.every((o, i) => {
    const step = path[i];
    return step !== undefined && sameOp(o, step);
  });
}

function within(n: PyNode | undefined, outer: PyNode): boolean {
  return !!n && n.start >= outer.start && n.end <= outer.end;
}
