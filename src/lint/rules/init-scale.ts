// The 1/sqrt(d) folded into the query projection's initialisation (Mesh TensorFlow's convention, which T5 follows): the
// query weights are drawn with a standard deviation that carries a negative power of one more size than the key
// weights' (`normal_(q.weight, std=(d_model * d_kv) ** -0.5)` beside `normal_(k.weight, std=d_model ** -0.5)`), so the
// unscaled product q·kᵀ starts at the variance a 1/sqrt(d_kv) scale would give it. Read for ATT003.
import type { Evaluator } from '../analysis/evaluator';
import { importingFiles } from '../analysis/importers';
import { argument, callArgs, operatorText } from '../syntax/python';
import { childByField, namedChildren, unparen, walk, type PyNode, type PyTree } from '../syntax/tree';

/** Importing files read, at most (as the other importer evidence reads them). */
const MAX_INIT_FILES = 8;
/** Definitions followed from the query (or keys) back to the projection that makes them. */
const MAX_STEPS = 6;

/** One initialisation of a layer's weight: the object holding the layer (`self`, `module`), the layer's name and the std. */
interface WeightInit {
  readonly owner: string;
  readonly layer: string;
  readonly std: PyNode;
  /** The class (for `self`) or the `isinstance` arm the initialisation sits in: two are compared only within one. */
  readonly scope: PyNode;
}

/**
 * Whether the query projection of scores formed from `queryNode` and `keyNode` in a class is initialised with the
 * 1/sqrt(d) scale folded into its weights: an initialisation of each projection's weight (`nn.init.normal_(W, std=s)`,
 * `W.data.normal_(mean=0.0, std=s)`, `trunc_normal_`), in the class itself (`self.q.weight`) or, in this file or a
 * workspace file importing it, under `isinstance(module, Cls)` naming the class, in one function, where the sizes under
 * a negative square root in the query's std are the key's and at least one more. What the layers or sizes are called
 * decides nothing: the two projections are the ones the code applies to make q and k, and the sizes are compared
 * between the two expressions.
 */
export function queryInitCarriesScale(ev: Evaluator, site: PyNode, queryNode: PyNode | undefined, keyNode: PyNode | undefined): boolean {
  let cls: PyNode | null = site.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  if (!cls || !queryNode || !keyNode) return false;
  const qLayer = projectionLayer(ev, queryNode, 0);
  const kLayer = projectionLayer(ev, keyNode, 0);
  // One fused projection (`self.qkv(x)`) gives q and k the same weights' initialisation: nothing to compare.
  if (!qLayer || !kLayer || qLayer === kLayer) return false;
  const clsNameNode = childByField(cls, 'name');
  /* c8 ignore next -- the grammar gives every class_definition a name; the type makes the field optional */
  if (!clsNameNode) return false;
  const clsName = ev.text(clsNameNode);
  /* c8 ignore next -- the engine lints filtered trees, which carry whole(); a tree parsed whole has none and is whole */
  const trees: PyTree[] = [ev.tree.whole?.() ?? ev.tree];
  if (ev.link) {
    for (const path of importingFiles(ev.link, MAX_INIT_FILES, true)) {
      const m = ev.link.workspace.module(path);
      if (m && m.tree.source.includes(clsName)) trees.push(m.tree);
    }
  }
  const clsStart = cls.start;
  for (const tree of trees) {
    // The linted file's class, found again in its whole tree by its place.
    const own = tree === trees[0] ? clsStart : undefined;
    const inits = weightInits(tree, clsName, own);
    for (const q of inits) {
      if (q.layer !== qLayer) continue;
      const k = inits.find((i) => i.layer === kLayer && i.owner === q.owner && i.scope === q.scope);
      if (!k) continue;
      const qs = rootedSizes(tree, q.std);
      const ks = rootedSizes(tree, k.std);
      if (ks && qs && ks.size > 0 && qs.size > ks.size && [...ks].every((s) => qs.has(s))) return true;
    }
  }
  return false;
}

/**
 * The name of the layer of `self` whose call makes `node` (`self.q(x).view(...).transpose(1, 2)` → `q`), or, with no such
 * call, the one layer handed to a helper that applies it (`project(hidden_states, self.k, ...)`), following a name to its
 * one assignment, through shape steps and casts; undefined when no single such layer makes it.
 */
