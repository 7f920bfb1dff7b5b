// A TreeCursor that calls tree-sitter's WebAssembly exports directly.
//
// web-tree-sitter's TreeCursor keeps its state (four 32-bit words) in JavaScript and, on every call, writes
// it into the runtime's transfer buffer, calls the export, and reads it back, each word through Emscripten's
// generic setValue/getValue. For a walk over every node of a file that wrapping costs about four times the
// work of the walk itself. During one copy nothing else uses the transfer buffer (the copy is synchronous and
// only reads the cursor), so the state can stay there: it is written once before the walk, the exports move
// and read the cursor in place, and the state is copied back afterwards (the cursor's stack may have been
// reallocated, and web-tree-sitter frees it from its copy).
//
// This reads web-tree-sitter internals (the Emscripten module object given to Parser.init becomes the
// runtime, with the exports and HEAP32 on it; a cursor's `handles`; a tree's address at `tree[0]`).
// `wasmCursorApi` checks each of them and returns undefined when any is missing (another web-tree-sitter
// version), and `withWasmCursor` checks per walk that the cursor lives in the same runtime instance: the
// parser otherwise walks with the public TreeCursor.
import type { CursorLike } from './tree';

type Export = (tree: number) => number;

/** The parts of the Emscripten module (the object handed to Parser.init) this uses. */
export interface WasmCursorApi {
  /** Index of the transfer buffer in HEAP32. */
  readonly transferIndex: number;
  heap(): Int32Array;
  readonly firstChild: Export;
  readonly nextSibling: Export;
  readonly parent: Export;
  readonly typeId: Export;
  readonly fieldId: Export;
  readonly startIndex: Export;
  readonly endIndex: Export;
}

const EXPORTS = {
  firstChild: '_ts_tree_cursor_goto_first_child_wasm',
  nextSibling: '_ts_tree_cursor_goto_next_sibling_wasm',
  parent: '_ts_tree_cursor_goto_parent_wasm',
  typeId: '_ts_tree_cursor_current_node_type_id_wasm',
  fieldId: '_ts_tree_cursor_current_field_id_wasm',
  startIndex: '_ts_tree_cursor_start_index_wasm',
  endIndex: '_ts_tree_cursor_end_index_wasm',
} as const;

/** The direct API over an initialised runtime module, or undefined when it does not look as expected. */
export function wasmCursorApi(module: unknown): WasmCursorApi | undefined {
  if (typeof module !== 'object' || module === null) return undefined;
  const m = module as Record<string, unknown>;
  if (!(m.HEAP32 instanceof Int32Array) || typeof m._ts_init !== 'function') return undefined;
  const fns: Partial<Record<keyof typeof EXPORTS, Export>> = {};
  for (const [key, name] of Object.entries(EXPORTS) as [keyof typeof EXPORTS, string][]) {
    const f = m[name];
    if (typeof f !== 'function') return undefined;
    fns[key] = f as Export;
  }
  // ts_init only stores the ABI versions in the (static) transfer buffer and returns its address.
  const transfer = (m._ts_init as () => unknown)();
  if (typeof transfer !== 'number' || transfer <= 0 || transfer % 4 !== 0) return undefined;
  return {
    transferIndex: transfer >> 2,
    heap: () => m.HEAP32 as Int32Array,
    ...(fns as Record<keyof typeof EXPORTS, Export>),
  };
}

/** What wasm-cursor needs from a web-tree-sitter TreeCursor and Tree (internal fields). */
interface CursorInternals {
  handles?: unknown;
  readonly nodeTypeId?: unknown;
}
interface TreeInternals {
  0?: unknown;
}

/**
 * Runs `body` with a cursor that drives `cursor` (a web-tree-sitter TreeCursor of `tree`) through the
 * exports directly. Returns undefined without calling `body` when the internals are not as expected or the
 * cursor belongs to another runtime instance than `api` (Parser.init called again with another module).
 */
export function withWasmCursor<R>(api: WasmCursorApi, tree: unknown, cursor: unknown, body: (c: CursorLike) => R): { result: R } | undefined {
  const c = cursor as CursorInternals;
  const handles = c.handles;
  const treeAddress = (tree as TreeInternals)[0];
  if (!Array.isArray(handles) || handles.length !== 4 || !handles.every((h) => typeof h === 'number') || typeof treeAddress !== 'number' || treeAddress <= 0) {
    return undefined;
  }
  // A public call writes the cursor's state into its runtime's transfer buffer. Finding it in ours proves the
  // runtimes are one and the same, and leaves the state where the exports read it.
  if (typeof c.nodeTypeId !== 'number') return undefined;
  const at = api.transferIndex;
  let heap = api.heap();
  for (let i = 0; i < 4; i++) if (heap[at + i] !== handles[i]) return undefined;
  try {
    return { result: body(new WasmCursor(api, treeAddress)) };
  } finally {
    // The memory may have grown (a deeper cursor stack): read through the current view.
    heap = api.heap();
    for (let i = 0; i < 4; i++) handles[i] = heap[at + i] ?? 0; // the four words read above
  }
}

class WasmCursor implements CursorLike {
  constructor(
    private readonly api: WasmCursorApi,
    private readonly tree: number,
  ) {}

  get nodeTypeId(): number {
    return this.api.typeId(this.tree);
  }
  get currentFieldId(): number {
    return this.api.fieldId(this.tree);
  }
  get startIndex(): number {
    return this.api.startIndex(this.tree);
  }
  get endIndex(): number {
    return this.api.endIndex(this.tree);
  }
  gotoFirstChild(): boolean {
    return this.api.firstChild(this.tree) === 1;
  }
  gotoNextSibling(): boolean {
    return this.api.nextSibling(this.tree) === 1;
  }
  gotoParent(): boolean {
    return this.api.parent(this.tree) === 1;
  }
}
