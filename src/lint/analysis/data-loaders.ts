// What a data loader yields. `for ids, mask in DataLoader(ds, collate_fn=collate):` iterates over what the
// collate function returns, so a padding mask built there (often in another file) reaches the model's call in
// the training loop with the meaning it was built with.
import { argument } from '../syntax/python';
import type { Call } from './call';
import type { Evaluator } from './evaluator';
import { UNKNOWN, type AValue } from './values';

/** `collate_fn`'s position in `torch.utils.data.DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, collate_fn, ...)`. */
const COLLATE_POSITION = 6;

/**
 * `torch.utils.data.DataLoader(..., collate_fn=f)`: a sequence whose every element is what `f` returns for a batch
 * (one element stands for all; iterating it gives that batch). Undefined for other calls and without a
 * collate function the analysis can call.
 */
export function dataLoaderBatches(ev: Evaluator, qname: string, c: Call): AValue | undefined {
  if (!/^torch\.utils\.data(\.dataloader)?\.DataLoader$/.test(qname)) return undefined;
  const fnNode = argument(c.args, 'collate_fn', COLLATE_POSITION);
  if (!fnNode) return undefined;
  const fn = ev.eval(fnNode, c.ctx);
  if (fn.kind !== 'function') return undefined;
  const batch = ev.callWithValues(fn, [UNKNOWN], c.node, c.ctx);
  return batch.kind === 'unknown' || batch.kind === 'none' ? undefined : { kind: 'tuple', elements: [batch] };
}
