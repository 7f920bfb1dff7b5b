// A plain-JavaScript copy of the parts of a tree-sitter tree the analysis reads.
//
// Reading a web-tree-sitter tree crosses into WebAssembly on every property access, so each top-level block
// is walked once with a TreeCursor and copied into `PyNode` objects, reading as little as it can per node
// (see copyBlock). Function and class bodies whose text mentions nothing attention-related are not copied at
// all (`skipped`), and copied blocks are reused across edits by the parser (assembleTree relocates them).
import { PREFILTERS } from '../analysis/prefilters';

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
  /** Types whose children can carry a field name (others never do: the cursor is not asked). */
  fieldParents?: readonly boolean[];
  /** Types that never have children (tokens): the cursor does not try to descend. */
  leafTypes?: readonly boolean[];
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
  /** Nodes standing for code nested deeper than MAX_TREE_DEPTH, which was not analysed. */
  readonly tooDeep: readonly PyNode[];
  readonly source: string;
  readonly nodeCount: number;
  /** True when the parser reported syntax errors somewhere (the tree is still usable). */
  readonly hasErrors: boolean;
  /** Every comment node that was copied, in source order. */
  readonly comments: readonly PyNode[];
  /**
   * The same source parsed whole (every block, every body), for the few analyses that read code the relevance filter
   * leaves out (importer-calls.ts: the constructions of a class, which may sit in a model class with no attention
   * text, or in a long script block). Parsed on first call, at most once per tree; absent on trees parsed whole.
   */
  readonly whole?: () => PyTree;
}

/** Text that makes a function or class worth analysing (built from the API table). Anything without it cannot produce a finding. */
export const RELEVANT = PREFILTERS.body;

const SKIPPABLE = new Set(['function_definition', 'class_definition']);
/**
 * A small class with no method (a config: `@dataclass class Cfg: n_embd: int = 768`, a NamedTuple, class attributes) is
 * copied whatever its text: its fields are values the attention code reads (`self.cfg.n_embd`).
 */
const DATA_CLASS = /^class\b(?![\s\S]*\b(?:async\s+)?def\s)/;
const MAX_DATA_CLASS = 4000;

/**
 * Nodes nested deeper than this in a block are not copied: the node at this depth becomes a childless
 * 'ERROR' node over the same text (`tooDeep` lists them), so the analysis, whose walks recurse, stays within
 * the JavaScript stack and lints the rest of the file. CPython itself refuses such code (it allows 200 nested
 * brackets and 100 indentation levels); 2,000 nested lambdas are an attack, not a program.
 */
export const MAX_TREE_DEPTH = 400;

/** Methods of a relevant class are always copied: `__init__` defines what `forward` uses. */
function insideClass(stack: readonly PyNode[]): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const t = stack[i]?.type;
    if (t === 'class_definition') return true;
    if (t === 'function_definition') return false;
  }
  return false;
}

/** Node types with text outside their visible children (hidden tokens inside). */
const UNCOVERED = new Set(['string_content', 'format_specifier']);

/**
 * Punctuation nothing in the analysis reads (never under a field; brackets, commas and dots only mark where the
 * named nodes around them are): not kept in the copied tree. A quarter of a file's nodes
 * are these, and every walk and child lookup would step over them. Their ranges still bound their parent's.
 */
const UNREAD_PUNCTUATION = new Set(['(', ')', ',', '.']);

/** Text of named tokens that is fixed. */
const NAMED_TOKEN_TEXT: Readonly<Record<string, string>> = { true: 'True', false: 'False', none: 'None', ellipsis: '...' };

function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * End of the token `node` when it starts at `s` and its text can be read off the source: anonymous tokens
 * (their type is their text), True/False/None/..., and ASCII identifiers. Undefined when unsure.
 */
function knownTokenEnd(source: string, s: number, node: PyNode): number | undefined {
  if (!node.named) {
    return source.startsWith(node.type, s) ? s + node.type.length : undefined;
  }
  if (node.type === 'identifier') {
    const c0 = source.charCodeAt(s);
    if (!((c0 >= 97 && c0 <= 122) || (c0 >= 65 && c0 <= 90) || c0 === 95)) return undefined;
    let e = s + 1;
    while (isIdentChar(source.charCodeAt(e))) e++;
    // A non-ASCII character may continue the identifier: ask the parser.
    return source.charCodeAt(e) >= 128 ? undefined : e;
  }
  const fixed = NAMED_TOKEN_TEXT[node.type];
  if (fixed !== undefined && source.startsWith(fixed, s) && !isIdentChar(source.charCodeAt(s + fixed.length))) return s + fixed.length;
  return undefined;
}

