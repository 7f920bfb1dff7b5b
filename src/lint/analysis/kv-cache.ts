// What the analysis knows about KV caches: calls that return keys and values including a cache, and when a
// causal flag is True relative to a cache being present (`is_causal=cache is not None or self.causal`,
// `is_causal = True` set inside `if past_kv is not None:` or in the arm that joins the keys with the cache),
// read path by path from the flag's definitions (if/elif/else arms; loop, try and match bodies may not run).
import { childByField, enclosingFunction, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';
import type { Evaluator } from './evaluator';
import { isCacheName } from './names';
import { rootName, type Call } from './call';
import type { Scope } from './scopes';
import { tensor, type AValue } from './values';

/**
 * `cache.update(k, v, ...)` on a cache of any kind (an object the analysis cannot see into, an attribute that
 * `__init__` sets to None and another method fills): the keys and values, both including the cache.
 */
export function cacheMethod(ev: Evaluator, c: Call): AValue | undefined {
  if (c.name !== 'update' || !c.recvNode || c.recv?.kind === 'tensor') return undefined;
  if (!isCacheName(rootName(ev, c.recvNode) ?? '')) return undefined;
  return { kind: 'tuple', elements: [tensor({ fromCache: true, role: 'key' }), tensor({ fromCache: true, role: 'value' })] };
}

/**
 * A piece of a concatenation that is the object's own state grown by it: `self.keys` in
 * `k = torch.cat([self.keys, k], dim=-2)` where the class stores the result back (`self.keys = k`,
 * `self.keys, self.values = k, v`, `self.keys = torch.cat([self.keys, k])`). Whatever the attribute is called,
 * keys kept across calls and extended by the new ones are a KV cache.
 */
export function isGrowingState(ev: Evaluator, piece: PyNode, concat: PyNode, scope: Scope): boolean {
  const cls = scope.ownerClass;
  if (!cls || !scope.selfName) return false;
  const state = stateItem(ev, unparen(piece), scope.selfName);
  if (!state) return false;
  const { attr, at } = state;
  for (const d of ev.classAttrDefs(cls, `self.${ev.text(attr)}`)) {
    // A base class of another file sets it: its nodes and offsets are that file's, never this concatenation.
    if (!ev.owns(d.scope)) continue;
    let value = d.value ? unparen(d.value) : undefined;
    if (value && d.path.length === 1 && (value.type === 'expression_list' || value.type === 'tuple')) value = namedChildren(value)[d.path[0] ?? -1];
    else if (d.path.length > 0) continue;
    // A pair stored back whole (`self.kv_cache = [k, v]`): the item the piece was read from.
    if (value && at !== undefined) value = itemAt(value, at);
    // `self.keys = k` where k's definition reaching that line is the concatenation, or holds it (a window cut from it,
    // `k = torch.cat([self.keys, k], dim=-2)[..., -window:, :]`).
    if (value && holdsConcat(ev, value, concat)) return true;
  }
  return false;
}

/**
 * The state a piece of a concatenation reads: `self.keys` itself, an item of a pair kept on the object
 * (`self.kv_cache[0]`), or a name unpacked from one (`c_k, c_v = self.kv_cache`, the item at its position).
 */
function stateItem(ev: Evaluator, u: PyNode, selfName: string): { attr: PyNode; at?: number } | undefined {
  const selfAttr = (n: PyNode | undefined): PyNode | undefined => {
    const a = n ? unparen(n) : undefined;
    const obj = a?.type === 'attribute' ? childByField(a, 'object') : undefined;
    return obj?.type === 'identifier' && ev.text(obj) === selfName ? childByField(a!, 'attribute') : undefined;
  };
  const direct = selfAttr(u);
  if (direct) return { attr: direct };
  if (u.type === 'subscript') {
    const index = namedChildren(u).find((n) => n.field === 'subscript');
    const attr = selfAttr(childByField(u, 'value'));
    return attr && index?.type === 'integer' ? { attr, at: Number(ev.text(index)) } : undefined;
  }
  if (u.type !== 'identifier') return undefined;
  const defs = ev.resolve(u, ev.text(u)) ?? [];
  const only = defs.length === 1 ? defs[0] : undefined;
  const attr = only?.path.length === 1 && !only.star ? selfAttr(only.value) : undefined;
  return attr ? { attr, at: only?.path[0] } : undefined;
}

/**
 * `x` holds the concatenation: it is the concatenation or an expression around it, or a name whose definition reaching
 * `x` is (`k` of `self.keys = k` after `k = torch.cat([self.keys, k])`).
 */
function holdsConcat(ev: Evaluator, x: PyNode, concat: PyNode): boolean {
  if (x.start <= concat.start && concat.end <= x.end) return true;
  if (x.type === 'identifier')
    for (const def of ev.sr.uses[x.id] ?? []) if (def.value && def.value.start <= concat.start && concat.end <= def.value.end) return true;
  return false;
}

/**
 * Whether the function `body` assigns to a subscript (`base[i] = ...`, `store[key] = ...`) that `test` accepts, given
 * the subscript written to, the value and the assignment: `test` answers undefined for an assignment that is not one
 * it looks for (the walk goes on inside it, `a[0] = b[0] = k`), a boolean for one it judged.
 */
function writesSubscript(body: PyNode, test: (left: PyNode, right: PyNode, assignment: PyNode) => boolean | undefined): boolean {
  let found = false;
  walk(body, (n) => {
    if (found) return false;
    if (n.type !== 'assignment') return true;
    const left = childByField(n, 'left');
    const right = childByField(n, 'right');
    if (left?.type !== 'subscript' || !right) return true;
    const judged = test(left, right, n);
    if (judged === undefined) return true;
    found = judged;
    return false;
  });
  return found;
}

/** The `at`-th item of a tuple, list or bare `a, b` written as a value. */
/** `P[0]`: a name indexed by a whole number written out, as the name's node and the index (undefined for any other piece). */
function constantItemOfName(ev: Evaluator, piece: PyNode): { base: PyNode; at: number } | undefined {
  const u = unparen(piece);
  if (u.type !== 'subscript') return undefined;
  const base = childByField(u, 'value');
  const index = namedChildren(u).find((n) => n.field === 'subscript');
  if (base?.type !== 'identifier' || index?.type !== 'integer') return undefined;
  return { base, at: Number(ev.text(index)) };
}

function itemAt(value: PyNode, at: number): PyNode | undefined {
  return value.type === 'tuple' || value.type === 'expression_list' || value.type === 'list' ? namedChildren(value)[at] : undefined;
}

/**
 * The container a piece was read from (`past` of `past[0]`) gets the concatenation back in place in the same function:
 * `past[:] = [k, v]` or `past[0] = k`, with `k` the concatenation or a name it defines. The caller's container then
 * holds the extended keys for its next call: a KV cache, whatever it is called.
 */
function writtenBackInPlace(ev: Evaluator, base: string, at: number, concat: PyNode): boolean {
  const body = enclosingFunction(concat);
  if (!body) return false;
  // Cheap first: no `base[...] =` anywhere in the function's text, no write-back to look for in its tree.
  // (`base` is an identifier: no character of it needs escaping.)
  if (!new RegExp(`\\b${base}\\s*\\[[^\\]]*\\]\\s*=(?!=)`).test(ev.text(body))) return false;
  return writesSubscript(body, (left, right, n) => {
    if (n.start < concat.end) return undefined;
    const value = childByField(left, 'value');
    if (value?.type !== 'identifier' || ev.text(value) !== base) return undefined;
    const index = namedChildren(left).find((c) => c.field === 'subscript');
    if (!index) return undefined;
    const r = unparen(right);
    if (index.type === 'slice' && namedChildren(index).length === 0) {
      const item = itemAt(r, at);
      return !!item && holdsConcat(ev, unparen(item), concat);
    }
    return index.type === 'integer' && Number(ev.text(index)) === at && holdsConcat(ev, r, concat);
  });
}

/**
 * A piece of a concatenation read from a parameter (`P[0]` of `torch.cat([P[0], k], dim=2)`) whose joined result the
 * function hands back to its caller in the same place (`return y, (k, v)` with `k` the concatenation, at index 0): the
 * caller's next call passes the extended keys back in. Keys that enter as an argument, are extended by the new ones
 * and returned in the argument's own layout are a KV cache, whatever the parameter is called (GPT-2's `layer_past`
 * and `present`, a `past` renamed `n1`).
 */
export function isHandedBack(ev: Evaluator, piece: PyNode, concat: PyNode): boolean {
  const item = constantItemOfName(ev, piece);
  if (!item) return false;
  const { base, at } = item;
  const defs = ev.resolve(base, ev.text(base)) ?? [];
  if (defs.length === 0 || !defs.every((d) => d.kind === 'param')) return false;
  let body: PyNode | null = concat.parent;
  while (body && body.type !== 'function_definition') body = body.parent;
  if (!body) return false;
  const holds = (x: PyNode): boolean => {
    if (x.start <= concat.start && concat.end <= x.end) return true;
    if (x.type === 'identifier')
      for (const def of ev.sr.uses[x.id] ?? []) if (def.value && def.value.start <= concat.start && concat.end <= def.value.end) return true;
    return false;
  };
  const fn = body;
  let found = false;
  walk(fn, (n) => {
    if (found || (n !== fn && (n.type === 'function_definition' || n.type === 'lambda'))) return false;
    if (n.type !== 'return_statement' || n.start < concat.end) return true;
    const ret = namedChildren(n)[0];
    const r = ret ? unparen(ret) : undefined;
    if (!r) return false;
    // The pair itself (`return k, v`) or a pair inside the returned tuple (`return y, (k, v)`).
    const pairs = [r, ...(r.type === 'tuple' || r.type === 'expression_list' ? namedChildren(r).map(unparen) : [])];
    for (const pair of pairs) {
      if (pair.type !== 'tuple' && pair.type !== 'expression_list' && pair.type !== 'list') continue;
      const item = namedChildren(pair)[at];
      if (item && namedChildren(pair).length >= 2 && holds(unparen(item))) found = true;
    }
    return false;
  });
  return found;
}

/**
 * A piece of a concatenation read from an entry of a store that the same function writes back under the same key
 * with the concatenation: `old = self.store.get(layer)`, `k = torch.cat([old[0], k], dim=-2)`,
 * `self.store[layer] = (k, v)`. Whatever the store and the entry are called, keys kept across calls under a key and
 * extended by the new ones are a KV cache.
 */
export function isStoredBack(ev: Evaluator, piece: PyNode, concat: PyNode): boolean {
  const item = constantItemOfName(ev, piece);
  if (!item) return false;
  const { base, at } = item;
  if (writtenBackInPlace(ev, ev.text(base), at, concat)) return true;
  const defs = ev.resolve(base, ev.text(base)) ?? [];
  const read = defs.length === 1 && defs[0]?.path.length === 0 && defs[0].value ? unparen(defs[0].value) : undefined;
  const fn = read?.type === 'call' ? childByField(read, 'function') : undefined;
  const store = fn?.type === 'attribute' && ev.text(childByField(fn, 'attribute') ?? fn) === 'get' ? childByField(fn, 'object') : undefined;
  const key = read ? namedChildren(childByField(read, 'arguments') ?? read)[0] : undefined;
  if (!store || !key || key.type === 'keyword_argument') return false;
  const storeText = ev.text(store);
  const keyText = ev.text(key);
  const body = enclosingFunction(concat);
  if (!body) return false;
  return writesSubscript(body, (left, right) => {
    if (ev.text(childByField(left, 'value') ?? left) !== storeText) return undefined;
    const leftKey = namedChildren(left).find((c) => c.field === 'subscript');
    if (!leftKey || ev.text(leftKey) !== keyText) return undefined;
    const item = itemAt(unparen(right), at);
    return !!item && holdsConcat(ev, item, concat);
  });
}

/**
 * Whether the code shows a cache reaching the keys `v` (marked `fromCache`), not only a name that suggests one: the
 * keys were joined with the cache where they entered (`cacheAt`: a call such as `torch.cat([past_k, k])` or
 * `cache.update(k, v)`, or a read of a buffer the file also writes, as in Llama's
 * `self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk` then `keys = self.cache_k[:bsz, : start_pos + seqlen]`).
 * Pieces unpacked from a name alone (`k, v = layer_past`, `k = cache[0]` of a cache nothing here writes) are not
 * evidence: what such a cache holds, and how many keys it has against the queries, is not in view.
 */
export function cacheReachesKeys(ev: Evaluator, v: AValue): boolean {
  if (!v.fromCache) return false;
  if (v.cacheIn) return !/^\s*[A-Za-z_][\w.]*\s*$/.test(v.cacheIn.source.slice(v.cacheIn.start, v.cacheIn.end));
  const at = v.cacheAt ? unparen(v.cacheAt) : undefined;
  // No place recorded: the value came from a call the evaluator followed (a method of a cache class).
  if (!at) return true;
  if (at.type === 'call') return callJoinsKeys(ev, at);
  if (at.type !== 'subscript') return false;
  // A buffer per layer read through its layer first (`self.k_cache[layer_idx][:B, :, :pos + T]`): the buffer's name.
  let root = childByField(at, 'value');
  while (root?.type === 'subscript') root = childByField(root, 'value');
  if (!root || (root.type !== 'identifier' && root.type !== 'attribute') || !inTree(at, ev.tree.root)) return false;
  return writtenInFile(ev.tree.source, ev.text(root)) || (readsPrefix(at) && holderHandedKeys(ev, root, at));
}

/**
 * Keys read back from a buffer from its first position up to the queries' own count, with no offset
 * (`self.cache_k[:B, :, :T]` for queries of length `T`, as a `prefill()` that writes the prompt at position 0 reads
 * it back): as many keys as queries, whatever the buffer holds beyond, so a top-left causal mask over them is right.
 * The read's last slice with a stop is the one along the positions (the batch comes first: `[:B, :, :T]`); it counts
 * when its stop is written as the queries' length axis was sized (`T` of `q.view(B, T, h, d).transpose(1, 2)`), the
 * second-to-last axis of queries laid out (..., L, E). A stop with an offset (`: start_pos + T`,
 * `: positions.max() + 1`) or a name bound elsewhere (`: end_pos`) is not this.
 */
export function bufferReadOfQueryCount(ev: Evaluator, keys: AValue, queries: AValue): boolean {
  if (queries.ndim === undefined || queries.ndim < 2) return false;
  const length = queries.axes?.[queries.ndim - 2]?.sizeText?.replace(/\s+/g, '');
  if (!length) return false;
  // Keys read in a file importing this one (`attend(q, self.cache_k[:B, :, :T], ...)` there): the read's text.
  if (keys.cacheIn) return lastSliceStop(keys.cacheIn.source.slice(keys.cacheIn.start, keys.cacheIn.end)) === length;
  const at = keys.cacheAt ? unparen(keys.cacheAt) : undefined;
  if (at?.type !== 'subscript' || !inTree(at, ev.tree.root)) return false;
  return lastSliceStop(ev.text(at)) === length;
}

/**
 * The stop of the last slice of a subscript read that has a bound, when that slice has a stop only (`T` of
 * `self.cache_k[:B, :, :T]`, of `self.k[layer][:, :T]`), without spaces; undefined when the last bounded slice has a
 * start (`[:, start:end]`), an offset is not a plain stop, or the text is no subscript of a name.
 */
function lastSliceStop(read: string): string | undefined {
  const t = read.replace(/\s+/g, '');
  const m = /^[A-Za-z_][\w.]*((?:\[[^[\]]*\])+)$/.exec(t);
  if (!m?.[1]) return undefined;
  const parts = (m[1].match(/\[[^[\]]*\]/g) ?? []).flatMap((b) => b.slice(1, -1).split(','));
  const bounded = parts.filter((p) => p.includes(':') && p !== ':' && p !== '::');
  const last = bounded[bounded.length - 1];
  const slice = last ? /^:([^:]+)$/.exec(last) : undefined;
  return slice?.[1];
}

/** Array-library names whose `.cat(...)`-style functions are called through the module (`torch.cat`, `np.concatenate`). */
const JOINS = /^(cat|concat|concatenate|hstack|vstack|dstack|stack|column_stack|append)$/;

/**
 * A call the keys came out of shows them joined with the cache: a concatenation (`torch.cat([past_k, k])`), a
 * function or module called on tensors (`repeat_kv(k, n)`), or a method of a cache object that is handed the new
 * keys (`cache.update(k, v, layer_idx)`, two tensors or more, `k = cache.extend(k)`, the keys themselves) or was
 * handed them by an earlier statement of the function (`cache.append(layer, k, v)` then `k, v = cache.get(layer)`).
 * A method that is handed neither (`k, v = kv_cache.get(layer_idx)`) reads what a cache holds on its name alone: how
 * many keys that is against the queries is not in view.
 */
function callJoinsKeys(ev: Evaluator, call: PyNode): boolean {
  const fn = childByField(call, 'function');
  if (fn?.type !== 'attribute') return true;
  const method = ev.text(childByField(fn, 'attribute') ?? fn);
  const holder = childByField(fn, 'object');
  if (JOINS.test(method) || !holder || (holder.type !== 'identifier' && holder.type !== 'attribute')) return true;
  const args = namedChildren(childByField(call, 'arguments') ?? call).filter((a) => a.type !== 'keyword_argument');
  if (args.length >= 2) return true;
  // `k = cache.extend(k)`, `k, v = cache.update(key_states=k, value_states=v, layer_idx=i)`: the new keys handed in,
  // by position or by keyword, are the names the result is bound to.
  const assigned = call.parent?.type === 'assignment' ? childByField(call.parent, 'left') : undefined;
  const targets = assigned ? (assigned.type === 'identifier' ? [assigned] : namedChildren(assigned)) : [];
  const handed = namedChildren(childByField(call, 'arguments') ?? call).map((a) => (a.type === 'keyword_argument' ? childByField(a, 'value') : a));
  if (handed.some((a) => a && targets.some((t) => ev.text(t) === ev.text(a)))) return true;
  return handedBefore(ev, holder, call);
}

/** A read of positions from the first on (`[:, :, :end]`, `[0, :, :positions.max() + 1]`): a slice with a stop and no start. */
function readsPrefix(sub: PyNode): boolean {
  for (let s: PyNode | undefined = sub; s?.type === 'subscript'; s = childByField(s, 'value'))
    for (const part of namedChildren(s).filter((p) => p.field === 'subscript'))
      if (part.type === 'slice') {
        const colon = part.children.find((ch) => ch.type === ':');
        const bounds = namedChildren(part);
        if (colon && bounds.length === 1 && bounds.every((b) => b.start > colon.start)) return true;
      }
  return false;
}

/**
 * The object holding the buffer (`self.kv_cache` of `self.kv_cache.k_cache`) is handed tensors by one of its methods,
 * as a statement of its own, earlier in the same function (`self.kv_cache.update_cache(seq_id, positions, k, v)`):
 * the function writes the new keys into the cache before reading it back.
 */
function holderHandedKeys(ev: Evaluator, buffer: PyNode, read: PyNode): boolean {
  if (buffer.type !== 'attribute') return false;
  const holder = childByField(buffer, 'object');
  if (!holder || (holder.type !== 'identifier' && holder.type !== 'attribute')) return false;
  return handedBefore(ev, holder, read);
}

/** `holder` is handed tensors by one of its methods (two arguments or more), as a statement of its own, before `read`. */
function handedBefore(ev: Evaluator, holder: PyNode, read: PyNode): boolean {
  const holderText = ev.text(holder);
  let fn = read.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  const body = fn ? childByField(fn, 'body') : undefined;
  if (!body) return false;
  let found = false;
  walk(body, (n) => {
    if (found || n.type !== 'expression_statement' || n.end > read.start) return;
    const call = namedChildren(n)[0];
    const callee = call?.type === 'call' ? childByField(call, 'function') : undefined;
    const args = call ? childByField(call, 'arguments') : undefined;
    const obj = callee?.type === 'attribute' ? childByField(callee, 'object') : undefined;
    if (obj && ev.text(obj) === holderText && args && namedChildren(args).length >= 2) found = true;
  });
  return found;
}

/** The node belongs to this tree (not to another workspace file's). */
function inTree(node: PyNode, root: PyNode): boolean {
  let r = node;
  while (r.parent) r = r.parent;
  return r === root;
}

/** `name[...] = x`, `name.index_copy_(...)` / `copy_` / `index_put_` / `scatter_` somewhere in the source. */
function writtenInFile(source: string, name: string): boolean {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w.])${n}\\s*\\[[^\\n=]*\\]\\s*=(?!=)|(^|[^\\w.])${n}(\\[[^\\n]*\\])?\\.(index_copy_|copy_|index_put_|scatter_)\\(`, 'm').test(
    source,
  );
}

/** A boolean's value in each of two worlds: with a KV cache present, and without. '?' = not known. */
export interface CacheTruth {
  readonly cached: boolean | '?';
  readonly uncached: boolean | '?';
}

const UNKNOWN_TRUTH: CacheTruth = { cached: '?', uncached: '?' };

function both(v: boolean): CacheTruth {
  return { cached: v, uncached: v };
}

function not(t: CacheTruth): CacheTruth {
  const n = (v: boolean | '?'): boolean | '?' => (v === '?' ? '?' : !v);
  return { cached: n(t.cached), uncached: n(t.uncached) };
}

function or(a: boolean | '?', b: boolean | '?'): boolean | '?' {
  return a === true || b === true ? true : a === false && b === false ? false : '?';
}

function and(a: boolean | '?', b: boolean | '?'): boolean | '?' {
  return a === false || b === false ? false : a === true && b === true ? true : '?';
}

/** Either value (a join of paths): known only when both agree. */
function either(a: boolean | '?', b: boolean | '?'): boolean | '?' {
  return a === b ? a : '?';
}

/** Where the reader of this module finds definitions and text. */
export interface FlagReader {
  text(node: PyNode): string;
  /**
   * Definitions of a name read at `node` (undefined when not resolved): the reaching ones for a variable; for
   * `self.flag`, the method's own reaching assignments, else every assignment to it in the class.
   */
  definitions(node: PyNode): readonly { readonly target: PyNode; readonly value?: PyNode; readonly path: readonly number[] }[] | undefined;
  /**
   * Where the keys judged were joined with the cache (`torch.cat([past_k, k])`, `cache.update(...)`), when known:
   * an `if` arm holding it ran in the cached world even when its condition (`if use_cache:`) says nothing.
   */
  readonly cacheJoinedAt?: PyNode;
  /** A value the caller takes for a name or attribute in the cached world (a module's causal flag), when it has one. */
  assume?(node: PyNode): boolean | undefined;
}

const MAX_DEPTH = 4;

/**
 * The value of a boolean expression with and without a KV cache. A cache name tested against None (or for
 * truth) is the world's marker; literals are what they are; a flag variable is read from its reaching
 * definitions, each counted only in the worlds where the branch holding it can run, and an earlier
 * definition is dropped in a world where a later branch certainly runs and redefines the flag.
 */
export function truthWithCache(r: FlagReader, node: PyNode, depth = 0): CacheTruth {
  const u = unparen(node);
  if (depth > MAX_DEPTH) return UNKNOWN_TRUTH;
  switch (u.type) {
    case 'true':
      return both(true);
    case 'false':
    case 'none':
      return both(false);
    case 'integer':
      return r.text(u) === '0' ? both(false) : r.text(u) === '1' ? both(true) : UNKNOWN_TRUTH;
    case 'not_operator': {
      const arg = childByField(u, 'argument');
      return arg ? not(truthWithCache(r, arg, depth + 1)) : UNKNOWN_TRUTH;
    }
    case 'boolean_operator': {
      const l = childByField(u, 'left');
      const rt = childByField(u, 'right');
      if (!l || !rt) return UNKNOWN_TRUTH;
      const a = truthWithCache(r, l, depth + 1);
      const b = truthWithCache(r, rt, depth + 1);
      const f = u.children.find((ch) => ch.field === 'operator')?.type === 'or' ? or : and;
      return { cached: f(a.cached, b.cached), uncached: f(a.uncached, b.uncached) };
    }
    case 'conditional_expression': {
      const [yes, cond, no] = namedChildren(u);
      if (!yes || !cond || !no) return UNKNOWN_TRUTH;
      const c = truthWithCache(r, cond, depth + 1);
      const a = truthWithCache(r, yes, depth + 1);
      const b = truthWithCache(r, no, depth + 1);
      const pick = (w: 'cached' | 'uncached'): boolean | '?' => (c[w] === true ? a[w] : c[w] === false ? b[w] : either(a[w], b[w]));
      return { cached: pick('cached'), uncached: pick('uncached') };
    }
    case 'comparison_operator': {
      const operands = namedChildren(u);
      const t = r.text(u).replace(/\s+/g, ' ');
      const [left, right] = operands;
      if (operands.length !== 2 || !left || !right || !isCacheOperand(r, left)) return UNKNOWN_TRUTH;
      if (right.type !== 'none') return UNKNOWN_TRUTH;
      if (/ is not None$/.test(t)) return { cached: true, uncached: false };
      if (/ is None$/.test(t)) return { cached: false, uncached: true };
      return UNKNOWN_TRUTH;
    }
    case 'identifier':
    case 'attribute': {
      // A cache object tested for truth (`if past_kv:`).
      if (isCacheOperand(r, u)) return { cached: true, uncached: false };
      const assumed = r.assume?.(u);
      if (assumed !== undefined) return both(assumed);
      const t = flagFromDefinitions(r, u, depth);
      // A parameter the arm joining the keys with the cache requires (`if cache_enabled:` around the join): True
      // wherever the cache was joined, whatever its default says.
      return requiredByJoin(r, u) ? { cached: true, uncached: t.uncached } : t;
    }
    default:
      return UNKNOWN_TRUTH;
  }
}

/**
 * `name` is a parameter of the function (never assigned in it) that the condition of an `if`/`elif` arm around the
 * join requires to hold: the condition itself (`if cache_enabled:`) or a part of an `and` of it
 * (`if use_cache and past is not None:`). The keys were joined with the cache only where it held.
 */
function requiredByJoin(r: FlagReader, name: PyNode): boolean {
  const join = r.cacheJoinedAt;
  if (!join || name.type !== 'identifier') return false;
  const defs = r.definitions(name);
  if (!defs || defs.length === 0 || !defs.every((d) => d.target.parent?.type !== 'assignment' && isParameterTarget(d.target))) return false;
  const text = r.text(name);
  const requires = (cond: PyNode): boolean => {
    const c = unparen(cond);
    if (c.type === 'identifier') return r.text(c) === text;
    if (c.type !== 'boolean_operator' || c.children.find((ch) => ch.field === 'operator')?.type !== 'and') return false;
    return namedChildren(c).some(requires);
  };
  for (let child: PyNode = join, p = join.parent; p && p.type !== 'function_definition'; child = p, p = p.parent) {
    if ((p.type === 'if_statement' || p.type === 'elif_clause') && child.field === 'consequence') {
      const cond = childByField(p, 'condition');
      if (cond && requires(cond)) return true;
    }
  }
  return false;
}

/** A definition target that is a parameter of a function (`def f(x, cache_enabled=False)`). */
function isParameterTarget(target: PyNode): boolean {
  let n: PyNode | null = target;
  while (n && n.type !== 'parameters' && n.type !== 'function_definition' && n.type !== 'block') n = n.parent;
  return n?.type === 'parameters';
}

function isCacheOperand(r: FlagReader, node: PyNode): boolean {
  const u = unparen(node);
  if (u.type !== 'identifier' && u.type !== 'attribute') return false;
  const name = u.type === 'attribute' ? r.text(childByField(u, 'attribute') ?? u) : r.text(u);
  // A boolean about caching (`use_cache`, `prev_causal`) is not the cache.
  if (isCacheName(name) && !/causal|^(use|is|has)_|enabled?$|flag/i.test(name)) return true;
  return r.cacheJoinedAt !== undefined && joinedCacheHolders(r, r.cacheJoinedAt).includes(r.text(u));
}

/**
 * What the cached part of a concatenation along the keys is read from, whatever it is called: the first piece of
 * `torch.cat([past[0], k], dim=2)` (the cached positions come before the new ones), as the names it is read through
 * (`past[0]` → `past`; `layer_past.key` → `layer_past.key`, `layer_past`), never `self` alone. Testing one of them
 * against None (`if past is None:`) is testing for the cache.
 */
function joinedCacheHolders(r: FlagReader, join: PyNode): string[] {
  const j = unparen(join);
  if (j.type !== 'call') return [];
  const args = childByField(j, 'arguments');
  const first = args ? namedChildren(args)[0] : undefined;
  const seq = first ? unparen(first) : undefined;
  if (!seq || (seq.type !== 'list' && seq.type !== 'tuple')) return [];
  const pieces = namedChildren(seq);
  if (pieces.length < 2) return [];
  const out: string[] = [];
  const head = pieces[0];
  for (let n: PyNode | undefined = head ? unparen(head) : undefined; n;) {
    if (n.type === 'subscript') n = childByField(n, 'value');
    else if (n.type === 'identifier') {
      if (r.text(n) !== 'self') out.push(r.text(n));
      n = undefined;
    } else if (n.type === 'attribute') {
      const obj = childByField(n, 'object');
      if (obj && !(obj.type === 'identifier' && r.text(obj) === 'self' && out.length > 0)) out.push(r.text(n));
      n = obj;
    } else n = undefined;
  }
  // The new keys are not the cache: a name the other pieces read is left out.
  const others = pieces.slice(1).map((p) => r.text(unparen(p)));
  return out.filter((name) => !others.some((o) => o === name || o.startsWith(`${name}[`) || o.startsWith(`${name}.`)));
}

function flagFromDefinitions(r: FlagReader, use: PyNode, depth: number): CacheTruth {
  const defs = r.definitions(use);
  if (!defs || defs.length === 0 || defs.some((d) => !d.value || d.path.length > 0)) return UNKNOWN_TRUTH;
  const live = defs.map((d) => ({ d, guard: branchGuard(r, d.target, depth) }));
  const world = (w: World): boolean | '?' => {
    // A branch that certainly runs in this world, and is certainly reached after a definition, redefines the
    // flag: that definition is dead here.
    const certain = live.filter((x) => x.guard && x.guard.truth[w] === true).map((x) => x.guard!.ifNode);
    const reaching = live.filter(
      (x) =>
        (!x.guard || x.guard.truth[w] !== false) && !certain.some((ifNode) => x.d.target.end <= ifNode.start && reachedAfter(r, ifNode, x.d.target, w, depth)),
    );
    if (reaching.length === 0) return '?';
    let v: boolean | '?' | undefined;
    for (const x of reaching) {
      const t = truthWithCache(r, x.d.value!, depth + 1)[w];
      v = v === undefined ? t : either(v, t);
    }
    return v ?? '?';
  };
  return { cached: world('cached'), uncached: world('uncached') };
}

type World = 'cached' | 'uncached';

/** Statements whose bodies may run zero or several times, or stop part-way: nothing in them certainly runs. */
const UNCERTAIN_BODIES = new Set(['for_statement', 'while_statement', 'try_statement', 'except_clause', 'finally_clause', 'match_statement', 'case_clause']);

/**
 * The innermost branch around a definition (an `if`/`elif`/`else` arm, a loop or try body), and whether the
 * definition's arm runs in each world. A loop or try body is unknown in both.
 */
function branchGuard(r: FlagReader, target: PyNode, depth: number): { ifNode: PyNode; truth: CacheTruth } | undefined {
  let child: PyNode = target;
  for (let p = target.parent; p; child = p, p = p.parent) {
    if (p.type === 'function_definition' || p.type === 'class_definition' || p.type === 'module') return undefined;
    if (p.type === 'else_clause' && p.parent?.type === 'if_statement') return { ifNode: p.parent, truth: armTruth(r, p.parent, p, depth) };
    if ((p.type === 'if_statement' || p.type === 'elif_clause') && child.field === 'consequence') {
      const ifNode = p.type === 'if_statement' ? p : p.parent;
      if (ifNode?.type !== 'if_statement') return undefined;
      return { ifNode, truth: armTruth(r, ifNode, p, depth) };
    }
    if (UNCERTAIN_BODIES.has(p.type)) return { ifNode: p, truth: UNKNOWN_TRUTH };
  }
  return undefined;
}

/**
 * Whether an arm of `ifNode` (the if_statement itself for its first arm, an elif_clause, an else_clause) runs in
 * each world: its condition holds and every earlier condition failed. Where the conditions say nothing, the
 * place the keys were joined with the cache does: the arm holding the join ran in the cached world, the others
 * did not.
 */
function armTruth(r: FlagReader, ifNode: PyNode, arm: PyNode, depth: number): CacheTruth {
  const arms = [ifNode, ...ifNode.children.filter((c) => c.type === 'elif_clause' || c.type === 'else_clause')];
  let cached: boolean | '?' = true;
  let uncached: boolean | '?' = true;
  for (const a of arms) {
    const cond = a.type === 'else_clause' ? undefined : childByField(a, 'condition');
    const t = a.type === 'else_clause' ? both(true) : cond ? truthWithCache(r, cond, depth + 1) : UNKNOWN_TRUTH;
    if (a === arm) {
      cached = and(cached, t.cached);
      uncached = and(uncached, t.uncached);
      break;
    }
    cached = and(cached, not(t).cached);
    uncached = and(uncached, not(t).uncached);
  }
  const join = r.cacheJoinedAt;
  if (cached === '?' && join && ifNode.start <= join.start && join.end <= ifNode.end) {
    const body = (a: PyNode): PyNode | undefined => (a.type === 'else_clause' ? childByField(a, 'body') : childByField(a, 'consequence'));
    const holder = arms.find((a) => {
      const b = body(a);
      return b !== undefined && b.start <= join.start && join.end <= b.end;
    });
    if (holder) cached = holder === arm;
  }
  return { cached, uncached };
}

/**
 * Whether `ifNode` is reached on every path that runs `def` and goes on to the use: every statement between the
 * innermost block holding both and `ifNode` is a `with` or an arm that certainly runs in this world (not a loop
 * or try body, not an arm that may be skipped).
 */
function reachedAfter(r: FlagReader, ifNode: PyNode, def: PyNode, w: World, depth: number): boolean {
  let child: PyNode = ifNode;
  for (let p = ifNode.parent; p; child = p, p = p.parent) {
    if (p.start <= def.start && def.end <= p.end) return p.type === 'block' || p.type === 'module';
    if (p.type === 'block' || p.type === 'with_statement') continue;
    if (p.type === 'if_statement' || p.type === 'elif_clause' || p.type === 'else_clause') {
      const g = branchGuard(r, child, depth + 1);
      if (!g || g.truth[w] !== true) return false;
      continue;
    }
    return false;
  }
  return false;
}
