// A width the code builds as a product of a name with another size (`D = K * d` in GMAN's attention constructors, or
// in the model that builds them): the name is a factor of a wider width, one piece of it, so its name alone (`d`,
// `dim`, `width`, which names.ts reads as a model width) does not make it the model width.
import { childByField, unparen, type PyNode } from '../syntax/tree';
import { operatorText } from '../syntax/python';
import type { Evaluator } from './evaluator';
import type { ClassInfo } from './scopes';
import { constructionArguments } from './importer-calls';
import { constantNumber } from './module-constants';

/**
 * The other factor says the product is not a wider feature width split into pieces: a ratio or multiplier
 * (`dim * mlp_ratio`, `dim * expansion`), a part count of a fused projection (`dim * n_parts`), a sequence or
 * spatial extent (`seq_len * dim`, a flattened size).
 */
const NOT_A_PIECE_COUNT = /ratio|mult|factor|expan|scale|rate|part|mlp|ffn|ff_|seq|len|token|patch|window|pix|size|layer|depth|batch|^[bnt]$|^l$/i;

const bare = (t: string): string => t.replace(/^self\./, '').replace(/^_+/, '');

/** `K * d` or `d * K` (names or `self.` attributes, neither a number), with one side `name`: the other side. */
function otherFactor(ev: Evaluator, value: PyNode, name: string): string | undefined {
  const u = unparen(value);
  if (u.type !== 'binary_operator' || operatorText(ev.tree, u) !== '*') return undefined;
  const l = childByField(u, 'left');
  const r = childByField(u, 'right');
  if (!l || !r) return undefined;
  const names = [l, r]
    .map((n) => unparen(n))
    .map((n) => (n.type === 'identifier' || (n.type === 'attribute' && /^self\.\w+$/.test(ev.text(n))) ? bare(ev.text(n)) : undefined));
  const [a, b] = names;
  if (a === undefined || b === undefined || a === b) return undefined;
  const other = a === name ? b : b === name ? a : undefined;
  if (other === undefined || NOT_A_PIECE_COUNT.test(other)) return undefined;
  // A module constant bound to a number is that number (module-constants.ts), as a literal factor is: `VAL * n_embd`
  // with `VAL = 3` is `3 * n_embd`, a fused projection's width, no product of names.
  const otherNode = unparen(a === name ? r : l);
  if (otherNode.type === 'identifier' && constantNumber(ev, ev.text(otherNode)) !== undefined) return undefined;
  return other;
}

/**
 * `X = K * d` or `K * d` as a call's argument, in a file's text (an importing file that builds the class, not parsed
 * here): the same product, read with the same exclusions (a module constant of that file bound to a number, `VAL * d`
 * with `VAL = 3`, is that number, no name).
 */
function productInText(ev: Evaluator, source: string, name: string): boolean {
  const re = new RegExp(`(?:^|[=(,]\\s*)((?:self\\.)?[A-Za-z_]\\w*)\\s*\\*\\s*((?:self\\.)?[A-Za-z_]\\w*)\\s*(?=$|[),#\\n])`, 'gm');
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const [a, b] = [bare(String(m[1])), bare(String(m[2]))];
    const other = a === name ? b : b === name ? a : undefined;
    const written = String(a === name ? m[2] : m[1]);
    const constant = !written.startsWith('self.') && constantNumber(ev, written) !== undefined;
    if (other !== undefined && other !== name && !NOT_A_PIECE_COUNT.test(other) && !constant) return true;
  }
  return false;
}

/** Assignments `X = K * d` (or `self.X = ...`) under `root`, not descending into nested classes; the first whose product has `name` as a factor. */
function productUnder(ev: Evaluator, root: PyNode, name: string, topLevelOnly: boolean): PyNode | undefined {
  const stack: PyNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'assignment') {
      const left = childByField(n, 'left');
      const right = childByField(n, 'right');
      const target = left ? unparen(left) : undefined;
      if (right && target && (target.type === 'identifier' || target.type === 'attribute') && otherFactor(ev, right, name) !== undefined) return right;
    }
    // A width handed to a layer as the product itself (`nn.Linear(K * d, K * d)`, `GatedFusion(K * d, bn_decay)`).
    if (n.type === 'argument_list') {
      for (const a of n.children) if (a.named && otherFactor(ev, a, name) !== undefined) return a;
    }
    if (n !== root && (n.type === 'class_definition' || (topLevelOnly && (n.type === 'function_definition' || n.type === 'decorated_definition')))) continue;
    for (const c of n.children) if (c.named) stack.push(c);
  }
  return undefined;
}

/**
 * Whether a product `K * d` that makes a wider width of `name` (its text, `d`, `self._d`, or the constructor parameter a
 * `self.` attribute holds) is shown: in the class `cls` (any method), at module level of the file, or, for a constructor
 * parameter, in every file that builds the class, with the name it passes for it.
 */
export function widerWidthProduct(ev: Evaluator, cls: ClassInfo | undefined, names: readonly string[]): boolean {
  for (const raw of new Set(names.map(bare))) {
    if (!/^[A-Za-z_]\w*$/.test(raw)) continue;
    if (cls && productUnder(ev, cls.node, raw, false)) return true;
    if (productUnder(ev, ev.tree.root, raw, true)) return true;
    // A constructor parameter every construction of the class fills with a name its file multiplies into a wider width
    // (GMAN's `STAttBlock(K, d, ...)` beside `GatedFusion(K * d, ...)`, in model.py).
    const passed = cls ? constructionArguments(ev, cls, raw) : undefined;
    if (passed?.every((p) => /^(?:self\.)?[A-Za-z_]\w*$/.test(p.text) && productInText(p.ev, p.source, bare(p.text)))) return true;
  }
  return false;
}
