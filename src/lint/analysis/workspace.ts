// Cross-file analysis within a workspace: imports resolved to the workspace's own Python files, each of
// those files analysed once (parsed whole, scopes, an evaluator that is asked, never run) and kept until the
// file or a file it depends on changes. The evaluator of the linted file calls into these modules through
// summaries (evaluator.ts: summaryCall) and gets back portable values (portable.ts) that name where their
// evidence lives ("from `make_pad_mask` in utils.py:12").
//
// Pure: the files come from a `WorkspaceFiles` the caller passes (the CLI and the lint worker read them from
// disk through a bounded reader; the editor's open documents win over disk). Paths are relative to the
// workspace root, '/'-separated.
import type { PyTree } from '../syntax/tree';
import { analyseScopes, type Def, type Scope, type ScopeResult } from './scopes';
import type { Evaluator } from './evaluator';

/** The files of a workspace, by path relative to its root ('/'-separated, no leading '/', no '..'). */
export interface WorkspaceFiles {
  /** The file's text, or undefined when it does not exist, is not a regular file or cannot be read. */
  read(relPath: string): string | undefined;
  /**
   * A token that changes whenever the file's text changes (a document version, mtime and size), or undefined
   * when the file does not exist. Asked before every use of a cached analysis, so it must be cheap.
   */
  version(relPath: string): string | number | undefined;
  /**
   * The Python files directly in a directory ('' is the root), as workspace-relative paths. Optional: without
   * it, evidence in files that import the linted one (a trainer's fp16 settings) is not looked for.
   */
  listPython?(dir: string): readonly string[];
  /**
   * The directories directly in a directory ('' is the root), as workspace-relative paths, without hidden ones
   * and those that hold no project code (virtual environments, caches, node_modules). Optional: without it,
   * importers in sibling directories (`scripts/train.py` for `models/attn.py`) are not looked for.
   */
  listDirs?(dir: string): readonly string[];
}

/** Files larger than this are not analysed as imported modules (generated code, data dumps). */
const MAX_IMPORTED_FILE_CHARS = 1_000_000;
/** Imported files' analyses kept at most (past this the cache starts again empty). */
const MAX_CACHED_MODULES = 256;
/** How deep a chain of calls may cross from file to file. */
export const MAX_FILE_DEPTH = 3;

