// Widths held in module-level constants (`D_MODEL = 512`, `HEAD_DIM = D_MODEL // N_HEADS`, or imported from a config
// module, `from .config import D_MODEL, N_HEADS`): the number a size's source text stands for, so that a width the code
// states by name (`view(B, T, N_HEADS, HEAD_DIM)`, `nn.Linear(D_MODEL, 3 * D_MODEL)`) compares with one written out or
// evaluated (`64 ** -0.5`, `math.sqrt(D_MODEL)`).
import { childByField, namedChildren, unparen } from '../syntax/tree';
import { starImportedFiles } from './cross-file';
import type { Evaluator } from './evaluator';
import type { Def, Scope } from './scopes';
import { moduleBases, moduleFile } from './workspace';

const NAME = /^[A-Za-z_]\w*$/;
/** `Cfg.HEAD_DIM`, `cfg.HEAD_DIM`: a class attribute read through the class or a module-level instance of it. */
const ATTRIBUTE = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$/;
const cache = new WeakMap<Evaluator, Map<string, number | undefined>>();

/**
 * The whole number `text` (a size's source text) stands for: a whole-number literal, a module-level name bound once
 * to such a number or to an expression of such names (`+`, `-`, `*`, `//`, parentheses), or a name imported from a
 * workspace module that the evaluator reads as a whole number, or that one of its star imports of workspace modules
 * (`from config import *`) brings in. A name bound more than once in the file, bound in a function (a parameter, a
 * local, a loop or `as` target, `global`), is no constant: undefined, as for anything else. So is a class attribute
 * (`class Cfg: HEAD_DIM = 64`, read `Cfg.HEAD_DIM`, or `cfg.HEAD_DIM` after `cfg = Cfg()` at module level, the class
 * in the file or imported), bound once in the class body and assigned as an attribute nowhere in the file.
 */
export function constantNumber(ev: Evaluator, text: string, depth = 0): number | undefined {
  const t = text.replace(/\s+/g, '');
  if (/^\d+$/.test(t)) return Number(t);
  if (depth > 4 || t.length === 0 || t.length > 80 || !/^[\w.()+\-*/]+$/.test(t)) return undefined;
  let memo = cache.get(ev);
  if (!memo) cache.set(ev, (memo = new Map()));
  if (memo.has(t)) return memo.get(t);
  const attr = ATTRIBUTE.exec(t);
  const v = NAME.test(t) ? nameNumber(ev, t, depth) : attr ? attributeNumber(ev, String(attr[1]), String(attr[2]), depth) : expressionNumber(ev, t, depth);
  memo.set(t, v);
  return v;
}

function nameNumber(ev: Evaluator, name: string, depth: number): number | undefined {
  const def = moduleDef(ev, name);
  if (def === null) return undefined;
  if (def === undefined) return bindCount(ev, name) === 0 ? starImportedNumber(ev, name, depth) : undefined;
  const binds = bindCount(ev, name);
  if (def.kind === 'assign' && def.value) {
    if (binds !== 1) return undefined;
    return constantNumber(ev, ev.text(def.value), depth + 1);
  }
  if (def.kind === 'import' && binds === 0) return importedNumber(ev, def, name, depth);
  return undefined;
}

/**
 * The one module-level definition of `name`: undefined when the file defines it nowhere, null when it is defined more
 * than once, unpacked, or also bound in a function (a parameter, a loop or `as` target, `global`).
 */
function moduleDef(ev: Evaluator, name: string): Def | undefined | null {
  const src = ev.tree.source;
  if (new RegExp(`\\bdef\\s+\\w+\\s*\\([^)]*\\b${name}\\b|\\bas\\s+${name}\\b|\\bfor\\s+${name}\\b|\\bglobal\\s+[^\\n]*\\b${name}\\b`).test(src)) return null;
  const defs = ev.sr.module.envAtEnd.get(name);
  if (!defs || defs.length === 0) return undefined;
  const def = defs.length === 1 ? defs[0] : undefined;
  return !def || def.path.length > 0 || def.scope !== ev.sr.module ? null : def;
}

/** How many statements of the file bind `name` itself (not an attribute of that name). */
function bindCount(ev: Evaluator, name: string): number {
  return ev.tree.source.match(new RegExp(`(?:^|[^\\w.])${name}\\s*(?:=(?!=)|:[^\\n]*=|[-+*/]=)`, 'gm'))?.length ?? 0;
}

/** A name the file reads unbound, brought in by a star import of a workspace module (`from config import *`). */
function starImportedNumber(ev: Evaluator, name: string, depth: number): number | undefined {
  const link = ev.link;
  const file = link ? starImportedFiles(link, ev.tree, link.path, name).at(-1) : undefined;
  const m = link && file !== undefined ? link.workspace.module(file) : undefined;
  if (!link || !file || !m) return undefined;
  link.deps.set(file, m.version);
  return constantNumber(m.ev, name, depth + 1);
}

/**
 * `Cfg.HEAD_DIM` (or `cfg.HEAD_DIM` with `cfg = Cfg()` at module level): the class attribute's number when the class
 * body binds it once to a constant and nothing in the file assigns that attribute (`self.HEAD_DIM = ...`, `cfg.HEAD_DIM
 * = 32`, `setattr`); the class in the file, imported from a workspace module or star-imported.
 */
