// The definitions an expression statement makes, for the scopes pass: assignment targets (tuples unpacked,
// `x[i] = v` as a new definition of x, `self.x = v` in a method), augmented assignments, in-place method calls
// (`x.add_(y)`), `self.register_buffer(name, value)`, and the rank a shape unpacking states
// (`B, T, C = x.size()` says x has 3 dimensions).
import { callArgs, dottedName, stringLiteral, targetNames } from '../syntax/python';
import { childByField, childrenByField, namedChildren, text, unparen, type PyNode } from '../syntax/tree';
import type { DefKind, Scope } from './scopes';
import { visitExpr } from './scope-expressions';
import type { Env, ScopeWalk } from './scope-walk';
import { labelOfAxisName } from './layout';

export function bindTargets(w: ScopeWalk, targetNode: PyNode, value: PyNode | undefined, kind: DefKind, env: Env, scope: Scope): void {
  for (const t of targetNames(targetNode)) {
    const name = w.boundName(t.node, scope);
    if (t.node.type === 'subscript') {
      // x[i] = v mutates x: recorded as a new definition of x that depends on the previous ones.
      const base = childByField(t.node, 'value');
      visitExpr(w, childByField(t.node, 'subscript'), env, scope);
      for (const sub of childrenByField(t.node, 'subscript')) visitExpr(w, sub, env, scope);
      const baseName = base ? w.boundName(unparen(base), scope) : undefined;
      if (base) visitExpr(w, base, env, scope);
      if (baseName) {
        w.addDef(env, {
          name: baseName,
          kind: 'setitem',
          target: t.node,
          value: targetNode.parent ?? undefined,
          path: [],
          scope,
          prev: env.get(baseName) ?? [],
        });
      }
      continue;
    }
    if (t.node.type === 'attribute' && !name) {
      // obj.attr = v (not self): reads obj.
      visitExpr(w, childByField(t.node, 'object'), env, scope);
      continue;
    }
    if (!name) continue;
    w.addDef(env, { name, kind, target: t.node, value, path: t.path, star: t.star, scope });
  }
}

/** `B, T, C = x.size()` / `x.shape` → x has three dimensions. */
function noteRankFact(w: ScopeWalk, left: PyNode, right: PyNode, env: Env, scope: Scope): void {
  const src = w.src;
  const l = unparen(left);
  if (l.type !== 'pattern_list' && l.type !== 'tuple_pattern' && l.type !== 'list_pattern') return;
  const items = namedChildren(l);
  if (items.some((i) => i.type === 'list_splat_pattern')) return;
  let r = unparen(right);
  let rank = items.length;
  // `b, n, d, h = *x.shape, self.heads`: the splatted shape holds the targets the other elements do not.
  if (r.type === 'expression_list' || r.type === 'tuple') {
    const elems = namedChildren(r);
    // The grammar reads `*x.shape` as the attribute `shape` of the list_splat `*x`.
    const starredShape = (e: PyNode): boolean => e.type === 'attribute' && childByField(e, 'object')?.type === 'list_splat';
    const splats = elems.filter(starredShape);
    if (splats.length !== 1 || elems.some((e) => e.type === 'list_splat')) return;
    rank = items.length - (elems.length - 1);
    if (rank < 1) return;
    const splat = splats[0];
    if (!splat) return; // one splat (checked above)
    const obj = namedChildren(childByField(splat, 'object')!)[0];
    const name = obj ? w.boundName(unparen(obj), scope) : undefined;
    if (!name || text(src, childByField(splat, 'attribute')!) !== 'shape') return;
    for (const d of env.get(name) ?? []) w.rankFacts.set(d.id, rank);
    return;
  }
  if (r.type === 'call') {
    const fn = childByField(r, 'function');
    const args = callArgs(src, r);
    if (!fn || fn.type !== 'attribute' || args.positional.length > 0) return;
    const attr = childByField(fn, 'attribute');
    if (!attr || !['size', 'get_shape', 'dim'].includes(text(src, attr))) return;
    if (text(src, attr) === 'dim') return;
    r = fn;
  } else if (r.type !== 'attribute') return;
  const attr = childByField(r, 'attribute');
  const obj = childByField(r, 'object');
  if (!attr || !obj) return;
  const a = text(src, attr);
  if (a !== 'shape' && a !== 'size' && a !== 'get_shape') return;
  const name = w.boundName(unparen(obj), scope);
  if (!name) return;
  // The first target names the batch (`B, T, C = x.shape`): x's first axis is its batch axis.
  const first = items[0];
  const batch = first?.type === 'identifier' && labelOfAxisName(text(src, first)) === 'batch';
  for (const d of env.get(name) ?? []) {
    w.rankFacts.set(d.id, rank);
    if (batch) w.batchFirst.add(d.id);
  }
}

/** The name a call to an in-place method (`x.add_(y)`, `self.h.mul_(2)`) redefines. */
function inplaceReceiver(w: ScopeWalk, call: PyNode, scope: Scope): string | undefined {
  const fn = childByField(call, 'function');
  if (!fn || fn.type !== 'attribute') return undefined;
  const attr = childByField(fn, 'attribute');
  const obj = childByField(fn, 'object');
  if (!attr || !obj) return undefined;
  const m = text(w.src, attr);
  if (!/^[a-z][a-z0-9_]*[a-z0-9]_$/.test(m)) return undefined;
  return w.boundName(viewBase(w.src, unparen(obj)), scope);
}

/**
 * Torch methods that always return a view of their receiver (the same storage): an in-place method called on the
 * result writes into the receiver (`scores.view(B, H, T, S).masked_fill_(pad, -inf)` masks `scores`). `reshape`,
 * `contiguous` and `flatten` are left out: they copy when the layout requires it, which the code does not show, and an
 * in-place fill of a copy changes nothing; `expand` too (an in-place write into an expanded tensor fails).
 */
