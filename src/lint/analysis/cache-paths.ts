// Which paths of an attention function run with a KV cache, for ATT008: a causal mask the code applies only when
// no cache is passed (`if cache is None: att = att.masked_fill(self.future[:T, :T], -inf)`) on keys a cache object
// extends in place, and a module's own causal flag (`self.causal = causal` from `__init__`, whose parameter defaults
// to True) read True on keys a cache grows, since a module decoding with a KV cache is built causal.
import { childByField, enclosingFunction, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';
import { earlyExitCondition } from '../syntax/python';
import type { Evaluator } from './evaluator';
import type { FillSite, MatmulSite } from './facts';
import type { Scope } from './scopes';
import { isGrowingState, truthWithCache, type FlagReader } from './kv-cache';

/**
 * The `if` conditions around `node` inside its function, each with whether `node` sits in the arm where the
 * condition holds (the `if`/`elif` arm itself) or where it failed (a later arm, or past an earlier `if` of an
 * enclosing block, with no other arm, whose body ends in a return or raise: `if cache.offset > 0: return ...`).
 */
function armsAround(node: PyNode): { cond: PyNode; holds: boolean }[] {
  const out: { cond: PyNode; holds: boolean }[] = [];
  for (let child: PyNode = node, p = node.parent; p && p.type !== 'function_definition'; child = p, p = p.parent) {
    if (p.type === 'block') {
      for (const s of p.children) {
        if (s.start >= child.start) break;
        const cond = earlyExitCondition(s);
        if (cond) out.push({ cond, holds: false });
      }
      continue;
    }
    const ifNode = p.type === 'if_statement' ? p : p.type === 'elif_clause' || p.type === 'else_clause' ? p.parent : undefined;
    const mine = p.type === 'if_statement' ? (child.field === 'consequence' ? p : undefined) : p;
    if (ifNode?.type !== 'if_statement' || !mine) continue;
    for (const a of [ifNode, ...ifNode.children.filter((c) => c.type === 'elif_clause' || c.type === 'else_clause')]) {
      const cond = a.type === 'else_clause' ? undefined : childByField(a, 'condition');
      if (cond) out.push({ cond, holds: a === mine });
      if (a === mine) break;
    }
    p = ifNode;
  }
  return out;
}

/**
 * The code at `node` runs only where the caller passes a mask of its own that the code there does not read: an arm
 * whose condition requires a mask parameter of the function to be given (`if flash and attn_mask is not None:`, fairseq
 * and torchscale code that substitutes `LowerTriangularMask()` for the causal mask its decoder passes), the parameter not
 * used at `node`. The caller decides when that path runs, and its decoder may pass the mask only without a cache.
 */
export function runsOnlyWithCallerMask(ev: Evaluator, node: PyNode): boolean {
  const scope = functionScope(ev, node);
  const names = (scope?.params ?? []).map((p) => p.name).filter((n) => /mask|bias/i.test(n));
  if (names.length === 0) return false;
  const used = (name: string): boolean => new RegExp(`\\b${name}\\b`).test(ev.text(node));
  return armsAround(node).some(({ cond, holds }) => names.some((name) => !used(name) && givenIn(ev, cond, name, holds)));
}

/** Whether `cond` having the truth value `holds` says `name` is given (`name is not None` holding, or within an `and`). */
function givenIn(ev: Evaluator, cond: PyNode, name: string, holds: boolean): boolean {
  const c = unparen(cond);
  if (c.type === 'boolean_operator') {
    const op = ev
      .text(c)
      .slice(childByField(c, 'left')!.end - c.start, childByField(c, 'right')!.start - c.start)
      .trim();
    return ((op === 'and' && holds) || (op === 'or' && !holds)) && namedChildren(c).some((part) => givenIn(ev, part, name, holds));
  }
  if (c.type === 'not_operator') {
    const arg = childByField(c, 'argument');
    return !!arg && givenIn(ev, arg, name, !holds);
  }
  const t = ev.text(c).replace(/\s+/g, ' ');
  return (holds && t === `${name} is not None`) || (!holds && t === `${name} is None`);
}

/** The scope of the function around `node` (a method's, for `self.flag` read in it). */
export function functionScope(ev: Evaluator, node: PyNode): Scope | undefined {
  return ev.sr.scopeOfNode.get(enclosingFunction(node)?.id ?? -1);
}

/**
 * The code at `node` runs only without a KV cache: an enclosing `if` arm whose condition is known False with the
 * cache (`if layer_past is None:` around `sdpa(q, k, v, is_causal=True)`, the cached step taking the `else` arm), read
 * with `join` (where the keys were joined with the cache) as the cached world's marker.
 */
export function runsOnlyWithoutCache(flags: FlagReader, node: PyNode, join: PyNode | undefined): boolean {
  // A module's `self.training` is False where a cache decodes (generation runs in eval mode): read so only to excuse a
  // path (`if self.training or past is None: sdpa(..., is_causal=True)`), never to report one.
  const reader: FlagReader = { ...flags, cacheJoinedAt: join, assume: (n) => (isSelfTraining(flags, n) ? false : flags.assume?.(n)) };
  const offset = join ? readOffset(flags, join) : undefined;
  const holders = join ? cacheHolders(flags, join) : [];
  const isOffset = (n: PyNode): boolean => flags.text(n) === offset;
  const countsHolder = (n: PyNode): boolean => holders.some((h) => readsCountOf(flags.text(n), h)) || countNameOf(flags, n, holders);
  return armsAround(node).some(
    ({ cond, holds }) =>
      truthWithCache(reader, cond).cached === !holds ||
      (offset !== undefined && zeroIn(flags, cond, isOffset) === holds) ||
      (holders.length > 0 && zeroIn(flags, cond, countsHolder) === holds),
  );
}

/** `self.training` (nn.Module's mode flag). */
function isSelfTraining(flags: FlagReader, n: PyNode): boolean {
  return flags.text(n) === 'self.training';
}

/**
 * The code at `node` runs only with a KV cache: an enclosing `if` arm whose condition is known False without it
 * (`if past is not None:` around the call, or the arm that joins the keys with the cache).
 */
export function runsOnlyWithCache(flags: FlagReader, node: PyNode, join: PyNode | undefined): boolean {
  const reader = { ...flags, cacheJoinedAt: join };
  return armsAround(node).some(({ cond, holds }) => truthWithCache(reader, cond).uncached === !holds);
}

/**
 * The cache objects the keys were joined with at `join`: the receiver of `cache.update(k, v)`, the container the
 * cached piece of `torch.cat([past[0], k], dim=2)` is read from (`past`); never `self` alone.
 */
function cacheHolders(flags: FlagReader, join: PyNode): string[] {
  const j = unparen(join);
  if (j.type !== 'call') return [];
  const fn = childByField(j, 'function');
  if (fn?.type === 'attribute' && flags.text(childByField(fn, 'attribute') ?? fn) === 'update') {
    const obj = childByField(fn, 'object');
    return obj && flags.text(obj) !== 'self' ? [flags.text(obj)] : [];
  }
  const list = namedChildren(childByField(j, 'arguments') ?? j)[0];
  const head = list && (list.type === 'list' || list.type === 'tuple') && namedChildren(list).length >= 2 ? namedChildren(list)[0] : undefined;
  let root = head ? unparen(head) : undefined;
  while (root?.type === 'subscript') root = childByField(root, 'value');
  return root && (root.type === 'identifier' || root.type === 'attribute') && flags.text(root) !== 'self' ? [flags.text(root)] : [];
}

/**
 * A local name every definition of which is 0 or a count of one of the cache objects (`past_len = 0`, then
 * `past_len = past_key_value[0].size(2)` where the cache is passed): zero exactly when the cache holds nothing.
 */
function countNameOf(flags: FlagReader, n: PyNode, holders: readonly string[]): boolean {
  if (n.type !== 'identifier') return false;
  const defs = flags.definitions(n);
  if (!defs || defs.length === 0) return false;
  return defs.every((d) => {
    const v = d.value && d.path.length === 0 ? unparen(d.value) : undefined;
    return !!v && (flags.text(v) === '0' || holders.some((h) => readsCountOf(flags.text(v), h)));
  });
}

/**
 * `t` reads how many positions the cache object `holder` holds: a count, length or position read off it
 * (`cache.offset`, `past_key_value.get_seq_length()`, `past[0].size(2)`, `len(cache)`), not another attribute such as
 * its layer (`cache.layer_idx`). Where that is zero, the cache adds no keys to the new ones.
 */
function readsCountOf(t: string, holder: string): boolean {
  const h = holder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`^len\\(\\s*${h}\\s*\\)$`).test(t)) return true;
  if (!new RegExp(`^${h}[.[]`).test(t)) return false;
  const rest = t.slice(holder.length);
  return /len|size|shape|offset|pos|seq|count|step|tokens|filled|cur/i.test(rest) && !/layer/i.test(rest);
}

