// tree-sitter, started from bytes. Both the runtime (web-tree-sitter.wasm) and the grammar
// (tree-sitter-python.wasm) are passed in as bytes, so this works the same in Node (CLI, tests) and in the
// bundled extension host, and never touches the file system itself.
//
// `require` (not `import`) is deliberate: bundlers then pick web-tree-sitter's CommonJS build, which
// needs no `import.meta.url` (the ES build calls createRequire(import.meta.url) at start-up, which breaks
// inside a CommonJS bundle).
import TreeSitter = require('web-tree-sitter');
import { copyTree, type PyTree } from './syntax/tree';

export interface GrammarBytes {
  treeSitter: Uint8Array;
  python: Uint8Array;
}

export interface PythonParser {
  /** Parses source text into a PyTree. Never throws for any string input. */
  parse(source: string, options?: { full?: boolean }): PyTree;
}

let runtimeReady: Promise<void> | undefined;

function initRuntime(bytes: Uint8Array): Promise<void> {
  // Parser.init is process-wide; the first call's bytes win (all callers ship the same runtime).
  runtimeReady ??= TreeSitter.Parser.init({ wasmBinary: bytes }).catch((e: unknown) => {
    runtimeReady = undefined;
    throw new Error(`could not start tree-sitter from the given web-tree-sitter.wasm bytes: ${String(e)}`);
  });
  return runtimeReady;
}

function checkWasm(bytes: Uint8Array, what: string): void {
  if (!(bytes instanceof Uint8Array) || bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error(`${what}: expected the bytes of a WebAssembly module (starting with \\0asm)`);
  }
}

export async function createPythonParser(grammar: GrammarBytes): Promise<PythonParser> {
  checkWasm(grammar.treeSitter, 'treeSitter');
  checkWasm(grammar.python, 'python');
  await initRuntime(grammar.treeSitter);
  let language: TreeSitter.Language;
  try {
    language = await TreeSitter.Language.load(grammar.python);
  } catch (e) {
    throw new Error(`could not load the Python grammar from the given tree-sitter-python.wasm bytes: ${String(e)}`);
  }
  const parser = new TreeSitter.Parser();
  parser.setLanguage(language);
  const typeNames = language.types;
  const tables = {
    typeNames,
    fieldNames: language.fields,
    namedTypes: typeNames.map((_, id) => language.nodeTypeIsNamed(id)),
  };

  return {
    parse(source: string, options?: { full?: boolean }): PyTree {
      const tree = parser.parse(source);
      if (!tree) throw new Error('tree-sitter returned no tree');
      const cursor = tree.walk();
      try {
        return copyTree(cursor, source, tables, { ...options, hasError: tree.rootNode.hasError });
      } finally {
        cursor.delete();
        tree.delete();
      }
    },
  };
}