type MutableNode = { -readonly [K in keyof PyNode]: PyNode[K] };

interface TypeSets {
  /** 1 for function/class definitions (bodies may be skipped). */
  skippable: Uint8Array;
  /** 1 for types whose text is not all covered by their children. */
  uncovered: Uint8Array;
  /** 1 for comments. */
  comment: Uint8Array;
  /** 1 for anonymous punctuation left out of error-free trees (UNREAD_PUNCTUATION). */
  unread: Uint8Array;
}
const typeSetCache = new WeakMap<LanguageTables, TypeSets>();

/** Type-id lookups of the name sets the copy checks for every node (computed once per language). */
function typeSets(tables: LanguageTables): TypeSets {
  let sets = typeSetCache.get(tables);
  if (!sets) {
    const n = tables.typeNames.length;
    sets = { skippable: new Uint8Array(n), uncovered: new Uint8Array(n), comment: new Uint8Array(n), unread: new Uint8Array(n) };
    for (let id = 0; id < n; id++) {
      const t = tables.typeNames[id] ?? 'ERROR';
      if (SKIPPABLE.has(t)) sets.skippable[id] = 1;
      if (UNCOVERED.has(t)) sets.uncovered[id] = 1;
      if (t === 'comment') sets.comment[id] = 1;
      if (tables.namedTypes[id] === false && UNREAD_PUNCTUATION.has(t)) sets.unread[id] = 1;
    }
    typeSetCache.set(tables, sets);
  }
  return sets;
}

/**
 * The children of every token: one shared, frozen empty array (half the nodes of a file are tokens, and an
 * array each is measurable allocation and garbage-collection work on large files).
 */
const NO_CHILDREN: PyNode[] = Object.freeze([]) as unknown as PyNode[];

/** A copied block: the top-level nodes of one parse, with offsets already in the whole source's terms. */
export interface CopiedBlock {
  /** The block's statements (children of the block's module node). */
  readonly nodes: PyNode[];
  readonly hasErrors: boolean;
  /** Number of nodes in `nodes` and below (for cache accounting). */
  readonly size: number;
  /** The block's comment nodes, in source order. */
  readonly comments: readonly PyNode[];
  /** Nodes cut at MAX_TREE_DEPTH (childless 'ERROR' nodes standing for what nested deeper). */
  readonly tooDeep: readonly PyNode[];
  /**
   * Id of the block's first node in the tree it was last assembled into (-1: never assembled). A block that
   * lands on the same first id at the same offsets again needs no renumbering (assembleTree).
   */
  firstId: number;
}

/**
 * Copies the tree under `cursor` (a parse of `source.slice(offset, ...)`) into PyNodes whose offsets are
 * `offset` + the cursor's. Bodies of functions/classes whose text does not match the relevance filter are
 * not copied unless `full` is set.
 *
 * Every cursor call crosses into WebAssembly, so the walk reads as little as it can: the type of every node,
 * the field only under types that have fields, offsets only for leaves (a node spans exactly its children,
 * so an inner node's start and end come from its first and last child), and it never tries to descend into
 * a token.
 */
