// What a length bound counts, for masks built from per-example bounds: `m[i, :n] = True` in a loop over the batch and
// its vectorised twin `arange(W)[None, :] < n[:, None]`. The same bound reads the same way in both forms.
import { callArgs } from '../syntax/python';
import { childByField, namedChildren, unparen, type PyNode } from '../syntax/tree';
import type { Evaluator } from './evaluator';
import type { Ctx } from './facts';
import type { Def } from './scopes';

/**
 * `padding`: the bound counts each example's padding, shown by the code: `W - len(s)` (the width less a sequence's
 * length), or a sum of a mask that marks the padding (`(ids == pad_id).sum()`); the positions before it are the left
 * padding. `unclear`: it may count tokens or padding: a width less anything but a length or a literal
 * (`L - pad_len`, `max_len - n[i]`), or a name that says it counts padding (`pad_len`, `n_pad[i]`) with no
 * definition showing how. `tokens`: a sum of a keep mask. Undefined (read as a length, as before) for anything else.
 * A name or an indexed name is followed through its one assignment in view.
 */
export function boundCount(ev: Evaluator, node: PyNode, ctx: Ctx, depth = 0): 'tokens' | 'padding' | 'unclear' | undefined {
  let n = unparen(node);
  // Looking through an index (`n_pad[i]`, `(W - lens)[:, None]`), a method on the bound (`.unsqueeze(1)`, `.item()`,
  // `.to(device)`) and `int(...)`.
  for (let i = 0; i < 8; i++) {
    if (n.type === 'subscript') {
      n = unparen(childByField(n, 'value') ?? n);
      continue;
    }
    const f = n.type === 'call' ? childByField(n, 'function') : undefined;
    if (f?.type === 'attribute' && /^(unsqueeze|item|to|long|int|view|reshape|cpu|cuda)$/.test(ev.text(childByField(f, 'attribute') ?? f))) {
      n = unparen(childByField(f, 'object') ?? n);
      continue;
    }
    const first = f && ev.text(f) === 'int' ? namedChildren(childByField(n, 'arguments') ?? n)[0] : undefined;
    if (first && first.type !== 'keyword_argument') {
      n = unparen(first);
      continue;
    }
    break;
  }
  const op = n.type === 'binary_operator' ? childByField(n, 'operator') : undefined;
  if (op && ev.text(op) === '-') {
    const sub = unparen(childByField(n, 'right') ?? n);
    if (sub.type === 'integer') return undefined;
    return lengthShown(ev, sub, ctx, depth) ? 'padding' : 'unclear';
  }
  if (n.type === 'call') {
    const f = childByField(n, 'function');
    const fn = f ? ev.text(f) : '';
    const args = namedChildren(childByField(n, 'arguments') ?? n).filter((a) => a.type !== 'keyword_argument');
    const summed =
      fn === 'torch.sum' || fn === 'np.sum' || fn === 'numpy.sum'
        ? args[0]
        : f?.type === 'attribute' && ev.text(childByField(f, 'attribute') ?? f) === 'sum'
          ? childByField(f, 'object')
          : undefined;
    if (!summed) return undefined;
    const v = ev.eval(summed, ctx);
    if (v.kind !== 'tensor' || !v.mask?.polarity) return undefined;
    return v.mask.polarity === 'ignore' ? 'padding' : 'tokens';
  }
  if (n.type !== 'identifier') return undefined;
  const d = singleAssign(ev, n);
  if (d?.value && depth < 3) {
    const c = boundCount(ev, d.value, ctx, depth + 1);
    if (c) return c;
  }
  // A name that says it counts padding, with no definition above showing it: either count.
  if (/(^|_)(n_?)?pad(s|ding)?(_|$)|^num_?pad|^npad/i.test(ev.text(n))) return 'unclear';
  // A bare parameter (`def make(n, width)`, `m[i, :n] = True`) counts what the caller passes: tokens or padding, unless
  // it is named a length as the vectorised form reads lengths.
  const defs = ev.resolve(n, ev.text(n)) ?? [];
  const p = defs.length === 1 && defs[0]?.kind === 'param' ? defs[0] : undefined;
  if (p && !ctx.callSite && LENGTHS_NAME.test(ev.text(n)) && passedUnorderedRange(ev, p)) return 'unclear';
  if (!p || LENGTHS_NAME.test(ev.text(n))) return undefined;
  // A call in another file that imports the helper (callAcrossFiles) read its argument there, as a same-file call
  // is read below, and says so on the value it passes: no length shown.
  if (!ctx.callSite && ctx.scope === p.scope && p.param && ctx.bindings?.get(p.param.name)?.boundNotLength) return 'unclear';
  // With no call in view (the helper analysed alone, the context another file's reading takes) or a call in another
  // file (importer-calls.ts), the argument is not read here: as before, a length.
  if (ctx.calledAt || !ctx.callSite || ctx.scope !== p.scope) return undefined;
  const arg = argumentFor(ev, ctx.callSite, p);
  if (!arg || depth >= 3) return 'unclear';
  // The argument this call passes: a length shown (`len(s)`, `lengths[i]`) reads as before; anything else may count
  // either. Call sites passing the same abstract values share a context, so this call's argument decides no new
  // polarity, only whether the old reading stands.
  return argumentShowsLength(ev, arg, ctx, depth + 1) ? undefined : 'unclear';
}

/**
 * An argument passed for a bound shows a length: `len(s)`, an item of a list of lengths, a sum of a keep mask, or a
 * name (indexed or not) that says lengths.
 */
