// What a length bound counts, for masks built from per-example bounds: `m[i, :n] = True` in a loop over the batch and
// its vectorised twin `arange(W)[None, :] < n[:, None]`. The same bound reads the same way in both forms.
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
  return /(^|_)(n_?)?pad(s|ding)?(_|$)|^num_?pad|^npad/i.test(ev.text(n)) ? 'unclear' : undefined;
}

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
