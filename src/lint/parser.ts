// tree-sitter, started from bytes. Both the runtime (web-tree-sitter.wasm) and the grammar
// (tree-sitter-python.wasm) are passed in as bytes, so this works the same in Node (CLI, tests) and in the
// bundled extension host, and never touches the file system itself.
//
// `require` (not `import`) is deliberate: bundlers then pick web-tree-sitter's CommonJS build, which
// needs no `import.meta.url` (the ES build calls createRequire(import.meta.url) at start-up, which breaks
// inside a CommonJS bundle).
//
// A source is parsed block by block (syntax/blocks.ts): only the top-level statements that can matter are
// parsed and copied, and with `cacheBlocks` a block whose text did not change since an earlier parse is
// reused instead of parsed again (what an editor relinting after each keystroke needs).
import TreeSitter = require('web-tree-sitter');
import { selectBlocks, splitTopLevel, type SourceBlock } from './syntax/blocks';
import { assembleTree, cloneBlock, copyBlock, opaqueBlock, type CopiedBlock, type LanguageTables, type PyTree } from './syntax/tree';
import { wasmCursorApi, withWasmCursor, type WasmCursorApi } from './syntax/wasm-cursor';

export interface GrammarBytes {
  treeSitter: Uint8Array;
  python: Uint8Array;
}

export interface ParseOptions {
  /** Copy every block and every body (no relevance filter). */
  full?: boolean;
}

export interface PythonParser {
  /** Parses source text into a PyTree. Never throws for any string input. */
  parse(source: string, options?: ParseOptions): PyTree;
  /** How trees are walked: through the WebAssembly exports directly, or web-tree-sitter's public cursor. */
  readonly cursor: 'direct' | 'public';
}

export interface ParserOptions {
  /**
   * Keep copied blocks (keyed by their text) for later parses. Trees from earlier parses must not be used
   * once a later parse has run (their blocks may have been moved into the new tree).
   */
  cacheBlocks?: boolean;
  /** Upper bound on the nodes kept in the block cache. */
  maxCachedNodes?: number;
  /**
   * Walk trees through tree-sitter's WebAssembly exports directly (syntax/wasm-cursor.ts; the default, when
   * the runtime allows it) or, with false, through web-tree-sitter's public TreeCursor. Same trees either way.
   */
  directCursor?: boolean;
}

let runtimeReady: Promise<WasmCursorApi | undefined> | undefined;

/** Starts the runtime once per process; resolves to the direct cursor API when the runtime offers it. */
function initRuntime(bytes: Uint8Array): Promise<WasmCursorApi | undefined> {
  // Parser.init is process-wide; the first call's bytes win (all callers ship the same runtime). The object
  // passed in becomes the Emscripten module (it then holds the exports the direct cursor calls).
  const module = { wasmBinary: bytes };
  runtimeReady ??= TreeSitter.Parser.init(module).then(
    () => wasmCursorApi(module),
    (e: unknown) => {
      runtimeReady = undefined;
      throw new Error(`could not start tree-sitter from the given web-tree-sitter.wasm bytes: ${String(e)}`);
    },
  );
  return runtimeReady;
}

/**
 * Grammars loaded in this process, each once. `Language.load` links the grammar's module into the process-wide runtime
 * every time it is called, and what it takes there (memory, function-table slots) is never given back: a process that
 * made many parsers (a test run, a long-lived host making linters) ran out of table slots and every later load or
 * parse failed. Keyed by content, compared byte for byte (callers read the file afresh; one or two grammars per process).
 */
const loadedLanguages: { bytes: Uint8Array; language: Promise<TreeSitter.Language> }[] = [];

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function loadLanguage(bytes: Uint8Array): Promise<TreeSitter.Language> {
  const known = loadedLanguages.find((l) => sameBytes(l.bytes, bytes));
  if (known) return known.language;
  const entry = { bytes: bytes.slice(), language: TreeSitter.Language.load(bytes) };
  loadedLanguages.push(entry);
  // A failed load is not kept: the next call with these bytes tries again (and reports its own error).
  entry.language.catch(() => {
    const at = loadedLanguages.indexOf(entry);
    if (at >= 0) loadedLanguages.splice(at, 1);
  });
  return entry.language;
}