function attributeNumber(ev: Evaluator, owner: string, attr: string, depth: number): number | undefined {
  const src = ev.tree.source;
  if (new RegExp(`\\.${attr}\\s*(?:=(?!=)|:[^\\n]*=|[-+*/]=)|\\bsetattr\\s*\\(`).test(src)) return undefined;
  const def = moduleDef(ev, owner);
  if (def === null) return undefined;
  const binds = bindCount(ev, owner);
  if (def === undefined) {
    if (binds !== 0) return undefined;
    // A class whose body mentions nothing attention-related is not copied into the tree (tree.ts, `skipped`): its
    // text is read.
    const skipped = skippedClassText(ev, owner);
    if (skipped !== undefined) return skippedClassNumber(ev, skipped, owner, attr, depth);
    const link = ev.link;
    const file = link ? starImportedFiles(link, ev.tree, link.path, owner).at(-1) : undefined;
    const m = link && file !== undefined ? link.workspace.module(file) : undefined;
    if (!link || !file || !m) return undefined;
    link.deps.set(file, m.version);
    return constantNumber(m.ev, `${owner}.${attr}`, depth + 1);
  }
  if (def.kind === 'classdef' && def.defines) return classBodyNumber(ev, def.defines, owner, attr, depth);
  if (def.kind === 'import' && binds === 0) return importedNumber(ev, def, owner, depth, `${owner}.${attr}`);
  // `cfg = Cfg()`: an instance made without arguments holds the class's attributes (none is assigned, see above).
  const value = def.kind === 'assign' && def.value && binds === 1 ? unparen(def.value) : undefined;
  const fn = value?.type === 'call' ? childByField(value, 'function') : undefined;
  const args = value?.type === 'call' ? childByField(value, 'arguments') : undefined;
  if (!fn || fn.type !== 'identifier' || !args || namedChildren(args).length > 0) return undefined;
  return attributeNumber(ev, ev.text(fn), attr, depth + 1);
}

/** The source of the one module-level class named `owner` whose body the tree skipped; undefined when there is none or several. */
function skippedClassText(ev: Evaluator, owner: string): string | undefined {
  const found: string[] = [];
  for (const top of ev.tree.root.children) {
    const n = top.type === 'decorated_definition' ? childByField(top, 'definition') : top;
    if (n?.type !== 'class_definition' || !n.skipped) continue;
    const text = ev.text(n);
    if (new RegExp(`^class\\s+${owner}\\b`).test(text)) found.push(text);
  }
  return found.length === 1 ? found[0] : undefined;
}

/**
 * `HEAD_DIM = 64` (`HEAD_DIM: int = 64`) at the body's own indentation, once, in a class's source text; the class's
 * other names read in the value are its attributes.
 */
function skippedClassNumber(ev: Evaluator, text: string, owner: string, attr: string, depth: number): number | undefined {
  const lines = text.split('\n').slice(1);
  const indent = lines.find((l) => /\S/.test(l) && !/^\s*#/.test(l))?.match(/^[ \t]*/)?.[0];
  if (!indent) return undefined;
  const binding = new RegExp(`^${indent}([A-Za-z_]\\w*)\\s*(?::[^=\\n]*)?=(?!=)\\s*([^#]+?)\\s*(?:#.*)?$`);
  const values = new Map<string, string[]>();
  for (const l of lines) {
    const m = binding.exec(l);
    if (m) values.set(String(m[1]), [...(values.get(String(m[1])) ?? []), String(m[2])]);
  }
  const bound = values.get(attr);
  const [value] = bound ?? [];
  if (bound?.length !== 1 || value === undefined) return undefined;
  return constantNumber(
    ev,
    value.replace(/(?<![\w.])([A-Za-z_]\w*)/g, (n) => (values.has(n) ? `${owner}.${n}` : n)),
    depth + 1,
  );
}

/** `HEAD_DIM = 64` (or `HEAD_DIM = D_MODEL // N_HEADS` of the class's own names) bound once in a class body. */
function classBodyNumber(ev: Evaluator, cls: Scope, owner: string, attr: string, depth: number): number | undefined {
  const defs = cls.envAtEnd.get(attr);
  const def = defs?.length === 1 ? defs[0] : undefined;
  if (!def || def.kind !== 'assign' || !def.value || def.path.length > 0 || def.scope !== cls) return undefined;
  // The class's own names read in the value are its attributes (`Cfg.D_MODEL`); others are module-level names.
  const text = ev.text(def.value).replace(/(?<![\w.])([A-Za-z_]\w*)/g, (n) => (cls.envAtEnd.has(n) ? `${owner}.${n}` : n));
  return constantNumber(ev, text, depth + 1);
}

/**
 * `from config import D_MODEL` (or `from .config import ...`, not renamed): the constant as the workspace module
 * that defines it reads it, by the same rules in that file; `read` is what is read there (`Cfg.HEAD_DIM` for an
 * imported class `Cfg`).
 */
function importedNumber(ev: Evaluator, def: Def, name: string, depth: number, read = name): number | undefined {
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
    return constantNumber(m.ev, read, depth + 1);
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
