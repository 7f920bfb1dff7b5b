// What the analysis knows about KV caches: calls that return keys and values including a cache, and when a
// causal flag is True relative to a cache being present (`is_causal=cache is not None or self.causal`,
// `is_causal = True` set inside `if past_kv is not None:`), read path by path from the flag's definitions.
import { childByField, namedChildren, unparen, type PyNode } from '../syntax/tree';
import type { Evaluator } from './evaluator';
import { isCacheName } from './names';
import { rootName, type Call } from './call';
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
      if (operands.length !== 2 || !isCacheOperand(r, operands[0])) return UNKNOWN_TRUTH;
      if (operands[1].type !== 'none') return UNKNOWN_TRUTH;
      if (/ is not None$/.test(t)) return { cached: true, uncached: false };
      if (/ is None$/.test(t)) return { cached: false, uncached: true };
      return UNKNOWN_TRUTH;
    }
    case 'identifier':
    case 'attribute': {
      // A cache object tested for truth (`if past_kv:`).
      if (isCacheOperand(r, u)) return { cached: true, uncached: false };
      return flagFromDefinitions(r, u, depth);
    }
    default:
      return UNKNOWN_TRUTH;
  }
}

function isCacheOperand(r: FlagReader, node: PyNode): boolean {
  const u = unparen(node);
  if (u.type !== 'identifier' && u.type !== 'attribute') return false;
  const name = u.type === 'attribute' ? r.text(childByField(u, 'attribute') ?? u) : r.text(u);
  // A boolean about caching (`use_cache`, `prev_causal`) is not the cache.
  return isCacheName(name) && !/causal|^(use|is|has)_|enabled?$|flag/i.test(name);
}

function flagFromDefinitions(r: FlagReader, use: PyNode, depth: number): CacheTruth {
  const defs = r.definitions(use);
  if (!defs || defs.length === 0 || defs.some((d) => !d.value || d.path.length > 0)) return UNKNOWN_TRUTH;
  const world = (w: 'cached' | 'uncached'): boolean | '?' => {
    const live = defs.map((d) => ({ d, guard: branchGuard(r, d.target, depth) }));
    // A branch that certainly runs in this world redefines the flag: definitions before its `if` are dead here.
    const certain = live.filter((x) => x.guard && x.guard.truth[w] === true).map((x) => x.guard!.ifNode);
    const reaching = live.filter((x) => (!x.guard || x.guard.truth[w] !== false) && !certain.some((ifNode) => x.d.target.end <= ifNode.start));
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

/** The innermost `if` around a definition, and whether the definition's branch runs in each world. */
function branchGuard(r: FlagReader, target: PyNode, depth: number): { ifNode: PyNode; truth: CacheTruth } | undefined {
  let child: PyNode = target;
  for (let p = target.parent; p; child = p, p = p.parent) {
    if (p.type === 'function_definition' || p.type === 'class_definition' || p.type === 'module') return undefined;
    if (p.type === 'else_clause' && p.parent?.type === 'if_statement') {
      const ifNode = p.parent;
      const cond = childByField(ifNode, 'condition');
      // Only a plain if/else: with elif branches the else runs when every condition fails.
      if (!cond || ifNode.children.some((c) => c.type === 'elif_clause')) return { ifNode, truth: UNKNOWN_TRUTH };
      return { ifNode, truth: not(truthWithCache(r, cond, depth + 1)) };
    }
    if (p.type === 'if_statement' && child.field === 'consequence') {
      const cond = childByField(p, 'condition');
      return { ifNode: p, truth: cond ? truthWithCache(r, cond, depth + 1) : UNKNOWN_TRUTH };
    }
    if (p.type === 'elif_clause' || p.type === 'for_statement' || p.type === 'while_statement' || p.type === 'try_statement')
      return { ifNode: p, truth: UNKNOWN_TRUTH };
  }
  return undefined;
}
