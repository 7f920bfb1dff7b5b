// Widths held in module-level constants (`D_MODEL = 512`, `HEAD_DIM = D_MODEL // N_HEADS`, or imported from a config
// module, `from .config import D_MODEL, N_HEADS`): the number a size's source text stands for, so that a width the code
// states by name (`view(B, T, N_HEADS, HEAD_DIM)`, `nn.Linear(D_MODEL, 3 * D_MODEL)`) compares with one written out or
// evaluated (`64 ** -0.5`, `math.sqrt(D_MODEL)`).
import type { Evaluator } from './evaluator';
import type { Def } from './scopes';
import { moduleBases, moduleFile } from './workspace';

const NAME = /^[A-Za-z_]\w*$/;
const cache = new WeakMap<Evaluator, Map<string, number | undefined>>();

/**
 * The whole number `text` (a size's source text) stands for: a whole-number literal, a module-level name bound once
 * to such a number or to an expression of such names (`+`, `-`, `*`, `//`, parentheses), or a name imported from a
 * workspace module that the evaluator reads as a whole number. A name bound more than once in the file, bound in a
 * function (a parameter, a local, a loop or `as` target, `global`), is no constant: undefined, as for anything else.
 */
export function constantNumber(ev: Evaluator, text: string, depth = 0): number | undefined {
  const t = text.replace(/\s+/g, '');
  if (/^\d+$/.test(t)) return Number(t);
  if (depth > 4 || t.length === 0 || t.length > 80 || !/^[\w()+\-*/]+$/.test(t)) return undefined;
  let memo = cache.get(ev);
  if (!memo) cache.set(ev, (memo = new Map()));
  if (memo.has(t)) return memo.get(t);
  const v = NAME.test(t) ? nameNumber(ev, t, depth) : expressionNumber(ev, t, depth);
  memo.set(t, v);
  return v;
}

function nameNumber(ev: Evaluator, name: string, depth: number): number | undefined {
  const defs = ev.sr.module.envAtEnd.get(name);
  const def = defs?.length === 1 ? defs[0] : undefined;
  if (!def || def.path.length > 0 || def.scope !== ev.sr.module) return undefined;
  const src = ev.tree.source;
  if (new RegExp(`\\bdef\\s+\\w+\\s*\\([^)]*\\b${name}\\b|\\bas\\s+${name}\\b|\\bfor\\s+${name}\\b|\\bglobal\\s+[^\\n]*\\b${name}\\b`).test(src))
    return undefined;
  const binds = src.match(new RegExp(`(?:^|[^\\w.])${name}\\s*(?:=(?!=)|:[^\\n]*=|[-+*/]=)`, 'gm'))?.length ?? 0;
  if (def.kind === 'assign' && def.value) {
    if (binds !== 1) return undefined;
    return constantNumber(ev, ev.text(def.value), depth + 1);
  }
  if (def.kind === 'import' && binds === 0) return importedNumber(ev, def, name, depth);
  return undefined;
}

/**
 * `from config import D_MODEL` (or `from .config import ...`, not renamed): the constant as the workspace module
 * that defines it reads it, by the same rules in that file.
 */
function importedNumber(ev: Evaluator, def: Def, name: string, depth: number): number | undefined {
  const link = ev.link;
  const path = def.importPath;
  const from = def.importFrom;
  if (!link || !path || !from || path.length !== from.moduleParts + 1 || path.at(-1) !== name) return undefined;
  const modParts = path.slice(0, from.moduleParts);
  for (const base of moduleBases(link.workspace.files, link.path, from.level)) {
    const file = moduleFile(link.workspace.files, base, modParts);
    const m = file === undefined ? undefined : link.workspace.module(file);
    if (!file || !m) continue;
    link.deps.set(file, m.version);
    return constantNumber(m.ev, name, depth + 1);
  }
  return undefined;
}

/** `a // b`, `3 * D`, `(D_MODEL // N_HEADS)`: left to right, `*` and `//` before `+` and `-`, each part a constant. */
function expressionNumber(ev: Evaluator, t: string, depth: number): number | undefined {
  let s = t;
  while (s.startsWith('(') && s.endsWith(')') && balanced(s.slice(1, -1))) s = s.slice(1, -1);
  if (s !== t) return constantNumber(ev, s, depth);
  for (const ops of [/^[+-]$/, /^(?:\*|\/\/)$/]) {
    // The last top-level operator of the lowest precedence splits the expression (left-associative).
    let level = 0;
    for (let i = s.length - 1; i > 0; i--) {
      const c = s[i];
      if (c === ')') level++;
      else if (c === '(') level--;
      if (level !== 0) continue;
      const op = c === '/' && s[i - 1] === '/' ? '//' : c;
      if (!ops.test(op ?? '')) continue;
      const at = op === '//' ? i - 1 : i;
      const l = constantNumber(ev, s.slice(0, at), depth + 1);
      const r = constantNumber(ev, s.slice(i + 1), depth + 1);
      if (l === undefined || r === undefined) return undefined;
      if (op === '+') return l + r;
      if (op === '-') return l - r;
      if (op === '*') return l * r;
      return r === 0 ? undefined : Math.floor(l / r);
    }
  }
  return undefined;
}

function balanced(s: string): boolean {
  let level = 0;
  for (const c of s) {
    if (c === '(') level++;
    else if (c === ')' && --level < 0) return false;
  }
  return level === 0;
}

/**
 * The width of each part of a fused projection's output width (`3 * dim`, `dim * 3`, or a count held in a module-level
 * constant, `dim * N_PARTS` with `N_PARTS = 3`): the other factor, as written; undefined when no factor is a whole
 * number from 2 to 9.
 */
export function fusedPartWidth(ev: Evaluator, out: string): string | undefined {
  const t = out.replace(/\s+/g, '');
  const written = (/^[2-9]\*(.+)$/.exec(t) ?? /^(.+)\*[2-9]$/.exec(t))?.[1];
  if (written !== undefined) return written;
  const m = /^([^*]+)\*([^*]+)$/.exec(t);
  if (!m?.[1] || !m[2]) return undefined;
  const parts = (f: string): boolean => {
    const n = constantNumber(ev, f);
    return n !== undefined && Number.isInteger(n) && n >= 2 && n <= 9;
  };
  return parts(m[2]) ? m[1] : parts(m[1]) ? m[2] : undefined;
}
