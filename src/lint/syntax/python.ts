// Python-specific readers over PyNodes: dotted names, call arguments, literals.
import { childByField, childrenByField, firstNamedChild, namedChildren, text, unparen, type PyNode } from './tree';

interface Src {
  source: string;
}

/** `a.b.c` → ['a', 'b', 'c']; undefined when any link is not a plain name (calls, subscripts, ...). */
export function dottedName(src: Src, node: PyNode): string[] | undefined {
  const n = unparen(node);
  if (n.type === 'identifier') return [text(src, n)];
  if (n.type === 'attribute') {
    const obj = childByField(n, 'object');
    const attr = childByField(n, 'attribute');
    if (!obj || !attr) return undefined;
    const base = dottedName(src, obj);
    return base ? [...base, text(src, attr)] : undefined;
  }
  return undefined;
}

export interface KeywordArg {
  /** The whole `name=value` node. */
  node: PyNode;
  nameNode: PyNode;
  value: PyNode;
}

export interface CallArgs {
  positional: PyNode[];
  keywords: Map<string, KeywordArg>;
  /** True when `*args` or `**kwargs` make positions unknowable. */
  hasSplat: boolean;
  /** The argument_list node (for inserting arguments). */
  list: PyNode | undefined;
  /** The expression of the call's one `**kwargs` when it has no `*args` (its keywords may be known where it was built). */
  dictSplat?: PyNode;
}

export function callArgs(src: Src, call: PyNode): CallArgs {
  const list = childByField(call, 'arguments');
  const positional: PyNode[] = [];
  const keywords = new Map<string, KeywordArg>();
  let hasSplat = false;
  let listSplat = false;
  const dictSplats: PyNode[] = [];
  if (list && list.type === 'argument_list') {
    for (const a of namedChildren(list)) {
      if (a.type === 'keyword_argument') {
        const nameNode = childByField(a, 'name');
        const value = childByField(a, 'value');
        if (nameNode && value) keywords.set(text(src, nameNode), { node: a, nameNode, value });
      } else if (a.type === 'list_splat' || a.type === 'dictionary_splat') {
        if (a.type === 'dictionary_splat') dictSplats.push(a);
        else listSplat = true;
        hasSplat = true;
      } else {
        positional.push(a);
      }
    }
  } else if (list && list.type === 'generator_expression') {
    positional.push(list);
  }
  const [onlySplat] = dictSplats;
  const dictSplat = !listSplat && dictSplats.length === 1 && onlySplat ? firstNamedChild(onlySplat) : undefined;
  return { positional, keywords, hasSplat, list, ...(dictSplat ? { dictSplat } : {}) };
}

/** An argument by keyword or by position (positional index counts from 0). */
export function argument(args: CallArgs, name: string, position: number | undefined): PyNode | undefined {
  const kw = args.keywords.get(name);
  if (kw) return kw.value;
  if (position !== undefined && position < args.positional.length) return args.positional[position];
  return undefined;
}

/** The node to point at for an argument: the whole keyword argument (`dim=1`) or the positional value. */
export function argumentNode(args: CallArgs, name: string, position: number | undefined): PyNode | undefined {
  const kw = args.keywords.get(name);
  if (kw) return kw.node;
  if (position !== undefined && position < args.positional.length) return args.positional[position];
  return undefined;
}

/** Integer literal value of `3`, `-1`, `+2`, `(−1)`; undefined otherwise. */
export function intLiteral(src: Src, node: PyNode | undefined): number | undefined {
  if (!node) return undefined;
  const n = unparen(node);
  if (n.type === 'integer') {
    const v = parseIntLiteral(text(src, n));
    return v;
  }
  if (n.type === 'unary_operator') return signedLiteral(src, n, intLiteral);
  return undefined;
}

/** `-x` or `+x` of a literal `x` read by `literal`; undefined for another operator (`~1`) or a non-literal. */
function signedLiteral(src: Src, n: PyNode, literal: (src: Src, node: PyNode | undefined) => number | undefined): number | undefined {
  const op = childByField(n, 'operator');
  const inner = literal(src, childByField(n, 'argument'));
  if (inner === undefined || !op) return undefined;
  const o = text(src, op);
  if (o === '-') return -inner;
  if (o === '+') return inner;
  return undefined;
}