export function argumentShowsLength(ev: Evaluator, arg: PyNode, ctx: Ctx, depth = 1): boolean {
  const a = unparen(arg);
  const root = a.type === 'subscript' ? unparen(childByField(a, 'value') ?? a) : a;
  return lengthShown(ev, arg, ctx, depth) || (root.type === 'identifier' && LENGTHS_NAME.test(ev.text(root)));
}

/**
 * A call of the parameter's function in this file passes it a range of positions in an order the code does not show
 * (`sequence_mask(lengths, S)` after `lengths = torch.arange(S - 1, S - L - 1, -1)`, Music Transformer's masking of
 * relative distances; AValue.unorderedRange): read with no call in view, the bound may be that range, a triangle's
 * edge, not a count of each example's tokens.
 */
function passedUnorderedRange(ev: Evaluator, p: Def): boolean {
  // One walk of the file per parameter (a helper's length parameter is asked about at every read of it).
  return ev.file.perNode('passed unordered range', p.target, () => {
    let found = false;
    const visit = (n: PyNode): void => {
      if (found) return;
      if (n.type === 'call') {
        let a = argumentFor(ev, n, p);
        if (a && unparen(a).type === 'identifier') a = singleAssign(ev, unparen(a))?.value ?? a;
        if (a && unorderedArange(ev, unparen(a))) found = true;
      }
      for (const c of n.children) if (c.named) visit(c);
    };
    visit(ev.tree.root);
    return found;
  });
}

/** `arange(start, stop, step)` whose start is not a whole number written out or whose step is not 1 (ops.ts: arangeValue). */
function unorderedArange(ev: Evaluator, n: PyNode): boolean {
  const f = n.type === 'call' ? childByField(n, 'function') : undefined;
  if (!f || !/(^|\.)arange$/.test(ev.text(f))) return false;
  const args = callArgs(ev.tree, n);
  const startNode = args.positional.length >= 2 ? args.positional[0] : args.keywords.get('start')?.value;
  const stepNode = args.positional[2] ?? args.keywords.get('step')?.value;
  const start = startNode ? ev.intLit(unparen(startNode)) : 0;
  const step = stepNode ? ev.intLit(unparen(stepNode)) : 1;
  return start === undefined || step !== 1;
}

/** The argument a call passes for a parameter, by keyword or position (a method's self not passed). */
function argumentFor(ev: Evaluator, call: PyNode, p: Def): PyNode | undefined {
  if (call.type !== 'call' || !p.param) return undefined;
  // The call of this function itself (`make(n, w)`, `self.make(n, w)`), not one passing it on (`map(make, ns)`).
  const f = childByField(call, 'function');
  const callee = f?.type === 'attribute' ? childByField(f, 'attribute') : f;
  if (!callee || ev.text(callee) !== p.scope.name) return undefined;
  const args = callArgs(ev.tree, call);
  const kw = args.keywords.get(p.param.name);
  if (kw) return kw.value;
  if (args.hasSplat || p.param.index === undefined || p.param.kind !== 'positional') return undefined;
  const index = p.param.index - (p.scope.selfName ? 1 : 0);
  return index >= 0 ? args.positional[index] : undefined;
}

/** Names of per-example lengths, as the vectorised form (`arange(S)[None, :] < lengths[:, None]`) reads them. */
export const LENGTHS_NAME = /(^|_)(len|lens|length|lengths|seq_lens?|seqlens?|valid_lens?|n_tokens|num_tokens|ntokens)($|_)|lengths?$|lens$/i;

/** The one plain assignment reaching a name read (`n = ...`), if there is exactly one. */
function singleAssign(ev: Evaluator, n: PyNode): Def | undefined {
  const defs = ev.resolve(n, ev.text(n)) ?? [];
  const d = defs.length === 1 ? defs[0] : undefined;
  return d && d.kind === 'assign' && d.path.length === 0 && d.value ? d : undefined;
}

/**
 * Whether the code shows a value is each sequence's length: `len(s)`, a list of them (`[len(s) for s in xs]`, in
 * `torch.tensor(...)` / `np.array(...)`), a sum of a keep mask, or a name (indexed or not) assigned one of these.
 */
function lengthShown(ev: Evaluator, node: PyNode, ctx: Ctx, depth: number): boolean {
  let n = unparen(node);
  while (n.type === 'subscript') n = unparen(childByField(n, 'value') ?? n);
  if (n.type === 'identifier') {
    const defs = ev.resolve(n, ev.text(n)) ?? [];
    // `for i, n in enumerate(lengths)` / `zip(xs, lens)`: an item of a list of lengths.
    const loop = defs.length === 1 && defs[0]?.kind === 'for' ? defs[0].value : undefined;
    if (loop)
      return (
        /\blen\(/.test(ev.text(loop)) ||
        ev
          .text(loop)
          .split(/[^A-Za-z0-9_]+/)
          .some((w) => w !== '' && LENGTHS_NAME.test(w))
      );
    const d = singleAssign(ev, n);
    return !!d?.value && depth < 3 && lengthShown(ev, d.value, ctx, depth + 1);
  }
  if (n.type === 'list_comprehension') {
    const body = childByField(n, 'body');
    return !!body && unparen(body).type === 'call' && ev.text(childByField(unparen(body), 'function') ?? body) === 'len';
  }
  if (n.type !== 'call') return false;
  const f = childByField(n, 'function');
  const fn = f ? ev.text(f) : '';
  if (fn === 'len') return true;
  const first = namedChildren(childByField(n, 'arguments') ?? n)[0];
  if (/(^|\.)(tensor|as_tensor|array|asarray|LongTensor|IntTensor)$/.test(fn))
    return !!first && unparen(first).type === 'list_comprehension' && lengthShown(ev, first, ctx, depth);
  return boundCount(ev, n, ctx, depth + 1) === 'tokens';
}
