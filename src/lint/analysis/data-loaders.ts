// What a data loader yields. `for ids, mask in DataLoader(ds, collate_fn=collate):` iterates over what the
// collate function returns, so a padding mask built there (often in another file) reaches the model's call in
// the training loop with the meaning it was built with.
import { argument } from '../syntax/python';
import { childByField, unparen, type PyNode } from '../syntax/tree';
import type { Call } from './call';
import type { Evaluator } from './evaluator';
import { UNKNOWN, type AValue } from './values';

/** `collate_fn`'s position in `torch.utils.data.DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, collate_fn, ...)`. */
const COLLATE_POSITION = 6;

/**
 * `torch.utils.data.DataLoader(..., collate_fn=f)`: a sequence whose every element is what `f` returns for a batch
 * (one element stands for all; iterating it gives that batch). `collate_fn=partial(f, pad_id=...)` calls `f` with
 * the arguments the partial binds. Without a collate function, the default collate stacks what the dataset's
 * `__getitem__` returns for one sample (a tuple, each item gaining a batch axis). Undefined for other calls and
 * when neither can be evaluated.
 */
export function dataLoaderBatches(ev: Evaluator, qname: string, c: Call): AValue | undefined {
  if (!/^torch\.utils\.data(\.dataloader)?\.DataLoader$/.test(qname)) return undefined;
  const fnNode = argument(c.args, 'collate_fn', COLLATE_POSITION);
  const batch = fnNode ? collated(ev, fnNode, c) : defaultCollated(ev, c);
  // A dict with known keys (`{"feats": x, "padding_mask": m}`, see Evaluator.evalDictionary) is an unknown value that
  // holds its entries: each batch is that dict, read back by key (`batch["padding_mask"]`).
  const known = batch && (batch.kind !== 'unknown' || batch.kwargs !== undefined) && batch.kind !== 'none';
  return known ? { kind: 'tuple', elements: [batch] } : undefined;
}

/** What a collate function returns for a batch: `f`, `functools.partial(f, *bound, **keywords)`, or an instance's `__call__`. */
function collated(ev: Evaluator, fnNode: PyNode, c: Call): AValue | undefined {
  const u = unparen(fnNode);
  if (u.type === 'call' && isPartial(ev, u, c)) {
    const args = ev.argsOf(u);
    const [target, ...bound] = args.positional;
    if (!target || args.hasSplat) return undefined;
    const fn = ev.eval(target, c.ctx);
    if (fn.kind !== 'function') return undefined;
    // partial(f, a)(batch) is f(a, batch): the bound positionals first, the batch last.
    return ev.callWithValues(fn, [...bound.map((b) => ev.eval(b, c.ctx)), UNKNOWN], c.node, c.ctx, args.keywords);
  }
  const fn = ev.eval(fnNode, c.ctx);
  // `collate_fn=AudioCollator(...)`: an instance whose `__call__` makes each batch.
  const cls = fn.kind === 'object' ? fn.object?.cls : undefined;
  const call = cls ? ev.classMethod(cls, '__call__') : undefined;
  if (call) return ev.callWithValues({ kind: 'function', fn: { scope: call, self: fn } }, [UNKNOWN], c.node, c.ctx);
  if (fn.kind !== 'function') return undefined;
  return ev.callWithValues(fn, [UNKNOWN], c.node, c.ctx);
}

function isPartial(ev: Evaluator, call: PyNode, c: Call): boolean {
  const callee = childByField(call, 'function');
  if (!callee) return false;
  const v = ev.eval(callee, c.ctx);
  return v.kind === 'module' && v.qname === 'functools.partial';
}

/**
 * The default collate of a dataset whose class the analysis sees (`DataLoader(TextDataset(...))`): what its
 * `__getitem__` returns, each tensor of it stacked along a new batch axis (its rank and axes no longer known here).
 */
function defaultCollated(ev: Evaluator, c: Call): AValue | undefined {
  const dsNode = argument(c.args, 'dataset', 0);
  if (!dsNode) return undefined;
  const ds = ev.eval(dsNode, c.ctx);
  const cls = ds.kind === 'object' ? ds.object?.cls : undefined;
  const getitem = cls ? ev.classMethod(cls, '__getitem__') : undefined;
  if (!getitem) return undefined;
  const sample = ev.callWithValues({ kind: 'function', fn: { scope: getitem, self: ds } }, [UNKNOWN], c.node, c.ctx);
  return stacked(sample);
}

/** A sample as the default collate stacks it: tensors lose their known rank and axes, tuples and dicts keep their items. */
function stacked(v: AValue): AValue {
  if (v.kind === 'tuple') return v.elements ? { ...v, elements: v.elements.map(stacked) } : v;
  // A dict of tensors is collated key by key.
  if (v.kind === 'unknown' && v.kwargs) return { ...v, kwargs: v.kwargs.map(([k, x]) => [k, stacked(x)] as const) };
  if (v.kind !== 'tensor') return v;
  const { ndim: _ndim, axes: _axes, ...rest } = v;
  return rest;
}