/**
 * The offset a preallocated buffer is read up to, past the cached positions: `start_pos` of
 * `self.cache_k[:B, :, :start_pos + T]` (a read from the first position on whose stop is the offset plus the new
 * length). Where the offset is zero the read holds only the new keys, as many as the queries (the prompt's step).
 */
function readOffset(flags: FlagReader, join: PyNode): string | undefined {
  for (let s: PyNode | undefined = unparen(join); s?.type === 'subscript'; s = childByField(s, 'value'))
    for (const part of namedChildren(s).filter((p) => p.field === 'subscript')) {
      const colon = part.type === 'slice' ? part.children.find((ch) => ch.type === ':') : undefined;
      const [only, ...more] = namedChildren(part);
      const stop = only && more.length === 0 && colon && only.start > colon.start ? unparen(only) : undefined;
      if (stop?.type !== 'binary_operator' || stop.children.find((c) => !c.named)?.type !== '+') continue;
      const left = childByField(stop, 'left');
      if (left && (left.type === 'identifier' || left.type === 'attribute')) return flags.text(left);
    }
  return undefined;
}

/**
 * Whether `cond` holding says a name `isName` accepts is zero (true: `name == 0`, `0 == name`, `not name`) or not holding does
 * (false: `name > 0`, `name != 0`, `name`, `0 < name`); undefined when it says neither.
 */