/** A workspace-relative path in canonical form, or undefined for one that would leave the workspace. */
export function normalizeRelPath(p: string): string | undefined {
  const out: string[] = [];
  for (const part of p.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.length > 0 ? out.join('/') : undefined;
}

export function dirOf(relPath: string): string {
  const i = relPath.lastIndexOf('/');
  return i < 0 ? '' : relPath.slice(0, i);
}

const joinPath = (dir: string, rest: string): string => (dir ? `${dir}/${rest}` : rest);

/**
 * The directories absolute imports are resolved from, for a file at `fromPath`: the workspace root, the
 * directory above the file's top-level package (the first directory going up without an __init__.py), and
 * `src/` (the src layout).
 */
export function importRoots(files: WorkspaceFiles, fromPath: string): string[] {
  const roots = [''];
  let dir = dirOf(fromPath);
  while (dir !== '' && files.version(joinPath(dir, '__init__.py')) !== undefined) dir = dirOf(dir);
  if (!roots.includes(dir)) roots.push(dir);
  if (!roots.includes('src')) roots.push('src');
  return roots;
}

/** The file of module `parts` under `root` (`a/b.py` or `a/b/__init__.py`), or undefined. */
export function moduleFile(files: WorkspaceFiles, root: string, parts: readonly string[]): string | undefined {
  if (parts.length === 0) {
    const init = joinPath(root, '__init__.py');
    return root !== '' && files.version(init) !== undefined ? init : undefined;
  }
  if (parts.some((p) => !/^[A-Za-z_]\w*$/.test(p))) return undefined;
  const base = joinPath(root, parts.join('/'));
  for (const candidate of [`${base}.py`, `${base}/__init__.py`]) if (files.version(candidate) !== undefined) return candidate;
  return undefined;
}

/**
 * Where `from <level dots><parts> import ...` / `import <parts>` in `fromPath` looks for modules: for a relative
 * import, the directory `level - 1` levels above the file's own; for an absolute one, every import root.
 */
export function moduleBases(files: WorkspaceFiles, fromPath: string, level: number): string[] {
  if (level === 0) return importRoots(files, fromPath);
  let dir = dirOf(fromPath);
  for (let i = 1; i < level; i++) {
    if (dir === '') return [];
    dir = dirOf(dir);
  }
  return [dir];
}

/** One workspace file analysed as an imported module. */
export interface ModuleAnalysis {
  readonly path: string;
  readonly version: string | number;
  readonly tree: PyTree;
  readonly sr: ScopeResult;
  readonly ev: Evaluator;
  /** Workspace files this module's analysis read (its imports), with the versions it saw. */
  readonly deps: Map<string, string | number | undefined>;
}

/** Makes the evaluator of an imported module (evaluator.ts registers it, to keep this module free of a cycle). */
export type ModuleEvaluatorFactory = (tree: PyTree, sr: ScopeResult, link: ModuleLink) => Evaluator;

/** What an evaluator knows of the workspace it runs in: its own path and the shared module cache. */
export interface ModuleLink {
  readonly path: string;
  readonly workspace: WorkspaceAnalysis;
  /** Workspace files read while analysing this file (for invalidation and for re-linting dependents). */
  readonly deps: Map<string, string | number | undefined>;
  /** Look for evidence in the files that import this one (the linted file, not the modules it imports). */
  readonly importers?: boolean;
}

/**
 * The workspace's imported modules, each analysed once and reused while neither it nor a file it read changed.
 * One per linter: the lint worker and the CLI keep it across files.
 */
export class WorkspaceAnalysis {
  private readonly cache = new Map<string, ModuleAnalysis>();
  private readonly loading = new Set<string>();
  /** Analyses made (not reused) since the start: for tests and the bench. */
  analysed = 0;
  /** Calls from one file into another currently being evaluated (bounded by MAX_FILE_DEPTH). */
  crossings = 0;

  constructor(
    readonly files: WorkspaceFiles,
    private readonly parse: (source: string) => PyTree,
    private readonly makeEvaluator: ModuleEvaluatorFactory,
  ) {}

  /** The analysis of a workspace file, fresh (re-made when it or a file it read changed); undefined when unreadable. */
  module(path: string): ModuleAnalysis | undefined {
    const hit = this.cache.get(path);
    if (hit && this.fresh(hit, new Set())) return hit;
    if (this.loading.has(path)) return undefined;
    if (!hit && this.cache.size >= MAX_CACHED_MODULES) this.cache.clear();
    const version = this.files.version(path);
    if (version === undefined) return undefined;
    const source = this.files.read(path);
    if (source === undefined || source.length > MAX_IMPORTED_FILE_CHARS) return undefined;
    this.loading.add(path);
    try {
      const tree = this.parse(source);
      const sr = analyseScopes(tree);
      const deps = new Map<string, string | number | undefined>();
      const ev = this.makeEvaluator(tree, sr, { path, workspace: this, deps });
      const m: ModuleAnalysis = { path, version, tree, sr, ev, deps };
      this.cache.set(path, m);
      this.analysed++;
      return m;
    } finally {
      this.loading.delete(path);
    }
  }

  /** A cached analysis is fresh when its file and every file it read still have the versions it saw. */
  private fresh(m: ModuleAnalysis, seen: Set<string>): boolean {
    if (seen.has(m.path)) return true;
    seen.add(m.path);
    if (this.files.version(m.path) !== m.version) return false;
    for (const [dep, v] of m.deps) {
      if (this.files.version(dep) !== v) return false;
      const d = this.cache.get(dep);
      if (d && !this.fresh(d, seen)) return false;
    }
    return true;
  }

  /** Text facts per function that computes them, by path: the version of the text they were computed from. */
  private readonly importFacts = new Map<(source: string) => unknown, Map<string, { version: string | number; facts: unknown }>>();
  private importFactsKept = 0;

  /**
   * `compute(text)` for a file, kept while the file keeps the version it had (facts of importers, read without
   * parsing; each `compute` keeps its own); `invalidate` drops them, since an editor's document versions start
   * again when a closed document is opened again.
   */
  textFacts<T>(path: string, compute: (source: string) => T): T | undefined {
    const version = this.files.version(path);
    if (version === undefined) return undefined;
    let byPath = this.importFacts.get(compute);
    const hit = byPath?.get(path);
    if (hit && hit.version === version) return hit.facts as T;
    const source = this.files.read(path);
    if (source === undefined || source.length > MAX_IMPORTED_FILE_CHARS) return undefined;
    const facts = compute(source);
    if (this.importFactsKept > 4096) {
      this.importFacts.clear();
      this.importFactsKept = 0;
      byPath = undefined;
    }
    if (!byPath) this.importFacts.set(compute, (byPath = new Map()));
    if (!byPath.has(path)) this.importFactsKept++;
    byPath.set(path, { version, facts });
    return facts;
  }

  /**
   * Forgets what was read from a file: its analysis and its text facts (the editor calls this when a document
   * is closed, after which its versions may repeat; versions catch the rest).
   */
  invalidate(path: string): void {
    this.cache.delete(path);
    for (const byPath of this.importFacts.values()) if (byPath.delete(path)) this.importFactsKept--;
  }

  /** The evaluator that owns a scope (a function or class of some analysed module), if any. */
  ownerOf(scope: Scope): Evaluator | undefined {
    for (const m of this.cache.values()) if (m.sr.scopes[scope.id] === scope) return m.ev;
    return undefined;
  }
}

/** Module-level definitions of `name` in an analysed module (its environment at the end of the file). */
export function moduleDefs(m: ModuleAnalysis, name: string): readonly Def[] {
  return m.sr.module.envAtEnd.get(name) ?? [];
}

/** The 1-based line of an offset in a source text. */
export function lineOf(src: string, offset: number): number {
  // Binary search in the offsets of the line breaks (kept for the last few sources: one lint asks about one
  // file many times).
  const breaks = lineBreaks(src);
  let lo = 0;
  let hi = breaks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const at = breaks.at(mid); // mid < breaks.length here
    if (at !== undefined && at < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

const BREAKS_KEPT = 8;
const breaksOf = new Map<string, readonly number[]>();

function lineBreaks(src: string): readonly number[] {
  const known = breaksOf.get(src);
  if (known) return known;
  const out: number[] = [];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) out.push(i);
  if (breaksOf.size >= BREAKS_KEPT) breaksOf.delete(breaksOf.keys().next().value as string);
  breaksOf.set(src, out);
  return out;
}
