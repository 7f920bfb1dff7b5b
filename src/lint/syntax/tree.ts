// A plain-JavaScript copy of the parts of a tree-sitter tree the analysis reads.
//
// Reading a web-tree-sitter tree crosses into WebAssembly on every property access, so the tree is copied
// once, with a single cursor walk, into `PyNode` objects. Function and class bodies whose text mentions
// nothing attention-related are copied as empty stubs (`skipped`), which keeps large repositories cheap.

/** The subset of web-tree-sitter's TreeCursor this module uses (kept structural so tests can fake it). */
export interface CursorLike {
  readonly nodeTypeId: number;
  readonly currentFieldId: number;
  readonly startIndex: number;
  readonly endIndex: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
}

/** Per-language tables, computed once: type and field names by id, and which types are named. */
export interface LanguageTables {
  typeNames: readonly (string | null)[];
  fieldNames: readonly (string | null)[];
  namedTypes: readonly boolean[];
}

export interface PyNode {
  /** Node type, e.g. 'call', 'identifier', '@' (anonymous tokens keep their text as type). */
  readonly type: string;
  /** UTF-16 offsets into the source (start inclusive, end exclusive). */
  readonly start: number;
  readonly end: number;
  /** Field name under the parent ('function', 'arguments', 'left', ...), or null. */
  readonly field: string | null;
  readonly named: boolean;
  /** True for nodes the parser inserted to recover from an error (zero width). */
  readonly missing: boolean;
  readonly children: PyNode[];
  parent: PyNode | null;
  /** Dense id, unique within one tree (used as a memo key). */
  readonly id: number;
  /** Set on function/class definitions whose bodies were not copied (nothing attention-related inside). */
  skipped?: boolean;
}

export interface PyTree {
  readonly root: PyNode;
  readonly source: string;
  readonly nodeCount: number;
  /** True when the parser reported syntax errors somewhere (the tree is still usable). */
  readonly hasErrors: boolean;
  /** Every comment node that was copied, in source order. */
  readonly comments: readonly PyNode[];
}

/** Text that makes a function or class worth analysing. Anything without it cannot produce a finding. */
const RELEVANT =
  /softmax|attn|atten|mask|scaled_dot|einsum|matmul|bmm|baddbmm|[\w)\]]\s*@\s*[\w(]|scale|sqrt|tril|triu|band_part|transpose|permute|swapaxes|causal|cache|inf\b|1e\d|finfo|Multihead|MultiHead|Transformer|register_buffer|float16|half|autocast|quer|\bkeys?\b/;

const SKIPPABLE = new Set(['function_definition', 'class_definition']);

/** Methods of a relevant class are always copied: `__init__` defines what `forward` uses. */
function insideClass(stack: readonly PyNode[]): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const t = stack[i].type;
    if (t === 'class_definition') return true;
    if (t === 'function_definition') return false;
  }
  return false;
}

/**
 * Copies a tree-sitter tree (through its cursor) into PyNodes. Bodies of functions/classes whose source
 * text does not match the relevance filter are not copied unless `full` is set.
 *
 * Every property read crosses into WebAssembly, so the walk reads as little as it can: the type and field of
 * every node, and offsets only for leaves (a node spans exactly its children, so an inner node's start and
 * end come from its first and last child).
 */
export function copyTree(cursor: CursorLike, source: string, tables: LanguageTables, options: { full?: boolean; hasError?: boolean } = {}): PyTree {
  let nextId = 0;
  const full = options.full === true;
  const { typeNames, fieldNames, namedTypes } = tables;

  const make = (parent: PyNode | null): PyNode => {
    const typeId = cursor.nodeTypeId;
    const node: PyNode = {
      type: typeNames[typeId] ?? 'ERROR',
      start: -1,
      end: -1,
      field: parent ? (fieldNames[cursor.currentFieldId] ?? null) : null,
      named: namedTypes[typeId] ?? true,
      missing: false,
      children: [],
      parent,
      id: nextId++,
    };
    return node;
  };
  const setLeafRange = (node: PyNode): void => {
    (node as { start: number }).start = cursor.startIndex;
    (node as { end: number }).end = cursor.endIndex;
    if (node.start === node.end) (node as { missing: boolean }).missing = true;
  };
  const closeInner = (node: PyNode): void => {
    const first = node.children[0];
    const last = node.children[node.children.length - 1];
    (node as { start: number }).start = first.start;
    (node as { end: number }).end = last.end;
  };

  const comments: PyNode[] = [];
  const root = make(null);
  // Iterative walk (deep expressions in generated code must not overflow the JS stack).
  const stack: PyNode[] = [root];
  if (!cursor.gotoFirstChild()) setLeafRange(root);
  else {
    for (;;) {
      const parent = stack[stack.length - 1];
      const node = make(parent);
      parent.children.push(node);
      if (node.type === 'comment') comments.push(node);
      let descend = true;
      if (!full && SKIPPABLE.has(node.type) && !insideClass(stack)) {
        // Needs the node's text: read its range now.
        setLeafRange(node);
        if (!RELEVANT.test(source.slice(node.start, node.end))) {
          node.skipped = true;
          descend = false;
        }
      }
      if (descend && cursor.gotoFirstChild()) {
        stack.push(node);
        continue;
      }
      if (node.start < 0) setLeafRange(node);
      // Move to the next sibling, climbing up (and closing finished nodes) as needed.
      let moved = false;
      while (!moved) {
        if (cursor.gotoNextSibling()) {
          moved = true;
        } else {
          if (stack.length === 1) break;
          cursor.gotoParent();
          closeInner(stack.pop()!);
        }
      }
      if (!moved) break;
    }
    if (root.children.length > 0) closeInner(root);
    else setLeafRange(root);
    // The module spans the whole source (leading comments and trailing whitespace included).
    (root as { start: number }).start = 0;
    (root as { end: number }).end = source.length;
  }
  const hasErrors = options.hasError ?? false;
  return { root, source, nodeCount: nextId, hasErrors, comments };
}

// ---------------------------------------------------------------------------------------------------------
// Small accessors used everywhere.

export function text(tree: { source: string }, node: PyNode): string {
  return tree.source.slice(node.start, node.end);
}

export function childByField(node: PyNode, field: string): PyNode | undefined {
  for (const c of node.children) if (c.field === field) return c;
  return undefined;
}

export function childrenByField(node: PyNode, field: string): PyNode[] {
  return node.children.filter((c) => c.field === field);
}

export function namedChildren(node: PyNode): PyNode[] {
  return node.children.filter((c) => c.named && c.type !== 'comment');
}

export function firstNamedChild(node: PyNode): PyNode | undefined {
  for (const c of node.children) if (c.named && c.type !== 'comment') return c;
  return undefined;
}

/** Strips redundant parentheses: `((x))` → `x`. */
export function unparen(node: PyNode): PyNode {
  let n = node;
  while (n.type === 'parenthesized_expression') {
    const inner = firstNamedChild(n);
    if (!inner) break;
    n = inner;
  }
  return n;
}

/** Pre-order traversal; the callback returns false to skip a subtree. */
export function walk(node: PyNode, visit: (n: PyNode) => boolean | void): void {
  const stack: PyNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (visit(n) === false) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
}

/** The nearest ancestor (excluding the node) of one of the given types. */
export function ancestor(node: PyNode, types: ReadonlySet<string> | string): PyNode | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (typeof types === 'string' ? p.type === types : types.has(p.type)) return p;
  }
  return undefined;
}