const CONDITION_TYPES = new Set(['comparison_operator', 'boolean_operator', 'not_operator']);

function zeroIn(flags: FlagReader, cond: PyNode, isName: (node: PyNode) => boolean): boolean | undefined {
  const c = unparen(cond);
  // The name tested for truth (`if start_pos:`, `if cache.offset:`): it holds when the name is not zero.
  if (!CONDITION_TYPES.has(c.type) && isName(c)) return false;
  if (c.type === 'boolean_operator') {
    // `a and b` holding makes both hold; `a or b` failing makes both fail.
    const op = c.children.find((ch) => !ch.named)?.type;
    const sides = namedChildren(c).map((p) => zeroIn(flags, p, isName));
    if (op === 'and' && sides.includes(true)) return true;
    if (op === 'or' && sides.includes(false)) return false;
    return undefined;
  }
  if (c.type === 'not_operator') {
    const arg = childByField(c, 'argument');
    return arg && isName(unparen(arg)) ? true : undefined;
  }
  if (c.type !== 'comparison_operator') return undefined;
  const parts = namedChildren(c);
  const ops = c.children.filter((ch) => !ch.named).map((ch) => ch.type);
  if (parts.length !== 2 || ops.length !== 1) return undefined;
  const [pa, pb] = parts.map((p) => unparen(p));
  const [a, b] = parts.map((p) => flags.text(unparen(p)));
  const op = ops[0];
  if (pa && isName(pa) && b === '0') return op === '==' ? true : op === '!=' || op === '>' ? false : undefined;
  if (pb && isName(pb) && a === '0') return op === '==' ? true : op === '!=' || op === '<' ? false : undefined;
  return undefined;
}

/** A cache object updated in place (`cache.update(k, v)`) or the class's own growing state: not a `past` handed back. */
function extendedInPlace(ev: Evaluator, join: PyNode): boolean {
  const call = unparen(join);
  const fnNode = childByField(call, 'function');
  const args = childByField(call, 'arguments');
  if (call.type !== 'call' || !fnNode || !args) return false;
  if (fnNode.type === 'attribute' && ev.text(childByField(fnNode, 'attribute') ?? fnNode) === 'update') return true;
  const scope = functionScope(ev, call);
  const list = namedChildren(args)[0];
  if (!scope || !/\bcat$/.test(ev.text(fnNode)) || !list || (list.type !== 'list' && list.type !== 'tuple')) return false;
  return namedChildren(list).some((p) => isGrowingState(ev, p, call, scope));
}

