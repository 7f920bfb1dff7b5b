// Evidence in the files that import the linted one. A model file rarely says it runs in float16; its trainer
// does (`GradScaler()`, `autocast()`, `.half()`, `--fp16`). The files that can import it sit in its directory
// or above it; each is read once per version (its import lines and its precision evidence, no parse), and a
// file that imports the linted one and runs in half precision makes the linted file's fills judged in it.
import { precisionEvidenceAt, sourcePrecision, type PrecisionEvidence } from './precision';
import { dirOf, moduleBases, moduleFile, type ModuleLink, type WorkspaceFiles } from './workspace';

/** Files looked at, at most, per lint (the directory of the linted file and those above it). */
const MAX_CANDIDATES = 200;

export interface ImporterFacts {
  /** Modules named by the file's import statements: [level, dotted parts, imported names]. */
  readonly imports: readonly { level: number; parts: string[]; names: string[] }[];
  readonly precision: PrecisionEvidence;
  readonly at?: { line: number; column: number };
}

const FROM_IMPORT = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w, \t]+)/gm;
const PLAIN_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/gm;

export function readFacts(source: string): ImporterFacts {
  const imports: { level: number; parts: string[]; names: string[] }[] = [];
  for (const m of source.matchAll(FROM_IMPORT)) {
    imports.push({
      level: (m[1] ?? '').length, // the groups of a match are there (empty or not)
      parts: m[2] ? m[2].split('.') : [],
      names: (m[3] ?? '')
        .split(',')
        .map((n) => n.trim().split(/\s+/)[0] ?? '')
        .filter((n) => n.length > 0),
    });
  }
  for (const m of source.matchAll(PLAIN_IMPORT)) {
    for (const item of (m[1] ?? '').split(',')) imports.push({ level: 0, parts: (item.trim().split(/\s+/)[0] ?? '').split('.'), names: [] });
  }
  const precision = sourcePrecision(source);
  const at = precision.fp16 || precision.bf16 ? precisionEvidenceAt(source) : undefined;
  return { imports, precision, ...(at ? { at } : {}) };
}

/** Facts of the files a lint has looked at (each file's version is asked once per lint, not once per question). */
const factsPerLint = new WeakMap<ModuleLink, Map<string, ImporterFacts | undefined>>();

function factsOf(link: ModuleLink, candidate: string): ImporterFacts | undefined {
  let seen = factsPerLint.get(link);
  if (!seen) factsPerLint.set(link, (seen = new Map()));
  if (seen.has(candidate)) return seen.get(candidate);
  const facts = link.workspace.textFacts(candidate, readFacts);
  seen.set(candidate, facts);
  return facts;
}

/** Whether `importer` imports the module at `target` (by any form of import statement). */
export function importsFile(files: WorkspaceFiles, importer: string, facts: ImporterFacts, target: string): boolean {
  for (const imp of facts.imports) {
    for (const base of moduleBases(files, importer, imp.level)) {
      if (moduleFile(files, base, imp.parts) === target) return true;
      for (const name of imp.names) if (moduleFile(files, base, [...imp.parts, name]) === target) return true;
    }
  }
  return false;
}

/**
 * Half-precision evidence from a workspace file that imports the linted one (its directory and those above),
 * or undefined. The file read is noted as a dependency of the lint.
 */
export function importerPrecision(link: ModuleLink): PrecisionEvidence | undefined {
  const files = link.workspace.files;
  if (!files.listPython) return undefined;
  let seen = 0;
  for (let dir = dirOf(link.path); ; dir = dirOf(dir)) {
    for (const candidate of files.listPython(dir)) {
      if (candidate === link.path || ++seen > MAX_CANDIDATES) continue;
      const facts = factsOf(link, candidate);
      if (!facts || (!facts.precision.fp16 && !facts.precision.bf16) || !facts.at) continue;
      if (!importsFile(files, candidate, facts, link.path)) continue;
      link.deps.set(candidate, files.version(candidate));
      return { fp16: facts.precision.fp16, bf16: facts.precision.bf16, from: { path: candidate, line: facts.at.line, column: facts.at.column } };
    }
    if (dir === '') return undefined;
  }
}

/** Workspace files (its directory and those above) that import the linted file, at most `max`; each noted as a dependency. */
export function importingFiles(link: ModuleLink, max: number): string[] {
  const files = link.workspace.files;
  if (!files.listPython) return [];
  const out: string[] = [];
  // Every import of the file names its module (`masks` for pkg/masks.py, `pkg` for pkg/__init__.py): a cheap test first.
  const stem = link.path.replace(/\.py$/, '').split('/');
  const name = stem[stem.length - 1] === '__init__' ? stem[stem.length - 2] : stem[stem.length - 1];
  if (name === undefined) return []; // a top-level __init__.py: no module name imports it
  let seen = 0;
  for (let dir = dirOf(link.path); ; dir = dirOf(dir)) {
    for (const candidate of files.listPython(dir)) {
      if (candidate === link.path || ++seen > MAX_CANDIDATES || out.length >= max) continue;
      const facts = factsOf(link, candidate);
      if (!facts || !facts.imports.some((i) => i.parts.includes(name) || i.names.includes(name))) continue;
      if (!importsFile(files, candidate, facts, link.path)) continue;
      link.deps.set(candidate, files.version(candidate));
      out.push(candidate);
    }
    if (dir === '' || out.length >= max) return out;
  }
}
