// Values that cross from one file's analysis into another's. An abstract value may point at syntax nodes of
// the file it was computed in (where scores were formed, the operations on the way to them, a layer's
// constructor); those mean nothing in another file's tree, so they are dropped at the boundary. What is
// proven of the value itself stays: rank and axes, dtype, roles, mask polarity and kind, cache origin,
// numbers and their dimensions, tuple structure and a dict's entries by key. Operations of unknown effect stay unknown (an opaque
// step), so rules judging a path of operations stay silent rather than guess.
//
// Values returned to the caller also say where their evidence lives: a mask's explanation gains
// "from `make_pad_mask` in utils.py:12", which the finding's message then quotes (and the engine turns into
// a related location with that file's path).
import type { PyNode } from '../syntax/tree';
import { msg } from '../message';
import { PHRASES } from './phrases';
import type { AValue, DimInfo, MaskInfo, MaskJoin, PathOp } from './values';

/** Where a value returned from another file was computed. */
export interface ValueOrigin {
  /** Workspace-relative path of that file. */
  readonly path: string;
  /** 1-based line and column of the evidence (the return statement of the helper). */
  readonly line: number;
  readonly column: number;
  /** The helper's name as the caller knows it. */
  readonly name: string;
}

/** Text a message quotes for an origin: "utils.py:12". */
export function originRef(o: { path: string; line: number }): string {
  return `${o.path}:${o.line}`;
}

const MAX_DEPTH = 4;

/**
 * Keeps the functions, classes and objects of the analysed files (their owners evaluate them). `at` is the
 * call, in the receiving file, that returned the value: attention scores formed in the other file are said to
 * be formed there (their key axis kept, its explanation naming the other file).
 */
export function portable(v: AValue, origin?: ValueOrigin, depth = 0, at?: PyNode): AValue {
  if (depth > MAX_DEPTH) return { kind: 'unknown' };
  switch (v.kind) {
    case 'tensor':
    case 'unknown':
      return portableTensor(v, origin, depth, at);
    case 'number': {
      const out: { -readonly [K in keyof AValue]: AValue[K] } = { kind: 'number' };
      copy(out, v, ['maybeNone', 'num', 'scaleName', 'headCount', 'finfo', 'finfoMax', 'maskingFill']);
      if (v.dimPow) out.dimPow = { dim: portableDim(v.dimPow.dim), power: v.dimPow.power };
      return out;
    }
    case 'bool': {
      // Where a flag was set is a node of the other file: its truth crosses, with the call that passed it on.
      if (!v.setAt) return v;
      const { setAt: _setAt, ...rest } = v;
      return origin && v.truth !== undefined ? { ...rest, setIn: { path: origin.path, line: origin.line } } : rest;
    }
    case 'string':
    case 'none':
    case 'dtype':
    case 'module':
      // Plain data.
      return v;
    case 'finfo':
      return { kind: 'finfo', ...(v.finfoOf ? { finfoOf: v.finfoOf } : {}) };
    case 'tuple': {
      const out: { -readonly [K in keyof AValue]: AValue[K] } = { kind: 'tuple' };
      if (v.maybeNone) out.maybeNone = true;
      if (v.elements) out.elements = v.elements.map((e) => portable(e, origin, depth + 1, at));
      // Copies of an argument the caller passed (`[copy.deepcopy(module) for _ in range(n)]`) cross as the stand-in.
      if (v.items?.passedArg !== undefined) out.items = { kind: 'unknown', passedArg: v.items.passedArg };
      if (v.shapeOf) out.shapeOf = portable(v.shapeOf, undefined, depth + 1);
      return out;
    }
    case 'function':
      // The function's own file evaluates it when it is called (evaluator.ts: callFunction); the bound self
      // crosses as a plain instance.
      return v.fn ? { kind: 'function', fn: { scope: v.fn.scope, ...(v.fn.self ? { self: portable(v.fn.self, undefined, depth + 1) } : {}) } } : v;
    case 'class':
      return v;
    case 'object':
      // The instance without its constructor call (a node of the file that created it).
      return v.object ? { kind: 'object', object: { cls: v.object.cls }, ...(v.maybeNone ? { maybeNone: true } : {}) } : v;
    default:
      // Layers (their constructor node), tokenizer outputs and anything else: unknown here.
      return { kind: 'unknown', ...(v.maybeNone ? { maybeNone: true } : {}) };
  }
}