export function copyBlock(
  cursor: CursorLike,
  source: string,
  tables: LanguageTables,
  options: { full?: boolean; hasError?: boolean; offset?: number } = {},
): CopiedBlock {
  const full = options.full === true;
  const offset = options.offset ?? 0;
  const { typeNames, fieldNames, namedTypes } = tables;
  const fieldParents = tables.fieldParents;
  const leafTypes = tables.leafTypes;
  const { skippable, uncovered, comment, unread } = typeSets(tables);
  let size = 0;
  const comments: PyNode[] = [];
  const tooDeep: PyNode[] = [];

  const make = (parent: PyNode | null, parentTypeId: number, typeId: number): MutableNode => {
    size++;
    return {
      type: typeNames[typeId] ?? 'ERROR',
      start: -1,
      end: -1,
      field: parent && (!fieldParents || fieldParents[parentTypeId] !== false) ? (fieldNames[cursor.currentFieldId] ?? null) : null,
      named: namedTypes[typeId] ?? true,
      missing: false,
      children: leafTypes && leafTypes[typeId] ? NO_CHILDREN : [],
      parent,
      id: typeId, // the type id until assembleTree numbers the nodes
    };
  };
  const setLeafRange = (node: MutableNode): void => {
    node.start = cursor.startIndex + offset;
    node.end = cursor.endIndex + offset;
    if (node.start === node.end) node.missing = true;
  };
  // Between two consecutive leaves of an error-free tree there is only whitespace (comments and line
  // continuations are leaves themselves), so the range of a token whose text is known (keywords, operators,
  // punctuation, ASCII identifiers) follows from where the previous leaf ended, with no call into
  // WebAssembly. Anything unexpected falls back to asking the cursor.
  const exact = options.hasError !== true;
  let lastEnd = offset;
  const leafRange = (node: MutableNode): void => {
    if (exact) {
      let s = lastEnd;
      let c = source.charCodeAt(s);
      while (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) c = source.charCodeAt(++s);
      const end = knownTokenEnd(source, s, node);
      if (end !== undefined) {
        node.start = s;
        node.end = end;
        lastEnd = end;
        return;
      }
    }
    setLeafRange(node);
    lastEnd = node.end;
  };
  /** An unread punctuation token (not copied): reads its range as leafRange does and returns its start. */
  const unreadToken = (typeId: number): number => {
    if (exact) {
      let s = lastEnd;
      let c = source.charCodeAt(s);
      while (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) c = source.charCodeAt(++s);
      const t = typeNames[typeId] ?? '';
      if (source.startsWith(t, s)) {
        lastEnd = s + t.length;
        return s;
      }
    }
    lastEnd = cursor.endIndex + offset;
    return cursor.startIndex + offset;
  };
  /**
   * An inner node spans its children, the punctuation left out included: `firstDropped` is the start of an
   * unread token before its first copied child, `lastDropped` the end of one after its last (-1: none).
   */
  const closeInner = (node: MutableNode, typeId: number, firstDropped: number, lastDropped: number): void => {
    if (uncovered[typeId] === 1 && node.start >= 0) {
      lastEnd = node.end;
      return;
    }
    node.start = (firstDropped >= 0 ? firstDropped : node.children[0]?.start) ?? node.start; // an inner node: it has children
    node.end = (lastDropped >= 0 ? lastDropped : node.children.at(-1)?.end) ?? node.end;
  };

  /** Moves to the next sibling, climbing up (and closing finished nodes) as needed; false at the end of the block. */
  const nextNode = (): boolean => {
    for (;;) {
      if (cursor.gotoNextSibling()) return true;
      if (stack.length === 1) return false;
      cursor.gotoParent();
      const done = stack.pop()!;
      closeInner(done, done.id, firstDropped.pop()!, lastDropped.pop()!);
    }
  };
  const root = make(null, -1, cursor.nodeTypeId);
  // Iterative walk (deep expressions in generated code must not overflow the JS stack).
  const stack: MutableNode[] = [root];
  // Per node on the stack: where unread punctuation before its first copied child starts, and where such
  // punctuation after its last copied child so far ends (-1: none).
  const firstDropped: number[] = [-1];
  const lastDropped: number[] = [-1];
  if (cursor.gotoFirstChild()) {
    for (;;) {
      const parent = stack.at(-1) ?? root; // the root is never popped while the cursor is inside it
      const top = stack.length - 1;
      const typeId = cursor.nodeTypeId;
      if (unread[typeId] === 1) {
        const start = unreadToken(typeId);
        if (parent.children.length === 0 && firstDropped[top] === -1) firstDropped[top] = start;
        lastDropped[top] = lastEnd;
        if (!nextNode()) break;
        continue;
      }
      const node = make(parent, parent.id, typeId);
      lastDropped[top] = -1;
      parent.children.push(node);
      if (comment[typeId] === 1) comments.push(node);
      let descend = !(leafTypes && leafTypes[typeId]);
      if (descend && stack.length >= MAX_TREE_DEPTH) {
        // Too deep to analyse: keep the text's place as an opaque node, copy nothing below it.
        setLeafRange(node);
        node.missing = false;
        node.type = 'ERROR';
        node.children = NO_CHILDREN;
        lastEnd = node.end;
        tooDeep.push(node);
        descend = false;
      }
      if (descend && !full && skippable[typeId] === 1 && !insideClass(stack)) {
        // Needs the node's text: read its range now.
        setLeafRange(node);
        node.missing = false;
        const body = source.slice(node.start, node.end);
        if (!RELEVANT.test(body) && !DATA_CLASS.test(body.length <= MAX_DATA_CLASS ? body : '')) {
          node.skipped = true;
          descend = false;
        }
      }
      if (descend && uncovered[typeId] === 1) {
        // Their text is not all covered by visible children: read the range itself.
        setLeafRange(node);
        node.missing = false;
        lastEnd = node.end;
      }
      if (descend && cursor.gotoFirstChild()) {
        stack.push(node);
        firstDropped.push(-1);
        lastDropped.push(-1);
        continue;
      }
      if (node.start < 0) leafRange(node);
      else if (node.skipped) lastEnd = node.end;
      if (!nextNode()) break;
    }
  }
  for (const c of root.children) c.parent = null;
  return { nodes: root.children, hasErrors: (options.hasError ?? false) || tooDeep.length > 0, size: size - 1, comments, tooDeep, firstId: -1 };
}