/** The attributes of the module's own state a concatenation grows (`self.kv_cache` of `c_k, c_v = self.kv_cache`). */
function grownState(ev: Evaluator, join: PyNode): string[] {
  const call = unparen(join);
  const fnNode = childByField(call, 'function');
  const args = childByField(call, 'arguments');
  const scope = functionScope(ev, call);
  const list = args ? namedChildren(args)[0] : undefined;
  if (call.type !== 'call' || !fnNode || !scope || !/\bcat$/.test(ev.text(fnNode)) || !list || (list.type !== 'list' && list.type !== 'tuple')) return [];
  const out: string[] = [];
  for (const p of namedChildren(list)) {
    if (!isGrowingState(ev, p, call, scope)) continue;
    // The state's attribute as written (`self.kv_cache`), through an index or a name unpacked from it.
    const u = unparen(p);
    const defs = u.type === 'identifier' ? (ev.resolve(u, ev.text(u)) ?? []) : [];
    const from = defs.length === 1 && defs[0]?.value ? unparen(defs[0].value) : u.type === 'subscript' ? childByField(u, 'value') : u;
    if (from?.type === 'attribute') out.push(ev.text(from));
  }
  return out;
}

/**
 * The condition reads the state (`self.kv_cache is None`), directly or through a name bound once to such a test; with
 * `before`, only a reading written before that offset (the state as the call found it, before the join grew it).
 */
function readsState(ev: Evaluator, cond: PyNode, state: readonly string[], depth = 0, before = Infinity): boolean {
  const t = ev.text(cond);
  if (cond.start < before && state.some((a) => new RegExp(`(^|[^\\w.])${a.replace(/\./g, '\\.')}\\b`).test(t))) return true;
  if (depth > 1) return false;
  let found = false;
  walk(cond, (n) => {
    if (found || n.type !== 'identifier') return !found;
    const defs = ev.resolve(n, ev.text(n)) ?? [];
    if (defs.length === 1 && defs[0]?.value && defs[0].path.length === 0) found = readsState(ev, defs[0].value, state, depth + 1, before);
    return false;
  });
  return found;
}

/**
 * The function hands its keys back (`return out, (k, v)`, `return out, present`): the caller may fill the cache
 * from a call without it and pass it only for single-token steps.
 */
function returnsKeys(ev: Evaluator, fn: PyNode, join: PyNode): boolean {
  const assigned = join.parent?.type === 'assignment' ? childByField(join.parent, 'left') : undefined;
  // The keys' name: the target of the join, or the first of `k, v = cache.update(k, v)`.
  const target = assigned && (assigned.type === 'identifier' ? assigned : namedChildren(assigned)[0]);
  const name = target?.type === 'identifier' ? new RegExp(`\\b${ev.text(target)}\\b`) : undefined;
  // What is handed back: the returned values themselves, or the items of a returned tuple (`return out, (k, v)`), not
  // the arguments of a call (`return F.scaled_dot_product_attention(q, k, v, ...)` hands back only the output).
  const handsBack = (n: PyNode): boolean => {
    const u = unparen(n);
    // A later item of a returned tuple built from the keys (`return out, torch.stack((k, v))`) hands them back too.
    const built = (item: PyNode, i: number): boolean => i > 0 && unparen(item).type === 'call' && name?.test(ev.text(item)) === true;
    if (u.type === 'tuple' || u.type === 'expression_list' || u.type === 'list') return namedChildren(u).some((item, i) => handsBack(item) || built(item, i));
    if (u.type === 'dictionary') return namedChildren(u).some((pair) => handsBack(childByField(pair, 'value') ?? pair));
    if (u.type === 'identifier') return name?.test(ev.text(u)) === true || /\b(present|past|cache|kv)\w*/i.test(ev.text(u));
    return u.type === 'attribute' && /\b(present|past|cache|kv)\w*/i.test(ev.text(u));
  };
  let found = false;
  walk(fn, (n) => {
    if (found || n.type !== 'return_statement') return !found;
    found = namedChildren(n).some(handsBack);
    return false;
  });
  return found;
}

/** `assert T == 1` / `if q.size(-2) != 1: raise`: the function holds the query length to one token itself. */
function checksQueryLength(ev: Evaluator, fn: PyNode): boolean {
  // An assert whose test is an `or` (`assert not cache_enabled or x.shape[1] == 1 or self.kv_cache is None`) holds the
  // length to one only when its other parts fail: the prompt on an empty cache still runs with several queries.
  return /\bassert\b(?![^\n]*\bor\b)[^\n]*(==|!=|<=?)\s*1\b|\bif\b[^\n]*(!=|>)\s*1\s*:\s*\n?\s*raise\b/.test(ev.text(fn));
}