function portableTensor(v: AValue, origin: ValueOrigin | undefined, depth: number, at: PyNode | undefined): AValue {
  const out: { -readonly [K in keyof AValue]: AValue[K] } = { kind: v.kind };
  copy(out, v, [
    'maybeNone',
    'ndim',
    'axes',
    'dtype',
    'role',
    'roleText',
    'featLast',
    'channelFirst',
    'fromConv',
    'multiHead',
    'normalized',
    'sumNormalised',
    'fromCache',
    'cacheIn',
    'tokenIds',
    'index',
    'ones',
    'identity',
    'zeros',
    'fillValue',
    'fillFinfo',
    'projectedWidth',
    'widthCut',
    'featAt',
    'lastSize1',
    'learned',
    'reversedUnknownRank',
    'passedArg',
  ]);
  // Operations on the way (scales, masks) name nodes of the other file: their effect is unknown here, except a
  // scale by a known power of a dimension in a value a helper returns (`return q / math.sqrt(q.size(-1))`), kept
  // as a scale applied at the call that returned it, and a mask step (`return s.masked_fill(m == 0, -inf)`), kept as
  // a mask applied there (portableOp).
  if (v.ops && v.ops.some((alt) => alt.length > 0)) out.ops = at ? v.ops.map((alt) => alt.map((o) => portableOp(o, at))) : [[{ kind: 'opaque' }]];
  if (v.mask) out.mask = portableMask(v.mask, origin);
  if (v.attn?.stage === 'scores' && origin && at) {
    // Scores q·kᵀ formed by a helper of the other file: the key axis stays known, and so do their steps (below).
    const a = v.attn;
    out.attn = {
      stage: 'scores',
      formedAt: at,
      formedIn: { path: origin.path, line: origin.line, column: origin.column, name: origin.name },
      ...(a.keyAxis !== undefined
        ? {
            keyAxis: a.keyAxis,
            keyAxisWhy: msg(PHRASES.scoresFormedInOtherFile, a.keyAxisWhy ?? msg(PHRASES.keyAxisIs, a.keyAxis), `\`${origin.name}\``, originRef(origin)),
          }
        : {}),
      ...(a.queryText !== undefined ? { queryText: a.queryText } : {}),
      ...(a.keyText !== undefined ? { keyText: a.keyText } : {}),
      ...(a.keyIsKey ? { keyIsKey: true } : {}),
      ...(a.queryAxes ? { queryAxes: a.queryAxes } : {}),
      // What the code there shows of the scores' axes, in no node of that file: the query axis, heads paired with heads
      // (q and k laid out (…, T, H, hd)), a local window (no query axis), a learned pooling query, pairs merged into one
      // axis. The same facts a helper of this file would hand back.
      ...(a.queryAxis !== undefined ? { queryAxis: a.queryAxis } : {}),
      ...(a.headsPaired !== undefined ? { headsPaired: a.headsPaired, ...(a.headsPairedBySwap ? { headsPairedBySwap: true } : {}) } : {}),
      ...(a.local ? { local: true as const } : {}),
      ...(a.learnedPoolingQuery ? { learnedPoolingQuery: true as const } : {}),
      ...(a.pairsMerged ? { pairsMerged: true as const } : {}),
    };
    // Their steps there cross as other values' do (portableOp): a scale by a known power of a dimension and a mask
    // step (a fill, a where, an additive mask) as applied at the call, anything else (an unknown function, a
    // product with a 0/1 mask, a scale of unknown form) as an unknown step; scores formed there with no step on the
    // way (`return q @ k.transpose(-2, -1)`) are unscaled here too (ATT003), as they would be in one file. Operands
    // that came in with steps of this file (`helper(q * s, k)`) crossed as unknown steps, so their product is unknown.
    out.ops = (v.ops ?? []).map((alt) => alt.map((o) => portableOp(o, at)));
  }
  if (v.shapeOf) out.shapeOf = portable(v.shapeOf, undefined, depth + 1);
  // A projection's widths as written there, when the code split its whole width into heads (`Dense(d_k)` then
  // `reshape(x, (B, T, heads, -1))`): a scale by that width here is the model width's (ATT004). Its input stays there.
  if (v.proj?.splitIntoHeads && v.proj.outText)
    out.proj = {
      input: { kind: 'unknown' },
      outText: v.proj.outText,
      ...(v.proj.inText ? { inText: v.proj.inText } : {}),
      splitIntoHeads: true,
      ...(v.proj.stackedOnBatch ? { stackedOnBatch: true } : {}),
      ...(origin ? { splitIn: { path: origin.path, line: origin.line } } : v.proj.splitIn ? { splitIn: v.proj.splitIn } : {}),
    };
  // A dict with known keys (a collate function's `{"feats": x, "padding_mask": m}`): its entries cross as values do.
  if (v.kwargs) out.kwargs = v.kwargs.map(([k, x]) => [k, portable(x, origin, depth + 1, at)] as const);
  // Scores cut to a triangle there (`torch.triu(scores)`): the cut crosses with its text, the call that made it stays
  // there. Whether the value is still that cut unchanged is for the crossing to show (cross-file.ts, importer-calls.ts).
  if (v.triCut) out.triCut = { region: v.triCut.region, k: v.triCut.k, text: v.triCut.text };
  return out;
}

