// Where facts come from: the evaluator hands every value it computes for an expression to `withOrigin`,
// which records that expression as the origin of a mask or of a KV cache the value carries for the first time,
// and as the place a mask's meaning was inverted when its True now means the opposite of what it meant there.
// Values derived later (unsqueeze, `~m`, `.to(bool)`, a join of two paths) copy the fields they keep, so the
// origin stays where the fact was created: the comparison `ids == pad_id`, the `torch.tril(...)`, the
// `torch.cat([past_k, k], dim=-2)`. Rules quote these places as related locations of their findings.
import type { PyNode } from '../syntax/tree';
import type { AValue, MaskInfo } from './values';

/**
 * Expressions that only pass a value on: a name read, parentheses, a keyword argument or assignment. A fact
 * first seen there was made elsewhere (a parameter, an index assignment, a loop variable): its origin is the
 * definition, which `definitionSite` supplies.
 */
const PASSING: ReadonlySet<string> = new Set([
  'identifier',
  'parenthesized_expression',
  'keyword_argument',
  'assignment',
  'named_expression',
  'await',
  'conditional_expression',
  'boolean_operator',
]);

/**
 * `v` with `node` recorded as the origin of its mask and its cache when they have none yet (for a tuple, of
 * each element: `k, v = cache.update(k, v)`). `definitionSite` names where a name read's value was defined
 * (its latest reaching definition), for facts that did not come from an expression.
 */
export function withOrigin(v: AValue, node: PyNode, definitionSite: (node: PyNode) => PyNode | undefined): AValue {
  // Most values carry neither fact, or carry it with its origin already: nothing to do.
  if (v.kind === 'tuple') {
    const els = v.elements;
    if (!els || !els.some(needsOrigin)) return v;
    const at = originNode(node, definitionSite);
    return at ? { ...v, elements: els.map((e) => stamp(e, at)) } : v;
  }
  if (!needsOrigin(v)) return v;
  const at = originNode(node, definitionSite);
  return at ? stamp(v, at) : v;
}

function needsOrigin(v: AValue): boolean {
  const m = v.mask;
  return (m !== undefined && (m.origin === undefined || flipped(m))) || (v.fromCache === true && v.cacheAt === undefined);
}

/** The mask's True now means the opposite of what it meant at its origin (or at its last recorded inversion). */
function flipped(m: MaskInfo): boolean {
  const before = (m.flippedAt ?? m.origin)?.polarity;
  return before !== undefined && m.polarity !== undefined && before !== m.polarity;
}

function originNode(node: PyNode, definitionSite: (node: PyNode) => PyNode | undefined): PyNode | undefined {
  if (!PASSING.has(node.type)) return node;
  return node.type === 'identifier' ? definitionSite(node) : undefined;
}

function stamp(v: AValue, at: PyNode): AValue {
  if (!needsOrigin(v)) return v;
  const out: { -readonly [K in keyof AValue]: AValue[K] } = { ...v };
  const m = v.mask;
  if (m && m.origin === undefined) out.mask = { ...m, origin: { node: at, polarity: m.polarity, additive: m.additive } };
  else if (m && flipped(m)) out.mask = { ...m, flippedAt: { node: at, polarity: m.polarity } };
  if (v.fromCache && v.cacheAt === undefined) out.cacheAt = at;
  return out;
}

/** The latest of a name's reaching definitions (the statement that last set it before the read). */
export function latestDefinition(defs: readonly { readonly target: PyNode }[] | undefined): PyNode | undefined {
  let best: PyNode | undefined;
  for (const d of defs ?? []) if (!best || d.target.start > best.start) best = d.target;
  return best;
}