function checkWasm(bytes: Uint8Array, what: string): void {
  if (!(bytes instanceof Uint8Array) || bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error(`${what}: expected the bytes of a WebAssembly module (starting with \\0asm)`);
  }
}

/** Node types that have fields (their children may be asked for a field name), from the grammar's node-types. */
export const PYTHON_FIELD_PARENTS: ReadonlySet<string> = new Set([
  'aliased_import',
  'as_pattern',
  'assignment',
  'attribute',
  'augmented_assignment',
  'binary_operator',
  'block',
  'boolean_operator',
  'call',
  'case_clause',
  'class_definition',
  'comparison_operator',
  'decorated_definition',
  'default_parameter',
  'dict_pattern',
  'dictionary_comprehension',
  'elif_clause',
  'else_clause',
  'except_clause',
  'exec_statement',
  'for_in_clause',
  'for_statement',
  'format_expression',
  'function_definition',
  'future_import_statement',
  'generator_expression',
  'if_statement',
  'import_from_statement',
  'import_statement',
  'interpolation',
  'keyword_argument',
  'lambda',
  'list_comprehension',
  'match_statement',
  'named_expression',
  'not_operator',
  'pair',
  'print_statement',
  'raise_statement',
  'set_comprehension',
  'subscript',
  'try_statement',
  'type_alias_statement',
  'typed_default_parameter',
  'typed_parameter',
  'unary_operator',
  'while_statement',
  'with_item',
  'with_statement',
  // Error recovery may keep fields under these.
  'ERROR',
]);

/** Named node types that never have children. Anonymous tokens never do either (except 'is not' / 'not in'). */
export const PYTHON_NAMED_LEAVES: ReadonlySet<string> = new Set([
  'comment',
  'ellipsis',
  'escape_interpolation',
  'escape_sequence',
  'false',
  'float',
  'identifier',
  'integer',
  'line_continuation',
  'none',
  'string_end',
  'string_start',
  'true',
  'type_conversion',
]);

const COMPOUND_TOKENS = new Set(['is not', 'not in']);

/**
 * The same string, internalized (V8 keeps one copy of each property-key string). The grammar's type and field
 * names come out of WebAssembly memory as fresh strings, and every `node.type === 'call'` or field lookup
 * against such a string compares characters; against an internalized one, equal strings are the same pointer.
 */
function internalized(s: string | null): string | null {
  return s === null ? null : (Object.keys({ [s]: 0 })[0] ?? s);
}

