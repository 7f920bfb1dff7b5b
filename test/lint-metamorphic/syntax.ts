// A plain copy of a tree-sitter Python tree (type, field, range, children, parent) for the metamorphic rewrites,
// and the small syntactic questions they ask of it. Rewrites read the tree only, never the source with patterns.
import TreeSitter = require('web-tree-sitter');

export interface SNode {
  type: string;
  /** The field this node fills in its parent (`left`, `function`, ...), or null. */
  field: string | null;
  start: number;
  end: number;
  named: boolean;
  children: SNode[];
  parent: SNode | null;
}

export interface PyParser {
  parse(text: string): SNode;
}

/** A parser over the project's tree-sitter (the runtime must have been started, e.g. by createLinter). */
export async function createPyParser(python: Uint8Array): Promise<PyParser> {
  const language = await TreeSitter.Language.load(python);
  const parser = new TreeSitter.Parser();
  parser.setLanguage(language);
  return {
    parse(text: string): SNode {
      const tree = parser.parse(text);
      if (!tree) throw new Error('tree-sitter returned no tree');
      const cursor = tree.walk();
      try {
        const copy = (parent: SNode | null): SNode => {
          const node: SNode = {
            type: cursor.nodeType,
            field: cursor.currentFieldName,
            start: cursor.startIndex,
            end: cursor.endIndex,
            named: cursor.nodeIsNamed,
            children: [],
            parent,
          };
          if (cursor.gotoFirstChild()) {
            do node.children.push(copy(node));
            while (cursor.gotoNextSibling());
            cursor.gotoParent();
          }
          return node;
        };
        return copy(null);
      } finally {
        cursor.delete();
        tree.delete();
      }
    },
  };
}

export function walk(node: SNode, visit: (n: SNode) => boolean | void): void {
  if (visit(node) === false) return;
  for (const c of node.children) walk(c, visit);
}

export function all(node: SNode, type: string | ((n: SNode) => boolean)): SNode[] {
  const out: SNode[] = [];
  const test = typeof type === 'string' ? (n: SNode) => n.type === type : type;
  walk(node, (n) => {
    if (test(n)) out.push(n);
  });
  return out;
}

export function hasError(root: SNode): boolean {
  return all(root, (n) => n.type === 'ERROR' || n.type === 'MISSING').length > 0;
}

export function field(node: SNode, name: string): SNode | undefined {
  return node.children.find((c) => c.field === name);
}

export function named(node: SNode): SNode[] {
  return node.children.filter((c) => c.named && c.type !== 'comment');
}

export function textOf(src: string, n: SNode): string {
  return src.slice(n.start, n.end);
}

export function ancestors(n: SNode): SNode[] {
  const out: SNode[] = [];
  for (let p = n.parent; p; p = p.parent) out.push(p);
  return out;
}

export function contains(outer: SNode, inner: SNode): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** The innermost function definition around `n` (not `n` itself). */
export function enclosingFunction(n: SNode): SNode | undefined {
  return ancestors(n).find((a) => a.type === 'function_definition');
}

/** A call's callee as a dotted name (`F.softmax`, `torch.nn.functional.softmax`, `x.softmax` → null object part). */
export function calleeName(src: string, call: SNode): { last: string; object: SNode | undefined; dotted: string } | undefined {
  const fn = field(call, 'function');
  if (!fn) return undefined;
  if (fn.type === 'identifier') return { last: textOf(src, fn), object: undefined, dotted: textOf(src, fn) };
  if (fn.type === 'attribute') {
    const attr = field(fn, 'attribute');
    const obj = field(fn, 'object');
    if (!attr || !obj) return undefined;
    return { last: textOf(src, attr), object: obj, dotted: textOf(src, fn).replace(/\s+/g, '') };
  }
  return undefined;
}

export interface CallArgs {
  positional: SNode[];
  keywords: Map<string, { node: SNode; value: SNode }>;
  /** `*args` / `**kwargs` present. */
  splat: boolean;
  list: SNode | undefined;
}

export function callArgs(src: string, call: SNode): CallArgs {
  const list = field(call, 'arguments');
  const out: CallArgs = { positional: [], keywords: new Map(), splat: false, list };
  if (!list || list.type !== 'argument_list') {
    out.splat = true;
    return out;
  }
  for (const a of named(list)) {
    if (a.type === 'keyword_argument') {
      const name = field(a, 'name');
      const value = field(a, 'value');
      if (name && value) out.keywords.set(textOf(src, name), { node: a, value });
    } else if (a.type === 'list_splat' || a.type === 'dictionary_splat') out.splat = true;
    else out.positional.push(a);
  }
  return out;
}

/** Expressions that need no parentheses wherever an expression goes. */
const PRIMARY = new Set([
  'identifier',
  'attribute',
  'call',
  'subscript',
  'parenthesized_expression',
  'integer',
  'float',
  'string',
  'list',
  'tuple',
  'dictionary',
  'true',
  'false',
  'none',
]);

export function isPrimary(n: SNode): boolean {
  return PRIMARY.has(n.type);
}

/** `text` of `n`, parenthesised unless it is primary. */
export function wrapped(src: string, n: SNode): string {
  return isPrimary(n) ? textOf(src, n) : `(${textOf(src, n)})`;
}

/** Is an identifier node a variable reference (not an attribute's name, a keyword argument's name, ...)? */
export function isVariable(n: SNode): boolean {
  if (n.type !== 'identifier') return false;
  const p = n.parent;
  if (!p) return true;
  if (p.type === 'attribute' && n.field === 'attribute') return false;
  if (p.type === 'keyword_argument' && n.field === 'name') return false;
  if ((p.type === 'function_definition' || p.type === 'class_definition') && n.field === 'name') return false;
  if (p.type === 'dotted_name' || p.type === 'aliased_import' || p.type === 'import_from_statement' || p.type === 'import_statement') return false;
  return true;
}