/**
 * Builds the module tree of `source` from copied blocks (in source order). Numbers every node densely (pre-
 * order), shifts blocks that moved (`shifts[i]` is added to every offset of block i) and collects the
 * comments. A block that did not move and whose first id is the one it had in the last tree it was part of
 * (an unchanged block before the edited one) keeps its numbering: its nodes are not visited at all.
 */
export function assembleTree(source: string, blocks: readonly CopiedBlock[], shifts: readonly number[]): PyTree {
  let nextId = 1;
  const comments: PyNode[] = [];
  const tooDeep: PyNode[] = [];
  const root: MutableNode = { type: 'module', start: 0, end: source.length, field: null, named: true, missing: false, children: [], parent: null, id: 0 };
  let hasErrors = false;
  const stack: MutableNode[] = [];
  for (const [b, block] of blocks.entries()) {
    const delta = shifts[b] ?? 0;
    if (block.hasErrors) hasErrors = true;
    for (const top of block.nodes) {
      root.children.push(top);
      (top as MutableNode).parent = root;
    }
    for (const c of block.comments) comments.push(c);
    for (const d of block.tooDeep) tooDeep.push(d);
    if (delta === 0 && block.firstId === nextId) {
      nextId += block.size;
      continue;
    }
    block.firstId = nextId;
    for (let t = block.nodes.length - 1; t >= 0; t--) {
      const top = block.nodes[t];
      if (top) stack.push(top);
    }
    while (stack.length > 0) {
      const n = stack.pop()!;
      n.id = nextId++;
      if (delta !== 0) {
        n.start += delta;
        n.end += delta;
      }
      for (let i = n.children.length - 1; i >= 0; i--) {
        const child = n.children[i];
        if (child) stack.push(child);
      }
    }
  }
  return { root, source, nodeCount: nextId, hasErrors, comments, tooDeep };
}

/** A block that was not parsed (brackets nested past what Python accepts): one opaque node over its text. */
export function opaqueBlock(start: number, end: number): CopiedBlock {
  const node: PyNode = { type: 'ERROR', start, end, field: null, named: true, missing: false, children: NO_CHILDREN, parent: null, id: 0 };
  return { nodes: [node], hasErrors: true, size: 1, comments: [], tooDeep: [node], firstId: -1 };
}

/** A deep copy of a block (for a block text that occurs twice in one file: nodes cannot sit in two places). */
export function cloneBlock(block: CopiedBlock): CopiedBlock {
  // Iterative (generated code nests thousands deep).
  const tops: PyNode[] = [];
  const comments: PyNode[] = [];
  const tooDeep: PyNode[] = [];
  const deep = new Set(block.tooDeep);
  const work: { from: PyNode; parent: MutableNode | null }[] = block.nodes.map((n) => ({ from: n, parent: null }));
  while (work.length > 0) {
    const { from, parent } = work.pop()!;
    const c: MutableNode = { ...from, children: from.children === NO_CHILDREN ? NO_CHILDREN : [], parent };
    if (parent) parent.children.push(c);
    else tops.push(c);
    if (c.type === 'comment') comments.push(c);
    if (deep.has(from)) tooDeep.push(c);
    for (let i = from.children.length - 1; i >= 0; i--) {
      const child = from.children[i];
      if (child) work.push({ from: child, parent: c });
    }
  }
  tops.sort((a, b) => a.start - b.start);
  comments.sort((a, b) => a.start - b.start);
  return { nodes: tops, hasErrors: block.hasErrors, size: block.size, comments, tooDeep, firstId: -1 };
}

// ---------------------------------------------------------------------------------------------------------
// Small accessors used everywhere.

/** The innermost function definition around `node` (with `lambdas`, a lambda counts as one too), if any. */
export function enclosingFunction(node: PyNode, lambdas = false): PyNode | undefined {
  for (let p = node.parent; p; p = p.parent) if (p.type === 'function_definition' || (lambdas && p.type === 'lambda')) return p;
  return undefined;
}

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
    for (let i = n.children.length - 1; i >= 0; i--) {
      const child = n.children[i];
      if (child) stack.push(child);
    }
  }
}
