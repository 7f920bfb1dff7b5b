// Narrowing by None tests. In `if mask is not None: mask = pair_of(mask)` (or `if exists(mask):` with
// `def exists(val): return val is not None`) the path that skips the block is the one where the name is None, so a
// definition made before the block reaches a later read only as None: the read is the block's value or None, not a
// join of the block's value with whatever the earlier definition was (a parameter's name, say).
import { childByField, namedChildren, unparen, type PyNode } from '../syntax/tree';
import type { Def } from './scopes';

/** What the evaluator offers: the source text of a node and a name's reaching definitions. */
export interface NoneGuardHost {
  text(node: PyNode): string;
  resolve(node: PyNode, name: string): Def[] | undefined;
}

const IS_NOT_NONE_HELPER = /^def\s+\w+\s*\(\s*(\w+)\s*(?::[^)]*)?\)\s*(?:->[^:]*)?:\s*return\s+(\w+)\s+is\s+not\s+None\s*$/;

/** `name is not None`, or a call of a helper of this file whose whole body is `return <param> is not None`. */
function testsNotNone(host: NoneGuardHost, cond0: PyNode, name: string): boolean {
  const cond = unparen(cond0);
  if (cond.type === 'comparison_operator') {
    return /^\s*(\w+)\s+is\s+not\s+None\s*$/.exec(host.text(cond))?.[1] === name;
  }
  if (cond.type !== 'call') return false;
  const fn = childByField(cond, 'function');
  const args = childByField(cond, 'arguments');
  const argList = args ? namedChildren(args) : [];
  const first = argList[0];
  const only = argList.length === 1 && first ? unparen(first) : undefined;
  if (!fn || fn.type !== 'identifier' || !only || only.type !== 'identifier' || host.text(only) !== name) return false;
  const defs = host.resolve(fn, host.text(fn));
  const def = defs && defs.length === 1 ? defs[0] : undefined;
  const body = def?.kind === 'funcdef' ? def.defines?.node : undefined;
  if (!body) return false;
  const m = IS_NOT_NONE_HELPER.exec(host.text(body).trim());
  return !!m && m[1] === m[2];
}

const GUARDS = new WeakMap<Def, PyNode | null>();

/** The `if` statement whose consequence assigns `def` at its top level and whose condition says the name is not None. */
function guardOf(host: NoneGuardHost, def: Def): PyNode | undefined {
  if (def.kind !== 'assign') return undefined;
  let g = GUARDS.get(def);
  if (g === undefined) {
    g = findGuard(host, def) ?? null;
    GUARDS.set(def, g);
  }
  return g ?? undefined;
}

function findGuard(host: NoneGuardHost, def: Def): PyNode | undefined {
  const stmt = def.target.parent?.type === 'assignment' ? def.target.parent.parent : undefined;
  const block = stmt?.type === 'expression_statement' ? stmt.parent : undefined;
  const ifStmt = block?.type === 'block' && block.field === 'consequence' ? block.parent : undefined;
  if (!ifStmt || ifStmt.type !== 'if_statement') return undefined;
  const cond = childByField(ifStmt, 'condition');
  return cond && testsNotNone(host, cond, def.name) ? ifStmt : undefined;
}

/**
 * The reaching definitions of a read split in two: those that reach it, and those that reach it only through a
 * skipped `if <name> is not None:` block that reassigns the name (so only as None).
 */
export function splitByNoneGuards(host: NoneGuardHost, use: PyNode, defs: readonly Def[]): { live: Def[]; asNone: Def[] } {
  // Only blocks that end before the read: a read inside a loop, before the block, is reached around it.
  const guards = defs.map((d) => guardOf(host, d)).filter((g): g is PyNode => g !== undefined && g.end <= use.start);
  if (guards.length === 0) return { live: [...defs], asNone: [] };
  const live: Def[] = [];
  const asNone: Def[] = [];
  for (const d of defs) {
    const before = guards.some((g) => d.target.end <= g.start && !(g.start <= d.target.start && d.target.end <= g.end));
    (before ? asNone : live).push(d);
  }
  return live.length > 0 ? { live, asNone } : { live: [...defs], asNone: [] };
}

/** `if <name> is None:` (the test alone, no `and`/`or`). */
function testsNone(host: NoneGuardHost, cond0: PyNode, name: string): boolean {
  const cond = unparen(cond0);
  return cond.type === 'comparison_operator' && /^\s*(\w+)\s+is\s+None\s*$/.exec(host.text(cond))?.[1] === name;
}

/**
 * A parameter defaulting to None that its own function fills in (`def forward(self, tokens, pad_mask=None):` then
 * `if pad_mask is None: pad_mask = (tokens != PAD).float()`): the read's reaching definitions are the parameter and
 * assignments at the top level of that block (which ends before the read). Returns the parameter's definition and the
 * fills, or undefined when the definitions are anything else.
 */
export function noneDefaultFill(host: NoneGuardHost, use: PyNode, defs: readonly Def[]): { param: Def; fills: Def[] } | undefined {
  const params = defs.filter((d) => d.kind === 'param');
  const param = params.length === 1 ? params[0] : undefined;
  const dflt = param?.param?.default;
  if (!param || !dflt || host.text(dflt) !== 'None') return undefined;
  const fills = defs.filter((d) => d !== param);
  if (fills.length === 0) return undefined;
  for (const d of fills) {
    if (d.kind !== 'assign') return undefined;
    const stmt = d.target.parent?.type === 'assignment' ? d.target.parent.parent : undefined;
    const block = stmt?.type === 'expression_statement' ? stmt.parent : undefined;
    const ifStmt = block?.type === 'block' && block.field === 'consequence' ? block.parent : undefined;
    const cond = ifStmt?.type === 'if_statement' ? childByField(ifStmt, 'condition') : undefined;
    if (!ifStmt || !cond || ifStmt.end > use.start || !testsNone(host, cond, d.name)) return undefined;
    // The block has no `else`: the parameter reaches the read only where the caller gave it.
    if (childByField(ifStmt, 'alternative')) return undefined;
  }
  return { param, fills };
}