/** Identifiers bound by an assignment target (names in tuples and lists; not attributes or subscripts). */
export function targetIdentifiers(n: SNode): SNode[] {
  if (n.type === 'identifier') return [n];
  if (['pattern_list', 'tuple_pattern', 'list_pattern', 'tuple', 'list', 'parenthesized_expression', 'list_splat_pattern'].includes(n.type)) {
    return named(n).flatMap(targetIdentifiers);
  }
  return [];
}

/** Names a function binds locally: parameters and every assignment, loop, with, import, def target in its body. */
export function functionLocals(src: string, fn: SNode): { params: Set<string>; locals: Set<string>; targets: SNode[] } {
  const params = new Set<string>();
  const paramsNode = field(fn, 'parameters');
  if (paramsNode) for (const p of named(paramsNode)) for (const id of paramIdentifiers(p)) params.add(textOf(src, id));
  const targets: SNode[] = [];
  const body = field(fn, 'body');
  if (body) {
    walk(body, (n) => {
      if (n !== body && (n.type === 'function_definition' || n.type === 'class_definition')) {
        const name = field(n, 'name');
        if (name) targets.push(name);
        return false;
      }
      if (n.type === 'lambda' || n.type.endsWith('comprehension') || n.type === 'generator_expression') return false;
      if (n.type === 'assignment' || n.type === 'augmented_assignment') {
        const left = field(n, 'left');
        if (left) targets.push(...targetIdentifiers(left));
      } else if (n.type === 'for_statement') {
        const left = field(n, 'left');
        if (left) targets.push(...targetIdentifiers(left));
      } else if (n.type === 'named_expression') {
        const name = field(n, 'name');
        if (name) targets.push(name);
      } else if (n.type === 'as_pattern_target' || n.type === 'as_pattern') {
        for (const c of named(n)) if (c.type === 'identifier') targets.push(c);
      } else if (n.type === 'aliased_import') {
        const alias = field(n, 'alias');
        if (alias) targets.push(alias);
      } else if (n.type === 'import_statement' || n.type === 'import_from_statement') {
        for (const c of named(n)) if (c.type === 'dotted_name' && c.field === 'name') targets.push(c.children[0]);
      }
      return true;
    });
  }
  return { params, locals: new Set(targets.map((t) => textOf(src, t))), targets };
}

/** The identifier(s) a parameter node binds. */
export function paramIdentifiers(p: SNode): SNode[] {
  if (p.type === 'identifier') return [p];
  if (p.type === 'default_parameter' || p.type === 'typed_default_parameter') {
    const name = field(p, 'name');
    return name && name.type === 'identifier' ? [name] : [];
  }
  if (p.type === 'typed_parameter' || p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern') {
    return p.children.filter((c) => c.type === 'identifier' && c.field !== 'type').slice(0, 1);
  }
  return [];
}

/** Every identifier text in a tree (to choose fresh names). */
export function identifierTexts(src: string, root: SNode): Set<string> {
  return new Set(all(root, 'identifier').map((n) => textOf(src, n)));
}

export function fresh(taken: Set<string>, base: string): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}

/** The statement (a child of a block or of the module) holding `n`, and whether it starts its line. */
export function statementOf(n: SNode): SNode | undefined {
  let s: SNode | null = n;
  while (s?.parent && s.parent.type !== 'block' && s.parent.type !== 'module') s = s.parent;
  if (!s?.parent) return undefined;
  return s;
}

export function lineStart(src: string, offset: number): number {
  return src.lastIndexOf('\n', offset - 1) + 1;
}

/** Only blanks between the line start and the node: the node begins its line. */
export function beginsLine(src: string, n: SNode): boolean {
  return src.slice(lineStart(src, n.start), n.start).trim() === '';
}

export function indentOf(src: string, n: SNode): string {
  return src.slice(lineStart(src, n.start), n.start);
}

/** Node types inside which hoisting or inlining an expression can change when (or whether) it is evaluated. */
export const SCOPED_OR_LAZY = new Set([
  'lambda',
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
  'conditional_expression',
  'boolean_operator',
  'function_definition',
  'class_definition',
  'interpolation',
  'decorator',
]);

/** Is there a lazy or scoped construct between `n` and its ancestor `top` (exclusive)? */
export function lazyBetween(n: SNode, top: SNode): boolean {
  for (let p = n.parent; p && p !== top; p = p.parent) if (SCOPED_OR_LAZY.has(p.type)) return true;
  return false;
}

/** The module-level statement holding `n` (with its decorators). */
export function topLevelOf(n: SNode): SNode | undefined {
  let s: SNode | null = n;
  while (s?.parent && s.parent.type !== 'module') s = s.parent;
  return s?.parent ? s : undefined;
}

/** Offset where new module-level lines can go: after the last top-level import (and module docstring), else 0. */
export function afterImports(src: string, root: SNode): number {
  let at = 0;
  const stmts = named(root);
  for (const [i, s] of stmts.entries()) {
    const isDoc = i === 0 && s.type === 'expression_statement' && s.children[0]?.type === 'string';
    if (s.type === 'import_statement' || s.type === 'import_from_statement' || s.type === 'future_import_statement' || isDoc) {
      const nl = src.indexOf('\n', s.end);
      at = nl < 0 ? src.length : nl + 1;
    } else if (s.type !== 'comment') break;
  }
  return at;
}
