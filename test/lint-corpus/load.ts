// File access for the lint corpus (test and script code only): reading the case files and the grammar
// wasm the linter needs. Parsing and scoring live in ./score.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseCase, type CorpusCase } from './score';

export const CORPUS_DIR = join(__dirname, 'cases');
export const REPO_ROOT = join(__dirname, '..', '..');

export interface CaseFile {
  file: string;
  text: string;
}

/** Every .py and .ipynb file in the cases folder, sorted by name. */
export function readCaseFiles(dir: string = CORPUS_DIR): CaseFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.py') || f.endsWith('.ipynb'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}

/** Parses every case; throws one Error listing every malformed case. */
export function loadCorpus(dir: string = CORPUS_DIR): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const errors: string[] = [];
  for (const { file, text } of readCaseFiles(dir)) {
    try {
      cases.push(parseCase(file, text));
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  if (errors.length > 0) throw new Error(`malformed corpus cases in ${dir}:\n  ${errors.join('\n  ')}`);
  return cases;
}

/** The grammar wasm files as the contract names them (node_modules, copied to media/ by the build). */
export function readGrammarWasm(root: string = REPO_ROOT): { treeSitter: Uint8Array; python: Uint8Array } {
  const read = (rel: string) => new Uint8Array(readFileSync(join(root, rel)));
  return {
    treeSitter: read('node_modules/web-tree-sitter/web-tree-sitter.wasm'),
    python: read('node_modules/tree-sitter-python/tree-sitter-python.wasm'),
  };
}
