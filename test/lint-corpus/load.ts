// File access for the lint corpus (test and script code only): reading the case files and the grammar
// wasm the linter needs. Parsing and scoring live in ./score.ts.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseCase, parseFolderCase, type CorpusCase, type FolderFile } from './score';

export const CORPUS_DIR = join(__dirname, 'cases');
export const REPO_ROOT = join(__dirname, '..', '..');

export interface CaseFile {
  /** The file name, or for a folder case the folder's name followed by `/`. */
  file: string;
  /** The file's text ('' for a folder case). */
  text: string;
  /** A folder case's .py files, at any depth, with paths relative to the folder. */
  files?: FolderFile[];
}

/** Every .py file under `dir`, at any depth (hidden folders and __pycache__ left out), sorted by path. */
export function readFolderFiles(dir: string, prefix = ''): FolderFile[] {
  const out: FolderFile[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || name === '__pycache__') continue;
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) out.push(...readFolderFiles(full, `${prefix}${name}/`));
    else if (st.isFile() && name.endsWith('.py')) out.push({ path: `${prefix}${name}`, text: readFileSync(full, 'utf8') });
  }
  return out;
}

/** Every .py and .ipynb file and every folder case (a folder: one small workspace) in the cases folder, by name. */
export function readCaseFiles(dir: string = CORPUS_DIR): CaseFile[] {
  const out: CaseFile[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (name.startsWith('.')) continue;
    if (statSync(full).isDirectory()) out.push({ file: `${name}/`, text: '', files: readFolderFiles(full) });
    else if (name.endsWith('.py') || name.endsWith('.ipynb')) out.push({ file: name, text: readFileSync(full, 'utf8') });
  }
  return out;
}

/** Parses every case; throws one Error listing every malformed case. */
export function loadCorpus(dir: string = CORPUS_DIR): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const errors: string[] = [];
  for (const { file, text, files } of readCaseFiles(dir)) {
    try {
      cases.push(files ? parseFolderCase(file, files) : parseCase(file, text));
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