const VIEW_METHODS: ReadonlySet<string> = new Set([
  'view',
  'view_as',
  'transpose',
  'swapaxes',
  'swapdims',
  't',
  'permute',
  'unsqueeze',
  'squeeze',
  'narrow',
  'select',
  'movedim',
  'moveaxis',
  'unflatten',
]);

/** Basic indexing (slices, integer literals, None, `...`) returns a view; indexing by a tensor or list copies. */
function basicIndex(src: { readonly source: string }, sub: PyNode): boolean {
  const parts = childrenByField(sub, 'subscript');
  return (
    parts.length > 0 &&
    parts.every(
      (p) =>
        p.type === 'slice' ||
        p.type === 'none' ||
        p.type === 'ellipsis' ||
        (p.type === 'integer' && /^\d+$/.test(text(src, p))) ||
        (p.type === 'unary_operator' && /^-\s*\d+$/.test(text(src, p))),
    )
  );
}

/** The tensor whose storage `node` shares: through view methods and basic indexing, else `node` itself. */
export function viewBase(src: { readonly source: string }, node: PyNode): PyNode {
  let n = node;
  for (;;) {
    if (n.type === 'call') {
      const fn = childByField(n, 'function');
      const attr = fn?.type === 'attribute' ? childByField(fn, 'attribute') : undefined;
      const obj = fn?.type === 'attribute' ? childByField(fn, 'object') : undefined;
      if (!attr || !obj || !VIEW_METHODS.has(text(src, attr))) return n;
      n = unparen(obj);
    } else if (n.type === 'subscript' && basicIndex(src, n)) {
      const value = childByField(n, 'value');
      if (!value) return n;
      n = unparen(value);
    } else return n;
  }
}

/**
 * The name a library call's `out=` argument redefines (`torch.div(scores, scale, out=scores)`,
 * `torch.where(m, fill, scores, out=scores)`, `np.add(a, b, out=a)`): the call writes its result into that tensor.
 */
function outReceiver(w: ScopeWalk, call: PyNode, scope: Scope): string | undefined {
  const args = childByField(call, 'arguments');
  if (!args || args.type !== 'argument_list') return undefined;
  for (const a of args.children) {
    if (a.type !== 'keyword_argument') continue;
    const key = childByField(a, 'name');
    const value = childByField(a, 'value');
    if (!key || !value || text(w.src, key) !== 'out') continue;
    return w.boundName(unparen(value), scope);
  }
  return undefined;
}

export function visitExpressionStatementPart(w: ScopeWalk, e: PyNode, env: Env, scope: Scope): void {
  if (e.type === 'assignment') {
    visitAssignment(w, e, env, scope);
    return;
  }
  if (e.type === 'augmented_assignment') {
    const left = childByField(e, 'left');
    const right = childByField(e, 'right');
    const opNode = childByField(e, 'operator');
    visitExpr(w, right, env, scope);
    if (left) visitExpr(w, left, env, scope);
    const name = left ? w.boundName(unparen(left), scope) : undefined;
    if (name && left) {
      const op = opNode ? text(w.src, opNode).replace(/=$/, '') : undefined;
      w.addDef(env, { name, kind: 'aug', target: unparen(left), value: right, path: [], scope, op, prev: env.get(name) ?? [] });
    }
    return;
  }
  visitExpr(w, e, env, scope);
  w.noteExpr(e, scope);
  const call = unparen(e);
  if (call.type === 'call') {
    const recv = inplaceReceiver(w, call, scope);
    if (recv) w.addDef(env, { name: recv, kind: 'inplace', target: call, value: call, path: [], scope, prev: env.get(recv) ?? [] });
    // `torch.add(scores, mask, out=scores)`: the result is written into the `out=` tensor, as an assignment would.
    const out = outReceiver(w, call, scope);
    if (out && out !== recv) w.addDef(env, { name: out, kind: 'inplace', target: call, value: call, path: [], scope, prev: env.get(out) ?? [] });
    noteRegisterBuffer(w, call, env, scope);
  }
}

/** self.register_buffer("bias", value) defines self.bias. */
function noteRegisterBuffer(w: ScopeWalk, call: PyNode, env: Env, scope: Scope): void {
  if (!scope.selfName) return;
  const src = w.src;
  const fn = childByField(call, 'function');
  const name = fn ? dottedName(src, fn) : undefined;
  if (!name || name.length !== 2 || name[0] !== scope.selfName || (name[1] !== 'register_buffer' && name[1] !== 'register_parameter')) return;
  const args = callArgs(src, call);
  const bufName = stringLiteral(src, args.positional[0] ?? args.keywords.get('name')?.value);
  const value = args.positional[1] ?? args.keywords.get('tensor')?.value ?? args.keywords.get('param')?.value;
  if (!bufName || !value) return;
  w.addDef(env, { name: `self.${bufName}`, kind: 'buffer', target: call, value, path: [], scope });
}

function visitAssignment(w: ScopeWalk, e: PyNode, env: Env, scope: Scope): void {
  // a = b = value: the innermost right is the value; every left binds it.
  const lefts: PyNode[] = [];
  let cur: PyNode = e;
  let value: PyNode | undefined;
  for (;;) {
    const l = childByField(cur, 'left');
    if (l) lefts.push(l);
    const r = childByField(cur, 'right');
    if (r && r.type === 'assignment') {
      cur = r;
      continue;
    }
    value = r;
    break;
  }
  visitExpr(w, value, env, scope);
  if (!value) return; // annotation only
  for (const l of lefts) {
    noteRankFact(w, l, value, env, scope);
    bindTargets(w, l, value, 'assign', env, scope);
  }
}