function projectionLayer(ev: Evaluator, node: PyNode, depth: number): string | undefined {
  if (depth > MAX_STEPS) return undefined;
  const n = unparen(node);
  if (n.type === 'identifier') {
    const defs = ev.resolve(n, ev.text(n));
    const d = defs?.length === 1 ? defs[0] : undefined;
    if (d?.kind !== 'assign' || !d.value || d.path.length > 1) return undefined;
    // `q, k = self.q(x), self.k(x)`: the element the name unpacks.
    const [i] = d.path;
    /* c8 ignore next -- the grammar gives every assignment its right side; the type makes the field optional */
    const value = unparen(d.value.type === 'assignment' ? (childByField(d.value, 'right') ?? d.value) : d.value);
    if (i === undefined) return projectionLayer(ev, value, depth + 1);
    if (value.type !== 'expression_list' && value.type !== 'tuple') return undefined;
    const part = namedChildren(value)[i];
    /* c8 ignore next -- a name unpacked from a written tuple is one of its elements (as many targets as elements) */
    return part ? projectionLayer(ev, part, depth + 1) : undefined;
  }
  const calls: string[] = [];
  // A layer handed to a local helper that applies it (`project(hidden_states, self.k, ...)`, as HF's T5 projects keys).
  const handed: string[] = [];
  const selfAttr = (x: PyNode | undefined): string | undefined => {
    const [obj, attr] = x?.type === 'attribute' ? namedChildren(x) : [];
    return obj?.type === 'identifier' && attr && ev.text(obj) === 'self' ? ev.text(attr) : undefined;
  };
  walk(n, (x) => {
    if (x.type !== 'call') return;
    const fn = childByField(x, 'function');
    const called = selfAttr(fn);
    if (called) calls.push(called);
    // Handed to a function called by its name (`project(h, self.k)`), not a size handed to a method (`k.view(b, n, self.heads, -1)`).
    if (fn?.type !== 'identifier') return;
    /* c8 ignore next -- the grammar gives every call its arguments; the type makes the field optional */
    for (const a of namedChildren(childByField(x, 'arguments') ?? x)) {
      const layer = selfAttr(a);
      if (layer) handed.push(layer);
    }
  });
  if (calls.length > 0) return calls.length === 1 ? calls[0] : undefined;
  if (handed.length > 0) return handed.length === 1 ? handed[0] : undefined;
  // A step on a tensor (`k.transpose(-2, -1)`, `k.float()`, `k[:, :n]`, `k.mT`): the tensor it steps from.
  const base = n.type === 'call' ? childByField(n, 'function') : n;
  const inner = base?.type === 'attribute' ? childByField(base, 'object') : base?.type === 'subscript' ? childByField(base, 'value') : undefined;
  return inner ? projectionLayer(ev, inner, depth + 1) : undefined;
}

/**
 * The weight initialisations of a tree that concern class `clsName`: inside the class itself (at `ownStart` for the
 * linted file's, or any class of that name) on `self.<layer>.weight`, and anywhere under `if isinstance(obj, ...)`
 * naming the class on `obj.<layer>.weight`.
 */
function weightInits(tree: PyTree, clsName: string, ownStart: number | undefined): WeightInit[] {
  const text = (n: PyNode): string => tree.source.slice(n.start, n.end);
  const out: WeightInit[] = [];
  walk(tree.root, (n) => {
    if (n.type !== 'call') return;
    const init = initCall(tree, n);
    if (!init) return;
    const m = /^(\w+)\.(\w+)\.weight(?:\.data)?$/.exec(text(unparen(init.weight)));
    if (!m) return;
    // A match of this pattern has both groups.
    const [owner, layer] = m.slice(1) as [string, string];
    for (let p = n.parent; p; p = p.parent) {
      if (owner === 'self' && p.type === 'class_definition') {
        // Only the linted class's own (`ownStart`; an importing file's `self` is another class's); compared within it.
        if (p.start === ownStart) out.push({ owner, layer, std: init.std, scope: p });
        return;
      }
      // Under the arm of an `if isinstance(owner, Cls):` (or `elif`), not its `else`.
      if (owner !== 'self' && (p.type === 'if_statement' || p.type === 'elif_clause') && inConsequence(p, n) && guardsInstance(tree, p, owner, clsName)) {
        out.push({ owner, layer, std: init.std, scope: p });
        return;
      }
    }
  });
  return out;
}

/** `node` is inside the consequence of the `if` or `elif` `stmt`. */
function inConsequence(stmt: PyNode, node: PyNode): boolean {
  const body = childByField(stmt, 'consequence');
  return !!body && body.start <= node.start && node.end <= body.end;
}