function portableMask(m: MaskInfo, origin: ValueOrigin | undefined): MaskInfo {
  // `origin` and `flippedAt` are nodes of the other file: here the mask is first seen at the call that returned it
  // (origins.ts).
  const { origin: _origin, flippedAt: _flippedAt, join: _join, triangleSiteAt: _site, productSiteAt: _product, ...rest } = m;
  if (!origin) return rest;
  // A wrong join made there and returned from a helper is judged where the mask is read: its parts cross as masks
  // do, and the combination's place in the other file goes with them (a related location of the finding).
  const j = m.join;
  const node = j?.at?.node ?? m.origin?.node;
  const elsewhere = j?.elsewhere ?? (node ? { path: origin.path, start: node.start, end: node.end } : undefined);
  const join: MaskJoin | undefined = j && {
    kind: j.kind,
    causal: portableMask(j.causal, origin),
    pad: portableMask(j.pad, origin),
    ...(elsewhere ? { elsewhere } : {}),
  };
  return { ...rest, why: msg(PHRASES.fromOtherFile, m.why, `\`${origin.name}\``, originRef(origin)), ...(join ? { join } : {}) };
}

function portableOp(o: PathOp, at: PyNode): PathOp {
  // The stand-in of an argument's history in this crossing (cross-file.ts) holds no node: it crosses back as it is.
  if (o.kind === 'opaque') return o.passed !== undefined ? { kind: 'opaque', passed: o.passed } : { kind: 'opaque' };
  // A mask step there (a fill, a where, an additive mask, an index assignment) is a mask step at the call here: the
  // scores were masked, though not by a mask this file can read (no mask node, so no rule judges the mask itself).
  // A product with a 0/1 mask or a 0/1 mask added stays unknown: reporting it is for the file that shows it.
  if (o.kind === 'mask')
    return o.how === 'mul' || o.how === 'add01' ? { kind: 'opaque' } : { kind: 'mask', node: at, how: o.how, ...(o.unshown ? { unshown: true } : {}) };
  if (o.kind !== 'scale' || o.power === undefined || !o.dim) return { kind: 'opaque' };
  return { kind: 'scale', node: at, factorNode: at, power: o.power, dim: portableDim(o.dim), on: o.on, ...(o.named ? { named: o.named } : {}) };
}

function portableDim(d: DimInfo): DimInfo {
  return { which: d.which, text: d.text, ...(d.rooted ? { rooted: d.rooted } : {}) };
}

function copy(out: { -readonly [P in keyof AValue]: AValue[P] }, v: AValue, keys: readonly (keyof AValue)[]): void {
  for (const k of keys) if (v[k] !== undefined) (out as Record<keyof AValue, unknown>)[k] = v[k];
}
