// A plain-JavaScript copy of the parts of a tree-sitter tree the analysis reads.
//
// Reading a web-tree-sitter tree crosses into WebAssembly on every property access, so the tree is copied
// once, with a single cursor walk, into `PyNode` objects. Function and class bodies whose text mentions
// nothing attention-related are copied as empty stubs (`skipped`), which keeps large repositories cheap.

/** The subset of web-tree-sitter's TreeCursor this module uses (kept structural so tests can fake it). */
export interface CursorLike {
  readonly nodeTypeId: number;
  readonly currentFieldId: number;
  readonly nodeIsNamed: boolean;
  readonly nodeIsMissing: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
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
 * Copies a tree-sitter tree (through its cursor) into PyNodes. `typeNames` and `fieldNames` are the
 * language's id → name tables. Bodies of functions/classes whose source text does not match the
 * relevance filter are not copied unless `full` is set.
 */
export function copyTree(
  cursor: CursorLike,
  source: string,
  typeNames: readonly (string | null)[],
  fieldNames: readonly (string | null)[],
  options: { full?: boolean } = {},
): PyTree {
  let nextId = 0;
  let hasErrors = false;
  const full = options.full === true;

  const make = (parent: PyNode | null): PyNode => {
    const type = typeNames[cursor.nodeTypeId] ?? 'ERROR';
    if (type === 'ERROR' || cursor.nodeIsMissing) hasErrors = true;
    const node: PyNode = {
      type,
      start: cursor.startIndex,
      end: cursor.endIndex,
      field: fieldNames[cursor.currentFieldId] ?? null,
      named: cursor.nodeIsNamed,
      missing: cursor.nodeIsMissing,
      children: [],
      parent,
      id: nextId++,
    };
    return node;
  };

  const root = make(null);
  // Iterative walk (deep expressions in generated code must not overflow the JS stack).
  const stack: PyNode[] = [root];
  if (cursor.gotoFirstChild()) {
    for (;;) {
      const parent = stack[stack.length - 1];
      const node = make(parent);
      parent.children.push(node);
      let descend = true;
      if (
        !full &&
        SKIPPABLE.has(node.type) &&
        !insideClass(stack) &&
        !RELEVANT.test(source.slice(node.start, node.end))
      ) {
        node.skipped = true;
        descend = false;
      }
      if (descend && cursor.gotoFirstChild()) {
        stack.push(node);
        continue;
      }
      // Move to the next sibling, climbing up as needed.
      let moved = false;
      while (!moved) {
        if (cursor.gotoNextSibling()) {
          moved = true;
        } else {
          if (stack.length === 1) break;
          cursor.gotoParent();
          stack.pop();
        }
      }
      if (!moved) break;
    }
  }
  return { root, source, nodeCount: nextId, hasErrors };
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