function parseIntLiteral(t: string): number | undefined {
  // Fast path: plain decimal digits.
  let plain = t.length > 0 && t.length < 16;
  for (let i = 0; plain && i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 48 || c > 57) plain = false;
  }
  if (plain) return Number(t);
  const s = t.replace(/_/g, '').toLowerCase();
  if (/^0x[0-9a-f]+$/.test(s)) return parseInt(s.slice(2), 16);
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.slice(2), 8);
  if (/^0b[01]+$/.test(s)) return parseInt(s.slice(2), 2);
  if (/^\d+$/.test(s)) return parseInt(s, 10);
  return undefined;
}

/** Numeric literal value of ints, floats (`1e-9`, `-1e9`, `.5`), with unary +/-; undefined otherwise. */
export function numberLiteral(src: Src, node: PyNode | undefined): number | undefined {
  if (!node) return undefined;
  const n = unparen(node);
  if (n.type === 'integer') return parseIntLiteral(text(src, n));
  if (n.type === 'float') {
    const t = text(src, n).replace(/_/g, '');
    if (/[jJ]$/.test(t)) return undefined;
    const v = Number(t);
    return Number.isFinite(v) ? v : undefined;
  }
  if (n.type === 'unary_operator') return signedLiteral(src, n, numberLiteral);
  return undefined;
}

/** Value of a plain (non-f) string literal, implicit concatenation included; undefined otherwise. */
export function stringLiteral(src: Src, node: PyNode | undefined): string | undefined {
  if (!node) return undefined;
  const n = unparen(node);
  if (n.type === 'concatenated_string') {
    let out = '';
    for (const part of namedChildren(n)) {
      const v = stringLiteral(src, part);
      if (v === undefined) return undefined;
      out += v;
    }
    return out;
  }
  if (n.type !== 'string') return undefined;
  const start = n.children[0];
  if (start && /[fF]/.test(text(src, start).replace(/['"]/g, ''))) return undefined;
  let out = '';
  for (const c of n.children) {
    if (c.type === 'string_content') out += text(src, c);
    else if (c.type === 'interpolation') return undefined;
    else if (c.type === 'escape_sequence') out += unescape(text(src, c));
  }
  return out;
}

function unescape(seq: string): string {
  switch (seq) {
    case '\\n':
      return '\n';
    case '\\t':
      return '\t';
    case "\\'":
      return "'";
    case '\\"':
      return '"';
    case '\\\\':
      return '\\';
    default:
      return seq;
  }
}

/** Names bound by an assignment target, with their tuple-unpacking path: `a, (b, c)` → a:[0], b:[1,0], c:[1,1]. */
export interface TargetName {
  node: PyNode;
  path: number[];
  /** True for `*rest`. */
  star: boolean;
}

export function targetNames(node: PyNode, path: number[] = [], out: TargetName[] = []): TargetName[] {
  const n = unparen(node);
  switch (n.type) {
    case 'identifier':
      out.push({ node: n, path, star: false });
      break;
    case 'attribute':
    case 'subscript':
      out.push({ node: n, path, star: false });
      break;
    case 'list_splat_pattern':
    case 'list_splat': {
      const inner = firstNamedChild(n);
      if (inner) out.push({ node: unparen(inner), path, star: true });
      break;
    }
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
    case 'expression_list':
    case 'tuple':
    case 'list': {
      namedChildren(n).forEach((c, i) => targetNames(c, [...path, i], out));
      break;
    }
    default:
      break;
  }
  return out;
}

/** Operator token text of a binary/boolean/unary/augmented node. */
export function operatorText(src: Src, node: PyNode): string | undefined {
  const op = childByField(node, 'operator');
  return op ? text(src, op) : undefined;
}

/**
 * The condition of an `if` statement with no `elif`/`else` whose body ends in `return` or `raise` (an early exit: past
 * the statement, the condition failed); undefined for any other statement.
 */
export function earlyExitCondition(stmt: PyNode): PyNode | undefined {
  if (stmt.type !== 'if_statement' || stmt.children.some((c) => c.type === 'elif_clause' || c.type === 'else_clause')) return undefined;
  const last = childrenByField(stmt, 'consequence')
    .flatMap(namedChildren)
    .filter((c) => c.type !== 'comment')
    .pop();
  return last?.type === 'return_statement' || last?.type === 'raise_statement' ? childByField(stmt, 'condition') : undefined;
}
