// What the workspace's own code stores under a mask's name. A polarity read from a name (`encoder_padding_mask` as
// PyTorch's True = padding, `attention_mask` as the tokenizers' 1 = token) is a guess about which library's convention
// the code follows; where the project itself builds a mask and stores it under that very name (a dict entry
// `"encoder_padding_mask": enc["attention_mask"]`, a keyword `f(key_padding_mask=ids == pad)`, an assignment
// `src_mask = (src != pad)`), the construction shows the convention the project gives the name. ATT002 asks this of
// a finding that rests on a name: a store that contradicts the name's convention silences it.
//
// A store is a dict entry, a keyword argument (not of a library's mask parameter, a use judged there), an attribute or
// `x["name"] =` assignment, and in the linted file also a local variable of the name.
// Read from the linted file and the workspace files near it (its directory, those above, the directories beside
// them: importers.ts's candidates), each one first matched as text, then only the files naming the mask are parsed.
import { childByField, enclosingFunction, text, walk, type PyNode } from '../syntax/tree';
import { stringLiteral } from '../syntax/python';
import type { Evaluator } from './evaluator';
import { nearbyFiles } from './importers';
import type { Scope } from './scopes';
import type { MessageArg } from '../message';
import type { MaskInfo } from './values';

/** A store of the name found in the workspace, with the polarity its construction shows. */
export interface NameStore {
  readonly polarity: 'keep' | 'ignore';
  /** The workspace file (undefined: the linted file) and the stored value. */
  readonly path?: string;
  readonly node: PyNode;
  /** That file's source (for a related location in another file). */
  readonly source: string;
  /** What the construction is, as the evaluator says it. */
  readonly why: MessageArg;
}

/** Files (besides the linted one) whose stores of a name are read, at most. */
const MAX_FILES = 24;

const perLint = new WeakMap<Evaluator, Map<string, readonly NameStore[]>>();

/**
 * The stores of `name` in the workspace whose construction shows a polarity (not a name, a docstring, an additive
 * mask or a count): the linted file's own, then those of the files near it. A store made from the name's own value
 * (`encoder_padding_mask = encoder_padding_mask.unsqueeze(2)`) is read from the name and counts for nothing.
 */
export function workspaceStoresOf(ev: Evaluator, name: string): readonly NameStore[] {
  let memo = perLint.get(ev);
  if (!memo) perLint.set(ev, (memo = new Map()));
  const hit = memo.get(name);
  if (hit) return hit;
  // Re-entry while the stores are evaluated sees none.
  memo.set(name, []);
  const out: NameStore[] = [...storesIn(ev, name, undefined)];
  const link = ev.link;
  if (link?.importers) {
    const named = storeText(name);
    let read = 0;
    for (const path of nearbyFiles(link)) {
      if (read >= MAX_FILES) break;
      if (!link.workspace.textFacts(path, (src) => named.test(src))) continue;
      const m = link.workspace.module(path);
      if (!m) continue;
      read++;
      link.deps.set(path, link.workspace.files.version(path));
      out.push(...storesIn(m.ev, name, path));
    }
  }
  memo.set(name, out);
  return out;
}

/** A text match of a store of `name`: a dict key, a keyword or an assignment (a prefilter; the tree decides). */
function storeText(name: string): RegExp {
  const n = name.replace(/[^\w]/g, '');
  return new RegExp(`["']${n}["']\\s*[:\\]]|\\b${n}\\s*=[^=]`);
}

/** A mask whose polarity its construction shows. */
function shown(m: MaskInfo | undefined): m is MaskInfo & { polarity: 'keep' | 'ignore' } {
  return !!m?.polarity && !m.byName && !m.documented && !m.additive && !m.count && !m.negated && !m.join && !m.keyConvention;
}

function storesIn(ev: Evaluator, name: string, path: string | undefined): NameStore[] {
  const values: PyNode[] = [];
  const keywords: PyNode[] = [];
  const tree = ev.tree;
  walk(tree.root, (n) => {
    if (n.type === 'pair') {
      if (stringLiteral(tree, childByField(n, 'key')) === name) push(values, childByField(n, 'value'));
    } else if (n.type === 'keyword_argument') {
      const k = childByField(n, 'name');
      if (k && text(tree, k) === name) keywords.push(n);
    } else if (n.type === 'assignment') {
      const left = childByField(n, 'left');
      // A local variable of another file (`attention_mask = ~torch.tril(...)` handed on by position) names a value inside
      // one function there; only values passed on under the name (dict keys, keywords, attributes, `batch["name"] =`)
      // cross into other files. In the linted file its own locals count too.
      const target =
        left?.type === 'identifier'
          ? path === undefined
            ? text(tree, left)
            : undefined
          : left?.type === 'attribute'
            ? text(tree, childByField(left, 'attribute') ?? left)
            : left?.type === 'subscript'
              ? stringLiteral(tree, childByField(left, 'subscript'))
              : undefined;
      if (target === name) push(values, childByField(n, 'right'));
    }
  });
  // A keyword of a library's mask parameter (`nn.MultiheadAttention`'s `key_padding_mask=`) is a use whose convention
  // the library fixes, judged there (a keep mask given to it is a bug, not the project's convention for the name).
  for (const kw of keywords) {
    const v = childByField(kw, 'value');
    const call = kw.parent?.parent;
    if (!v) continue;
    // The call evaluated records its mask sites (a module of another file is evaluated only as far as it is asked).
    if (call?.type === 'call') ev.eval(call, ev.defaultCtx(scopeOf(ev, call)));
    if (!ev.facts.mask.some((s) => s.convention === 'api' && s.maskNode.start >= kw.start && s.maskNode.end <= kw.end)) values.push(v);
  }
  const out: NameStore[] = [];
  for (const v of values) {
    const m = ev.eval(v, ev.defaultCtx(scopeOf(ev, v))).mask;
    if (shown(m)) out.push({ polarity: m.polarity, ...(path !== undefined ? { path } : {}), node: v, source: tree.source, why: m.why });
  }
  return out;
}

/** The scope of the function (or lambda) a node sits in, or the module's. */
function scopeOf(ev: Evaluator, node: PyNode): Scope {
  const fn = enclosingFunction(node, true);
  return (fn ? ev.sr.scopeOfNode.get(fn.id) : undefined) ?? ev.sr.module;
}

function push(values: PyNode[], v: PyNode | undefined): void {
  if (v) values.push(v);
}

/**
 * The convention the workspace's stores give `name`: 'keep' or 'ignore' when every store that shows one agrees,
 * 'both' when they disagree, undefined when none shows one.
 */
export function workspaceConvention(ev: Evaluator, name: string): 'keep' | 'ignore' | 'both' | undefined {
  const stores = workspaceStoresOf(ev, name);
  const first = stores[0]?.polarity;
  if (first === undefined) return undefined;
  return stores.every((s) => s.polarity === first) ? first : 'both';
}