/** `if isinstance(owner, Cls)` or `isinstance(owner, (A, Cls))` (also `elif`), with the class's name as written. */
function guardsInstance(tree: PyTree, stmt: PyNode, owner: string, clsName: string): boolean {
  const cond = childByField(stmt, 'condition');
  /* c8 ignore next -- the grammar gives every if and elif its condition; the type makes the field optional */
  const written = cond ? tree.source.slice(cond.start, cond.end) : '';
  const m = /^isinstance\(\s*(\w+)\s*,\s*\(?([\w.,\s]*?)\)?\s*\)$/.exec(written);
  // A match of this pattern has both groups (the classes may be empty).
  const [obj, classes] = (m?.slice(1) ?? []) as [string?, string?];
  return (
    obj === owner &&
    String(classes)
      .split(',')
      .some((x) => x.trim().split('.').pop() === clsName)
  );
}

/**
 * An initialisation call drawing a weight from a normal distribution, with its standard deviation: the function form
 * `nn.init.normal_(W, mean, std)` / `trunc_normal_(W, std=s)` (std third or a keyword) and the method form
 * `W.normal_(mean, std)` / `W.data.normal_(mean=0.0, std=s)` (std second or a keyword).
 */
function initCall(tree: PyTree, call: PyNode): { weight: PyNode; std: PyNode } | undefined {
  const f = childByField(call, 'function');
  if (f?.type !== 'attribute' && f?.type !== 'identifier') return undefined;
  const text = (n: PyNode): string => tree.source.slice(n.start, n.end);
  const method = f.type === 'attribute' ? childByField(f, 'attribute') : f;
  if (!method || !/^(?:trunc_)?normal_$/.test(text(method))) return undefined;
  const args = callArgs(tree, call);
  const obj = f.type === 'attribute' ? childByField(f, 'object') : undefined;
  // The method form on a weight (`module.q.weight.data.normal_(...)`): the receiver is the weight, std the second.
  if (obj && /\.weight(?:\.data)?$/.test(text(obj))) {
    const std = argument(args, 'std', 1);
    return std ? { weight: obj, std } : undefined;
  }
  const weight = argument(args, 'tensor', 0);
  const std = argument(args, 'std', 2);
  return weight && std ? { weight, std } : undefined;
}

/**
 * The sizes a standard deviation takes a negative square root of, by their text (`factor * ((d_model * d_kv) ** -0.5)`
 * → {d_model, d_kv}; `1.0 / math.sqrt(d_model)` → {d_model}); an attribute counts by its last name (`config.d_kv`).
 * Undefined when the expression is any other form.
 */
function rootedSizes(tree: PyTree, std: PyNode): Set<string> | undefined {
  const text = (n: PyNode): string => tree.source.slice(n.start, n.end);
  const n = unparen(std);
  const out = new Set<string>();
  const factors = (e: PyNode): boolean => {
    const u = unparen(e);
    if (u.type === 'binary_operator' && operatorText(tree, u) === '*') {
      const l = childByField(u, 'left');
      const r = childByField(u, 'right');
      return !!l && !!r && factors(l) && factors(r);
    }
    if (u.type !== 'identifier' && u.type !== 'attribute') return false;
    out.add(text(u).split('.').pop()!);
    return true;
  };
  if (n.type === 'binary_operator') {
    const op = operatorText(tree, n);
    const l = childByField(n, 'left');
    const r = childByField(n, 'right');
    /* c8 ignore next -- a binary operator always has both operands */
    if (!l || !r) return undefined;
    // `base ** -0.5`
    if (op === '**' && /^-\s*0?\.5$/.test(text(unparen(r)))) return factors(l) ? out : undefined;
    // `1 / sqrt(base)`, `1.0 / math.sqrt(base)`
    if (op === '/' && /^1(?:\.0*)?$/.test(text(unparen(l)))) {
      const base = sqrtArgument(tree, r);
      return base && factors(base) ? out : undefined;
    }
    // `factor * rooted`: the factor (a number or a name not under the root) scales both alike.
    if (op === '*') {
      // Both sides rooted (`d_model ** -0.5 * d_kv ** -0.5`) count together.
      const parts = [rootedSizes(tree, l), rootedSizes(tree, r)].filter((x): x is Set<string> => x !== undefined);
      return parts.length > 0 ? new Set(parts.flatMap((x) => [...x])) : undefined;
    }
  }
  return undefined;
}

/** The argument of `sqrt(x)`, `math.sqrt(x)`, `np.sqrt(x)`; undefined for anything else. */
function sqrtArgument(tree: PyTree, node: PyNode): PyNode | undefined {
  const u = unparen(node);
  if (u.type !== 'call') return undefined;
  const f = childByField(u, 'function');
  if (!f || !/(?:^|\.)sqrt$/.test(tree.source.slice(f.start, f.end))) return undefined;
  /* c8 ignore next -- the grammar gives every call its arguments; the type makes the field optional */
  const args = namedChildren(childByField(u, 'arguments') ?? u);
  return args[0];
}