/**
 * Hand-written causal attention that masks the scores only when no KV cache is passed
 * (`if cache is None: att = att.masked_fill(self.upper[:T, :T], -inf)`), on keys a cache object extends in place
 * (`k, v = cache.update(k, v)`, state the class grows): the only way the prompt's keys reach such a cache is a call
 * with the cache attached and the whole prompt as queries, and there no mask is applied, so the prompt's tokens see
 * the tokens after them. Returns the mask, the scores' product and where the keys were joined with the cache. Undefined when
 * another mask or fill reaches the same scores, when `guarded` (the lengths compared around the fill), when the
 * function checks the query length (`assert T == 1`) or hands its keys back.
 */
export function maskSkippedWithCache(
  ev: Evaluator,
  flags: FlagReader,
  site: FillSite,
  guarded: (node: PyNode) => boolean,
): { mask: PyNode; scores: MatmulSite; join: PyNode } | undefined {
  const attn = site.target.attn;
  const mask = site.maskNode;
  if (!mask || !site.mask?.mask?.causal || attn?.stage !== 'scores') return undefined;
  const formed = ev.facts.matmulAt(attn.formedAt);
  const scores = formed[0];
  const join = scores?.b.cacheAt;
  if (!join || !formed.every((mm) => mm.b.fromCache && !mm.a.fromCache) || !extendedInPlace(ev, join)) return undefined;
  // The fill runs only in the world without a cache: some enclosing condition is known False with the cache.
  const reader = { ...flags, cacheJoinedAt: join };
  const skipped = armsAround(site.node).some(({ cond, holds }) => {
    // Known skipped with the cache, and not known skipped without it too (a mask that never runs is no mask).
    const t = truthWithCache(reader, cond);
    return t.cached === !holds && t.uncached !== !holds;
  });
  const fn = enclosingFunction(site.node);
  if (!skipped || !fn || guarded(site.node) || checksQueryLength(ev, fn) || returnsKeys(ev, fn, join)) return undefined;
  // State the module grows is None or empty until the prompt fills it: a test of that state (`if self.keys is None:`,
  // `prefill = self.kv_cache is None` then `if not cache_enabled or prefill:`) masks the prompt, not only calls with
  // no cache attached.
  const state = grownState(ev, join);
  if (state.length > 0 && armsAround(site.node).some(({ cond }) => readsState(ev, cond, state))) return undefined;
  // Another mask or fill on the same scores (a padding or causal mask passed in, a bottom-right cut) may cover the
  // cached path.
  if (ev.facts.fill.some((f) => f.node !== site.node && f.target.attn?.formedAt === attn.formedAt)) return undefined;
  return { mask, scores, join };
}

/**
 * SDPA's causal flag False whenever a KV cache is passed and True without one (`is_causal=past_key_value is None`),
 * on keys a cache object extends in place (`k, v = past_key_value.update(k, v, self.layer_idx)`, state the class
 * grows): the prompt can only reach such a cache through a call with the cache attached and several queries, which
 * then attend without a causal mask. Returns where the keys were joined with the cache. Left alone when `guarded` (the lengths compared around the call), when the
 * function checks the query length (`assert T == 1`) or hands its keys back (the caller may fill the cache itself).
 */
export function causalOffWithCache(
  ev: Evaluator,
  flags: FlagReader,
  valueNode: PyNode,
  join: PyNode | undefined,
  call: PyNode,
  guarded: (node: PyNode) => boolean,
): PyNode | undefined {
  if (!join || !extendedInPlace(ev, join)) return undefined;
  const t = truthWithCache({ ...flags, cacheJoinedAt: join }, valueNode);
  if (t.cached !== false || t.uncached !== true) return undefined;
  const fn = enclosingFunction(call);
  if (!fn || guarded(call) || checksQueryLength(ev, fn) || returnsKeys(ev, fn, join)) return undefined;
  // A flag that tests the state the module grows as the call found it (`prefill = self.kv_cache is None` before the
  // join, then `is_causal=prefill`): the prompt meets that state empty and runs causal; only later calls, with the
  // state filled, turn the mask off.
  const state = grownState(ev, join);
  return state.length > 0 && readsState(ev, valueNode, state, 0, join.start) ? undefined : join;
}

