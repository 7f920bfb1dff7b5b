// Which variables an operand of a product starts from, looking through layout-only rearrangements: read by the
// rules to tell that the weights of an attention meet the very tensor its keys were made from (the values).
import type { Evaluator } from './evaluator';
import { rootName } from './call';
import { childByField, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';

/** Layout-only functions whose first argument is the tensor they rearrange (`tf.transpose(x, perm)`, `np.swapaxes(x, 1, 2)`). */
const LAYOUT_FUNCTIONS: ReadonlySet<string> = new Set(['transpose', 'permute', 'swapaxes', 'swapdims', 'moveaxis', 'movedim', 'matrix_transpose']);

/** The first positional argument of a layout-only function called by its module path (`tf.transpose(trg, perm=[0, 2, 1])`). */
function layoutSource(ev: Evaluator, n: PyNode): PyNode | undefined {
  if (n.type !== 'call') return undefined;
  const fn = childByField(n, 'function');
  if (fn?.type !== 'attribute') return undefined;
  const attr = childByField(fn, 'attribute');
  const obj = childByField(fn, 'object');
  if (!attr || !obj || !LAYOUT_FUNCTIONS.has(ev.text(attr))) return undefined;
  // Module paths only (`tf.transpose`, `tf.linalg.matrix_transpose`, `np.transpose`): a method's receiver is rootName's.
  if (!/^[A-Za-z_][\w.]*$/.test(ev.text(obj)) || !/^(tf|np|numpy|torch|jnp|jax|K|keras|tensorflow)(\.|$)/.test(ev.text(obj))) return undefined;
  const args = childByField(n, 'arguments');
  const first = args ? namedChildren(args).find((c) => c.type !== 'keyword_argument' && c.type !== 'comment') : undefined;
  return first ? unparen(first) : undefined;
}

/**
 * The variables one operand of a product starts from: its root name, the tensor a layout-only function rearranges
 * (`tf.transpose(trg, perm)` is `trg`), and for a name bound once in the enclosing function to such a rearrangement
 * (`trg_t = tf.transpose(trg, [0, 2, 1])`, `k_t = keys.permute(0, 2, 1)`) the tensor it was made from as well.
 */
export function operandSources(ev: Evaluator, o: PyNode, product: PyNode): string[] {
  const out: string[] = [];
  const add = (n: PyNode | undefined): void => {
    const name = n ? rootName(ev, n) : undefined;
    if (name !== undefined && !out.includes(name)) out.push(name);
  };
  const u = unparen(o);
  const src = layoutSource(ev, u);
  if (src) add(src);
  else add(u);
  if (u.type === 'identifier') {
    const value = soleBinding(ev, u, product);
    if (value) add(layoutSource(ev, value) ?? (isLayoutMethod(ev, value) ? value : undefined));
  }
  return out;
}

/** `x.transpose(...)`, `x.permute(...)`, `x.swapaxes(...)`: a method call that rearranges its receiver. */
function isLayoutMethod(ev: Evaluator, n: PyNode): boolean {
  if (n.type !== 'call') return false;
  const fn = childByField(n, 'function');
  const attr = fn?.type === 'attribute' ? childByField(fn, 'attribute') : undefined;
  return !!attr && LAYOUT_FUNCTIONS.has(ev.text(attr));
}

/** The right-hand side of the one plain assignment to `name` in the function that holds `at`, made before `at`. */
function soleBinding(ev: Evaluator, name: PyNode, at: PyNode): PyNode | undefined {
  let fn: PyNode | null | undefined = at.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  if (!fn) return undefined;
  const text = ev.text(name);
  const found: PyNode[] = [];
  let other = false;
  walk(fn, (n) => {
    if (n !== fn && n.type === 'function_definition') return false;
    if (n.type === 'assignment' || n.type === 'augmented_assignment') {
      const left = childByField(n, 'left');
      const right = childByField(n, 'right');
      if (left && unparen(left).type === 'identifier' && ev.text(unparen(left)) === text) {
        if (n.type === 'assignment' && right && n.end <= at.start) found.push(unparen(right));
        else other = true;
      } else if (
        left &&
        left.type !== 'identifier' &&
        ev
          .text(left)
          .split(/[^\w]+/)
          .includes(text)
      )
        other = true;
    }
    return true;
  });
  return !other && found.length === 1 ? found[0] : undefined;
}