export async function createPythonParser(grammar: GrammarBytes, parserOptions: ParserOptions = {}): Promise<PythonParser> {
  checkWasm(grammar.treeSitter, 'treeSitter');
  checkWasm(grammar.python, 'python');
  const runtime = await initRuntime(grammar.treeSitter);
  const direct = parserOptions.directCursor === false ? undefined : runtime;
  let language: TreeSitter.Language;
  try {
    language = await loadLanguage(grammar.python);
  } catch (e) {
    throw new Error(`could not load the Python grammar from the given tree-sitter-python.wasm bytes: ${String(e)}`);
  }
  const parser = new TreeSitter.Parser();
  parser.setLanguage(language);
  const typeNames = language.types.map(internalized);
  const namedTypes = typeNames.map((_, id) => language.nodeTypeIsNamed(id));
  const tables: LanguageTables = {
    typeNames,
    fieldNames: language.fields.map(internalized),
    namedTypes,
    fieldParents: typeNames.map((t) => t !== null && PYTHON_FIELD_PARENTS.has(t)),
    leafTypes: typeNames.map((t, id) => t !== null && (namedTypes[id] ? PYTHON_NAMED_LEAVES.has(t) : !COMPOUND_TOKENS.has(t) && t !== 'ERROR')),
  };
  const cache = parserOptions.cacheBlocks ? new BlockCache(parserOptions.maxCachedNodes ?? 400_000) : undefined;

  const parseBlock = (source: string, start: number, end: number, full: boolean): CopiedBlock => {
    const text = source.slice(start, end);
    const tree = parser.parse(text);
    if (!tree) throw new Error('tree-sitter returned no tree');
    const cursor = tree.walk();
    try {
      const options = { full, hasError: tree.rootNode.hasError, offset: start };
      const fast = direct && withWasmCursor(direct, tree, cursor, (c) => copyBlock(c, source, tables, options));
      return fast ? fast.result : copyBlock(cursor, source, tables, options);
    } finally {
      cursor.delete();
      tree.delete();
    }
  };

  return {
    cursor: direct ? 'direct' : 'public',
    parse(source: string, options?: ParseOptions): PyTree {
      const full = options?.full === true;
      const blocks = splitTopLevel(source);
      const copied: CopiedBlock[] = [];
      const shifts: number[] = [];
      /** Where each reused block's nodes sat before this parse (a second use of the same text clones from there). */
      const firstAt = new Map<CacheEntry, number>();
      // Helpers a site's code calls are copied whole (their bodies are evaluated at the call sites).
      const helpers: boolean[] = [];
      const selected = full ? undefined : selectBlocks(source, blocks, helpers);
      for (const [bi, b] of blocks.entries()) {
        if (selected && !selected[bi]) continue;
        if (b.tooDeep) {
          copied.push(opaqueBlock(b.start, b.end));
          shifts.push(0);
          continue;
        }
        const blockFull = full || helpers[bi] === true;
        const key = cache ? cacheKey(source, b, blockFull) : undefined;
        const hit = key !== undefined ? cache!.get(key) : undefined;
        if (hit) {
          const at = firstAt.get(hit);
          if (at === undefined) {
            firstAt.set(hit, hit.at);
            copied.push(hit.block);
            shifts.push(b.start - hit.at);
            hit.at = b.start;
          } else {
            // The same text twice in one file: the second occurrence needs its own nodes.
            copied.push(cloneBlock(hit.block));
            shifts.push(b.start - at);
          }
          continue;
        }
        const block = parseBlock(source, b.start, b.end, blockFull);
        copied.push(block);
        shifts.push(0);
        if (key !== undefined) {
          const stored = flatten(key);
          if (stored === key) cache!.set(stored, { block, at: b.start });
        }
      }
      const tree = assembleTree(source, copied, shifts);
      if (full) return tree;
      // Parsed whole on demand, with no block cache (its blocks must not be moved into, nor taken from, this tree's).
      let whole: PyTree | undefined;
      const parseWhole = (): PyTree =>
        (whole ??= assembleTree(
          source,
          blocks.map((b) => (b.tooDeep ? opaqueBlock(b.start, b.end) : parseBlock(source, b.start, b.end, true))),
          blocks.map(() => 0),
        ));
      return { ...tree, whole: parseWhole };
    },
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A copy of a string that does not keep the string it was sliced from alive (cache keys outlive sources). */
function flatten(s: string): string {
  return decoder.decode(encoder.encode(s));
}

function cacheKey(source: string, b: SourceBlock, full: boolean): string {
  return (full ? 'F' : 'R') + source.slice(b.start, b.end);
}

interface CacheEntry {
  block: CopiedBlock;
  /** Source offset the block's nodes currently sit at. */
  at: number;
}

/** Copied blocks by text, least recently used first out, bounded by their total node count. */
class BlockCache {
  private readonly map = new Map<string, CacheEntry>();
  private nodes = 0;

  constructor(private readonly maxNodes: number) {}

  get(key: string): CacheEntry | undefined {
    const e = this.map.get(key);
    if (e) {
      this.map.delete(key);
      this.map.set(key, e);
    }
    return e;
  }

  set(key: string, e: CacheEntry): void {
    if (e.block.size > this.maxNodes / 4) return;
    const old = this.map.get(key);
    if (old) this.nodes -= old.block.size;
    this.map.set(key, e);
    this.nodes += e.block.size;
    for (const [k, v] of this.map) {
      if (this.nodes <= this.maxNodes) break;
      this.map.delete(k);
      this.nodes -= v.block.size;
    }
  }
}
