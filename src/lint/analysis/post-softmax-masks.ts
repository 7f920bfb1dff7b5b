// Masks applied to attention weights after the softmax that leave them a distribution, or are not masking keys
// at all: the NaN guard (`w.masked_fill(mask.all(dim=-1, keepdim=True), 0.0)`, `w.masked_fill(torch.isnan(w), 0)`,
// `~keep.any(-1)` or a query mask broadcast with a trailing `None`), which zeroes rows that had no key to attend to
// or came out NaN and leaves every other row summing to 1; and hand-written dropout (`torch.bernoulli(...)`,
// `torch.rand_like(w) > p`), a random mask with its 1/(1-p) rescale that is right in expectation.
import { callArgs, dottedName, intLiteral, numberLiteral } from '../syntax/python';
import { childByField, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';
import type { Evaluator } from './evaluator';
import type { Ctx, FillSite, SoftmaxSite } from './facts';
import { axisAt } from './values';

/** Reductions that say "every key" / "some key" of a row, and element tests that find NaN rows. */
const ROW_TESTS = new Set(['all', 'any']);
const NAN_TESTS = new Set(['isnan', 'isinf', 'isfinite']);
const COUNTS = new Set(['sum', 'count_nonzero']);

/** How far name definitions are followed back from the mask (`empty = ~keep.any(-1)`; `m = empty[:, None]`). */
const MAX_DEPTH = 3;

/**
 * The mask given to a post-softmax masking selects whole query rows: its last axis has length 1 (it broadcasts
 * over the keys), or it is built by a reduction over the key axis (`any`/`all`, a count compared with 0) or by a
 * NaN test. Read from the evaluator's shape and, for names, from their definitions in the same function.
 */
export function selectsWholeRows(ev: Evaluator, node: PyNode, ctx: Ctx, depth = 0): boolean {
  const v = ev.eval(node, ctx);
  if (v.ndim !== undefined && v.ndim >= 2 && axisAt(v, -1)?.size1) return true;
  if (trailingNewAxis(ev, unparen(node))) return true;
  let found = false;
  walk(unparen(node), (n) => {
    if (found) return false;
    if (n.type === 'call' && rowReduction(ev, n)) found = true;
    else if (n.type === 'comparison_operator' && countIsZero(ev, n)) found = true;
    else if (n.type === 'identifier' && depth < MAX_DEPTH && !isCallee(n) && !isAttributeName(n)) {
      const defs = (ev.resolve(n, ev.text(n)) ?? []).filter((d) => d.value && d.path.length === 0 && d.kind === 'assign');
      if (defs.length > 0 && defs.every((d) => selectsWholeRows(ev, d.value!, ctx, depth + 1))) found = true;
    }
    return !found;
  });
  return found;
}

/** `m.all(dim=-1)`, `torch.any(m, -1)`, `m.all()`, `torch.isnan(w)`: a test over a row's keys, or for NaN. */
function rowReduction(ev: Evaluator, call: PyNode): boolean {
  const fn = childByField(call, 'function');
  if (!fn) return false;
  const name = fn.type === 'attribute' ? ev.text(childByField(fn, 'attribute') ?? fn) : ev.text(fn);
  if (NAN_TESTS.has(name)) return true;
  if (!ROW_TESTS.has(name)) return false;
  return overLastAxis(ev, call, isMethodCall(ev, fn) ? 0 : 1);
}

/** `mask.sum(-1) == 0`, `keep.count_nonzero(dim=-1) == 0`: rows with no key left. */
function countIsZero(ev: Evaluator, cmp: PyNode): boolean {
  const parts = namedChildren(cmp);
  if (parts.length !== 2 || !cmp.children.some((c) => !c.named && c.type === '==')) return false;
  const zero = parts.find((p) => intLiteral(ev.tree, p) === 0 || ev.text(p).trim() === '0.0');
  const other = parts.find((p) => p !== zero);
  if (!zero || !other) return false;
  const call = unparen(other);
  if (call.type !== 'call') return false;
  const fn = childByField(call, 'function');
  if (!fn) return false;
  const name = fn.type === 'attribute' ? ev.text(childByField(fn, 'attribute') ?? fn) : ev.text(fn);
  return COUNTS.has(name) && overLastAxis(ev, call, isMethodCall(ev, fn) ? 0 : 1);
}

/** The reduction's dim is the last axis (-1) or absent (the whole tensor). `dimAt` is its positional index. */
function overLastAxis(ev: Evaluator, call: PyNode, dimAt: number): boolean {
  const args = childByField(call, 'arguments');
  const list = args ? namedChildren(args) : [];
  const kw = list.find((a) => a.type === 'keyword_argument' && /^(?:dim|axis)$/.test(ev.text(childByField(a, 'name') ?? a)));
  const dimNode = kw ? childByField(kw, 'value') : list.filter((a) => a.type !== 'keyword_argument')[dimAt];
  if (!dimNode) return true;
  return intLiteral(ev.tree, dimNode) === -1;
}

/** `torch.any(...)` / `np.all(...)` (a module function) versus `mask.any(...)` (a method). */
function isMethodCall(ev: Evaluator, fn: PyNode): boolean {
  if (fn.type !== 'attribute') return false;
  const q = dottedName(ev.tree, fn);
  return !(q && q.length >= 2 && /^(?:torch|np|numpy|jnp|tf)$/.test(q[0] ?? ''));
}

function isCallee(n: PyNode): boolean {
  return n.parent?.type === 'call' && childByField(n.parent, 'function') === n;
}

function isAttributeName(n: PyNode): boolean {
  return n.parent?.type === 'attribute' && childByField(n.parent, 'attribute') === n;
}

/** `m[:, None, :, None]`, `m[..., None]`, `m.unsqueeze(-1)`: a new length-1 last axis, so the mask broadcasts over the keys. */
function trailingNewAxis(ev: Evaluator, n: PyNode): boolean {
  if (n.type === 'subscript') {
    const idx = n.children.filter((c) => c.field === 'subscript');
    const last = idx[idx.length - 1];
    return !!last && last.type === 'none';
  }
  if (n.type === 'call') {
    const fn = childByField(n, 'function');
    if (fn?.type !== 'attribute' || ev.text(childByField(fn, 'attribute') ?? fn) !== 'unsqueeze') return false;
    const args = namedChildren(childByField(n, 'arguments') ?? n);
    const only = args.length === 1 ? args[0] : undefined;
    const a = only?.type === 'keyword_argument' ? childByField(only, 'value') : only;
    return intLiteral(ev.tree, a) === -1;
  }
  return false;
}

/** Random draws that make a dropout mask. */
const RANDOM_DRAWS = new Set(['bernoulli', 'rand', 'rand_like', 'uniform_', 'bernoulli_', 'dropout']);

/**
 * The mask is drawn at random (hand-written dropout on the weights): `torch.bernoulli(...)`, `torch.rand_like(w) > p`,
 * through its definitions in the same function.
 */
export function isDropoutMask(ev: Evaluator, node: PyNode, depth = 0): boolean {
  let found = false;
  walk(unparen(node), (n) => {
    if (found) return false;
    if (n.type === 'call') {
      const fn = childByField(n, 'function');
      const name = fn?.type === 'attribute' ? ev.text(childByField(fn, 'attribute') ?? fn) : fn ? ev.text(fn) : '';
      if (RANDOM_DRAWS.has(name)) found = true;
    } else if (n.type === 'identifier' && depth < MAX_DEPTH && !isCallee(n) && !isAttributeName(n)) {
      const defs = (ev.resolve(n, ev.text(n)) ?? []).filter((d) => d.value && d.path.length === 0 && d.kind === 'assign');
      if (defs.length > 0 && defs.every((d) => isDropoutMask(ev, d.value!, depth + 1))) found = true;
    }
    return !found;
  });
  return found;
}

/** `1 - p` / `1.0 - p` (parenthesised or not): the keep probability of a dropout with rate p. */
function oneMinus(ev: Evaluator, node: PyNode | undefined): boolean {
  const n = node && unparen(node);
  if (n?.type !== 'binary_operator' || operatorText(ev, n) !== '-') return false;
  return isOne(ev, childByField(n, 'left'));
}

function isOne(ev: Evaluator, node: PyNode | undefined): boolean {
  const n = node && unparen(node);
  return !!n && (n.type === 'integer' || n.type === 'float') && Number(ev.text(n)) === 1;
}

function operatorText(ev: Evaluator, n: PyNode): string {
  const op = childByField(n, 'operator');
  return op ? ev.text(op) : '';
}

/** `1 / (1 - p)`, or a name of the same function bound to it (`pinv = 1.0 / (1.0 - p)`). */
export function keepReciprocal(ev: Evaluator, node: PyNode | undefined, depth = 0): boolean {
  const n = node && unparen(node);
  if (!n) return false;
  if (n.type === 'binary_operator') return operatorText(ev, n) === '/' && isOne(ev, childByField(n, 'left')) && oneMinus(ev, childByField(n, 'right'));
  if (n.type !== 'identifier' || depth >= MAX_DEPTH) return false;
  const defs = (ev.resolve(n, ev.text(n)) ?? []).filter((d) => d.value && d.path.length === 0 && d.kind === 'assign');
  return defs.length > 0 && defs.every((d) => keepReciprocal(ev, d.value, depth + 1));
}

/**
 * The weights times a mask, rescaled in the same expression by the reciprocal of a keep probability
 * (`w * drop_mask * pinv` with `pinv = 1.0 / (1.0 - p)`, `w * drop_mask / (1 - p)`): inverted dropout written by hand,
 * right in expectation, whatever made the mask (a fused kernel, a saved tensor in a backward pass). A mask that hides
 * keys is never rescaled so.
 */
export function rescaledAsDropout(ev: Evaluator, product: PyNode): boolean {
  if (product.type === 'call') return selectsRescaled(ev, product);
  let inner = product;
  while (inner.parent?.type === 'parenthesized_expression') inner = inner.parent;
  const parent = inner.parent;
  if (parent?.type !== 'binary_operator') return false;
  const left = childByField(parent, 'left');
  const right = childByField(parent, 'right');
  const op = operatorText(ev, parent);
  if (left?.id !== inner.id || !right) return op === '*' && keepReciprocal(ev, left);
  if (op === '*') return keepReciprocal(ev, right);
  if (op === '/') return oneMinus(ev, right);
  return false;
}

/**
 * `where(mask, w_dp, 0)` whose kept operand is the weights already rescaled by the reciprocal of a keep probability
 * (`w_dp = w * scale` with `scale = 1 / (1 - p)`, or `w / (1 - p)`), bound once in the same function: inverted
 * dropout written as a select (a NumPy reference of flash attention's dropout).
 */
function selectsRescaled(ev: Evaluator, call: PyNode): boolean {
  const args = namedChildren(childByField(call, 'arguments') ?? call).filter((a) => a.type !== 'keyword_argument');
  const kept = args[1] && unparen(args[1]);
  if (kept?.type !== 'identifier' && kept?.type !== 'binary_operator') return false;
  const defs = kept.type === 'identifier' ? (ev.resolve(kept, ev.text(kept)) ?? []).filter((d) => d.value && d.path.length === 0 && d.kind === 'assign') : [];
  const def = defs.length === 1 ? defs[0] : undefined;
  const v = kept.type === 'binary_operator' ? kept : def?.value && unparen(def.value);
  if (v?.type !== 'binary_operator') return false;
  const op = operatorText(ev, v);
  const left = childByField(v, 'left');
  const right = childByField(v, 'right');
  if (op === '*') return keepReciprocal(ev, right) || keepReciprocal(ev, left);
  return op === '/' && oneMinus(ev, right);
}

/**
 * A mask written into the scores after a softmax of those same scores already ran (`attn = dots.softmax(-1)`, then
 * `dots.masked_fill_(mask, ...)`), in the same function, with no softmax of them after it and the weights used
 * after it: the mask never reaches the weights. Returns that earlier softmax and the later use of its weights.
 * Statements inside a loop are left alone (source order is not the order they run in).
 */
export function maskedAfterItsSoftmax(ev: Evaluator, fill: FillSite): { softmax: SoftmaxSite; use: PyNode } | undefined {
  const formed = fill.target.attn?.stage === 'scores' ? fill.target.attn.formedAt : undefined;
  if (!formed || insideLoop(fill.node, fill.ctx.scope.node)) return undefined;
  const same = ev.facts.softmaxFormedAt(formed).filter((s) => s.ctx.scope === fill.ctx.scope);
  // A softmax that encloses the fill (`softmax(dots.masked_fill(...))`) or follows it normalises the masked scores.
  if (same.some((s) => s.node.end >= fill.node.end)) return undefined;
  for (const s of same) {
    if (s.node.end > fill.node.start) continue;
    const use = ev.facts.consumersOf(s.node).find((m) => m.node.start >= fill.node.end);
    if (use) return { softmax: s, use: use.node };
  }
  return undefined;
}

/**
 * The fill writes into scores whose every softmax in the fill's function ran before it (`alpha = softmax(energy)`,
 * then `energy_safe = energy.masked_fill(causal, 0.0)` for the mean energy under alpha): the filled copy is no
 * softmax input there. False when no softmax of the scores is in that function, or the fill sits in a loop
 * that does not form the scores anew each time.
 */
export function filledAfterEverySoftmax(ev: Evaluator, fill: FillSite): boolean {
  const formed = fill.target.attn?.stage === 'scores' ? fill.target.attn.formedAt : undefined;
  if (!formed) return false;
  // In a loop, source order is the order things run in only when each iteration forms the scores anew.
  const loop = innermostLoop(fill.node, fill.ctx.scope.node);
  if (loop && !(formed.start >= loop.start && formed.end <= loop.end)) return false;
  const all = ev.facts.softmaxFormedAt(formed);
  const same = all.filter((s) => s.ctx.scope === fill.ctx.scope);
  return same.length > 0 && same.length === all.length && same.every((s) => s.node.end <= fill.node.start);
}

function innermostLoop(node: PyNode, until: PyNode): PyNode | undefined {
  for (let p = node.parent; p && p !== until; p = p.parent) if (p.type === 'for_statement' || p.type === 'while_statement') return p;
  return undefined;
}

function insideLoop(node: PyNode, until: PyNode): boolean {
  for (let p = node.parent; p && p !== until; p = p.parent) if (p.type === 'for_statement' || p.type === 'while_statement') return true;
  return false;
}

/** `torch.full(size, v)` / `torch.full(size, fill_value=v)`, `np.full`, `full_like(x, v)`: their fill argument. */
function fillOf(ev: Evaluator, call: PyNode): PyNode | undefined {
  const fn = childByField(call, 'function');
  const name = fn?.type === 'attribute' ? ev.text(childByField(fn, 'attribute') ?? fn) : fn ? ev.text(fn) : '';
  if (name !== 'full' && name !== 'full_like') return undefined;
  const args = callArgs(ev.tree, call);
  return args.keywords.get('fill_value')?.value ?? args.positional[1];
}

/**
 * A mask name bound in its function to a tensor filled with a negative literal number (`torch.full(...,
 * fill_value=-1e6)`), on at least one path: the source text of that number, of the name and of the construction (the
 * rule quotes them). Only the name's own assignments are read; anything else says nothing.
 */
export function filledWith(ev: Evaluator, node: PyNode | undefined, ctx: Ctx): { value: string; name: string; built: string } | undefined {
  const u = node && unparen(node);
  if (u?.type !== 'identifier') return undefined;
  const defs = (ev.resolve(u, ev.text(u)) ?? []).filter((d) => d.value && d.path.length === 0 && d.kind === 'assign' && d.scope === ctx.scope);
  for (const d of defs) {
    let v = unparen(d.value!);
    // `torch.full(...).to(device)`: the fill survives a move.
    while (v.type === 'call') {
      const fn = childByField(v, 'function');
      if (fn?.type === 'attribute' && /^(?:to|cuda|float|detach)$/.test(ev.text(childByField(fn, 'attribute') ?? fn))) {
        const obj = childByField(fn, 'object');
        if (!obj) break;
        v = unparen(obj);
        continue;
      }
      break;
    }
    if (v.type !== 'call') continue;
    const fill = fillOf(ev, v);
    const n = numberLiteral(ev.tree, fill);
    if (fill && n !== undefined && n < 0) return { value: ev.text(fill), name: ev.text(u), built: ev.text(v) };
  }
  return undefined;
}