/**
 * `self.causal` whose every assignment in the class is `self.causal = causal`, a parameter of `__init__` named for
 * causality with a default of True, known True where some call in view builds the module (`seenTrue`), or set
 * True by keyword where the file builds the module with it (`keywordTrue`: `causal=True` in a call of the class
 * itself or of `partial(Attention, causal=True)`; not a keyword of any other call, whose object is not this module,
 * nor another class's default): True (a module
 * whose keys grow by a KV cache decodes autoregressively, and the code says it is built causal); undefined for
 * anything else. A parameter with no default and no True in view says nothing about the value: a guess, not evidence.
 */
function constructorCausalFlag(
  ev: Evaluator,
  r: FlagReader,
  node: PyNode,
  seenTrue: (node: PyNode) => boolean,
  keywordTrue: (name: string) => boolean,
): boolean | undefined {
  const u = unparen(node);
  const defs = u.type === 'attribute' && /causal/i.test(ev.text(childByField(u, 'attribute') ?? u)) ? r.definitions(u) : undefined;
  if (!defs || defs.length === 0) return undefined;
  for (const d of defs) {
    const value = d.value && unparen(d.value);
    const init = enclosingFunction(d.target);
    if (value?.type !== 'identifier' || d.path.length > 0 || !init || ev.text(childByField(init, 'name') ?? init) !== '__init__') return undefined;
    const params = (ev.resolve(value, ev.text(value)) ?? []).map((p) => p.param);
    const param = params.length === 1 ? params[0] : undefined;
    if (!param || !/causal/i.test(param.name)) return undefined;
    // The value is seen True: the parameter's default, the flag itself where some call in view builds the module
    // (`SelfAttention(dim, causal=True)` in an importing file), or a keyword of that name set True in the file
    // (where the module is built in a way the evaluator does not follow).
    const defaultTrue = !!param.default && ev.text(unparen(param.default)) === 'True';
    if (!defaultTrue && !seenTrue(u) && !keywordTrue(param.name)) return undefined;
  }
  return true;
}

/** A padding-mask test (`mask is None`, `attention_mask_info.attention_mask is None`), not a cache test. */
function maskIsNoneTest(ev: Evaluator, n: PyNode | undefined): boolean {
  const t = n ? ev.text(n) : '';
  return /mask/i.test(t) && /\bis\s+None\b/.test(t) && !/cache|past/i.test(t);
}

/**
 * A causal flag with the module's own flag taken True (constructorCausalFlag), read with the cache on the calls
 * where a padding-mask test around it holds (`self.causal if mask is None else False`, `mask is None and
 * self.causal`): `{ when }` names that test, `{}` when there is none; undefined when the flag is not True with the
 * cache, or compares the query and key lengths itself (`self.causal and q_len > 1`).
 */
export function causalForCausalModule(
  ev: Evaluator,
  flags: FlagReader,
  valueNode: PyNode,
  cacheAt: PyNode | undefined,
  seenTrue: (node: PyNode) => boolean,
  keywordTrue: (name: string) => boolean,
): { when?: PyNode } | undefined {
  const reader: FlagReader = { ...flags, cacheJoinedAt: cacheAt, assume: (n) => constructorCausalFlag(ev, flags, n, seenTrue, keywordTrue) };
  const u = unparen(valueNode);
  const text = ev.text(u);
  if (/shape|size\(|\blen\(|_len\b|seq/i.test(text) || /[<>]|==|!=/.test(text.replace(/\bis\s+(not\s+)?None\b/g, ''))) return undefined;
  const trueWithCache = (n: PyNode): boolean => truthWithCache(reader, n).cached === true;
  if (u.type === 'conditional_expression') {
    const [yes, cond, no] = namedChildren(u);
    const ok = yes && cond && no && maskIsNoneTest(ev, cond) && truthWithCache(reader, no).cached === false && trueWithCache(yes);
    return ok ? { when: cond } : undefined;
  }
  const l = childByField(u, 'left');
  const r = childByField(u, 'right');
  if (u.type === 'boolean_operator' && l && r && u.children.some((c) => c.field === 'operator' && c.type === 'and')) {
    if (maskIsNoneTest(ev, l)) return trueWithCache(r) ? { when: l } : undefined;
    if (maskIsNoneTest(ev, r)) return trueWithCache(l) ? { when: r } : undefined;
  }
  return trueWithCache(u) ? {} : undefined;
}
