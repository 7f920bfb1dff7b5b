// The attention linter: public API (see docs/LINT-CONTRACT.md). Pure TypeScript over tree-sitter; no
// vscode, DOM or node built-ins. Hosts pass the grammar bytes in and get plain findings back.
import { Evaluator } from './analysis/evaluator';
import { normalizeRelPath, WorkspaceAnalysis, type ModuleLink, type WorkspaceFiles } from './analysis/workspace';
import { describeError, lintTree, isEnabled, notAnalysedFinding, type EngineHooks } from './engine';
import { defineTemplates, msg } from './message';
import { PREFILTERS } from './analysis/prefilters';
import { joinCells, parseNotebook, type NotebookCell } from './notebook';
import { createPythonParser, type PythonParser } from './parser';
import { NOT_ANALYSED, type Finding, type LintOptions, type Linter, type NotebookCellFindings, type RelatedLocation } from './types';

export type { Finding, FindingCode, Fix, FixSafety, LintOptions, Linter, NotebookCellFindings, RelatedLocation, RuleCode, Severity, TextEdit } from './types';
export { MAX_LINT_FILE_BYTES, NOT_ANALYSED, RULE_CODES, isRuleCode } from './types';
export { RULES, ruleByCode } from './rules';
export type { Rule, RuleMeta, RuleDocs } from './rules';
export { isEnabled } from './engine';
export { parseNotebook, type NotebookCell } from './notebook';
export { renderRulePage, rulePageFileName } from './docs';
export { normalizeRelPath, type WorkspaceFiles } from './analysis/workspace';

const T = defineTemplates({
  tooLarge: "{0} characters, over the linter's limit of {1}",
  cellsTooLarge: "the code cells hold {0} characters, over the linter's limit of {1}",
  parserFailed: 'the parser failed ({0})',
});

/**
 * Inputs larger than this are not analysed (an ATT000 error says so): analysis takes about 220 bytes of
 * memory per character of dense attention code, so this bounds one file at about 900 MB and 10 s of CPU
 * (measured with bench/lint-scaling.ts's kinds at just under the bound, 106k-144k lines with a finding at every
 * site: 7.6-8.5 s CPU, 840-870 MiB peak RSS; bench/results/2026-12-03-session-22-lint-perf-after.txt).
 */
export const MAX_SOURCE_CHARS = 4_000_000;

/**
 * Text every file with a possible finding contains (a softmax, a mask, an attention API, a matrix product,
 * a fill value; built from the API table). Files without any of it are not parsed at all, which keeps
 * whole-repository runs fast.
 */
export const MIGHT_HAVE_FINDINGS = PREFILTERS.file;

export interface ExtendedLinter extends Linter {
  /** Lints a notebook and says why it could not when the JSON is broken (lintNotebook then returns []). */
  lintNotebookFile(ipynbJson: string, options?: LintOptions): { cells: NotebookCellFindings[]; error?: string };
  /** Lints code cells given as text (an open notebook in the editor), in order, with their cell indices. */
  lintCells(cells: readonly NotebookCell[], options?: LintOptions): NotebookCellFindings[];
  /**
   * The workspace files the last lint of `path` read through its imports (to re-lint it when one of them
   * changes). Empty without a workspace.
   */
  workspaceDependencies(path: string): readonly string[];
  /** Drops the cached analysis of a workspace file (versions catch changes too; this frees it at once). */
  invalidateWorkspaceFile(path: string): void;
}

export interface CreateLinterOptions extends EngineHooks {
  /**
   * The workspace the linted files belong to: with it, a lint given `options.path` follows that file's imports
   * of other workspace files (`from .utils import make_pad_mask`), whose analyses are cached per file version.
   */
  workspace?: WorkspaceFiles;
}

export async function createLinter(wasm: { treeSitter: Uint8Array; python: Uint8Array }, options: CreateLinterOptions = {}): Promise<ExtendedLinter> {
  const parser = await createPythonParser(wasm, { cacheBlocks: true });
  const hooks: EngineHooks = { onInternalError: options.onInternalError };
  // Imported modules are parsed whole by a second parser without the block cache (trees from the cached
  // parser must not outlive its next parse, and the linted file's tree is in use while they are parsed).
  const moduleParser = options.workspace ? await createPythonParser(wasm) : undefined;
  const workspace =
    options.workspace && moduleParser
      ? new WorkspaceAnalysis(
          options.workspace,
          (src) => moduleParser.parse(src, { full: true }),
          (tree, sr, link) => new Evaluator(tree, sr, link),
        )
      : undefined;
  const dependencies = new Map<string, readonly string[]>();
  const linkFor = (opts: LintOptions | undefined): ModuleLink | undefined => {
    const path = workspace && typeof opts?.path === 'string' ? normalizeRelPath(opts.path) : undefined;
    return workspace && path ? { path, workspace, deps: new Map(), importers: true } : undefined;
  };

  const lintSource = (source: string, opts?: LintOptions): Finding[] => {
    if (typeof source !== 'string' || source.length === 0) return [];
    if (!anyRuleEnabled(opts)) return [];
    if (source.length > MAX_SOURCE_CHARS) {
      return notAnalysedFinding(msg(T.tooLarge, source.length.toLocaleString('en-US'), MAX_SOURCE_CHARS.toLocaleString('en-US')), opts);
    }
    if (!MIGHT_HAVE_FINDINGS.test(source)) return [];
    const link = linkFor(opts);
    try {
      const tree = parser.parse(source);
      return lintTree(tree, opts, hooks, link);
    } catch (e) {
      hooks.onInternalError?.(e);
      return notAnalysedFinding(msg(T.parserFailed, describeError(e)), opts);
    } finally {
      if (link) {
        if (dependencies.size > 10_000) dependencies.clear();
        dependencies.set(
          link.path,
          [...link.deps.keys()].filter((p) => p !== link.path),
        );
      }
    }
  };

  const lintCells = (cells: readonly NotebookCell[], opts?: LintOptions): NotebookCellFindings[] => {
    const out: NotebookCellFindings[] = cells.map((c) => ({ cellIndex: c.index, findings: [] }));
    if (cells.length === 0) return out;
    const chars = cells.reduce((n, c) => n + c.source.length + 1, 0);
    if (chars > MAX_SOURCE_CHARS) {
      // Before any parse (finding the broken cells parses the whole notebook once).
      out[0]?.findings.push(...notAnalysedFinding(msg(T.cellsTooLarge, chars.toLocaleString('en-US'), MAX_SOURCE_CHARS.toLocaleString('en-US')), opts));
      return out;
    }
    let usable: NotebookCell[];
    try {
      usable = dropBrokenCells(parser, cells);
    } catch (e) {
      hooks.onInternalError?.(e);
      out[0]?.findings.push(...notAnalysedFinding(msg(T.parserFailed, describeError(e)), opts));
      return out;
    }
    const { source, spans } = joinCells(usable);
    const findings = lintSource(source, opts);
    for (const f of findings) {
      const span = spans.find((s) => f.line >= s.firstLine && f.line < s.firstLine + s.lineCount);
      if (!span && f.code === NOT_ANALYSED) {
        out[0]?.findings.push({ ...f, line: 1, column: 1, endLine: 1, endColumn: 1 }); // about the whole notebook
        continue;
      }
      if (!span) continue;
      if (f.endLine >= span.firstLine + span.lineCount) continue;
      const shift = span.firstLine - 1;
      const mapped: Finding = { ...f, line: f.line - shift, endLine: f.endLine - shift };
      if (f.fix) {
        if (f.fix.edits.some((e) => e.line < span.firstLine || e.endLine >= span.firstLine + span.lineCount)) delete mapped.fix;
        else mapped.fix = { ...f.fix, edits: f.fix.edits.map((e) => ({ ...e, line: e.line - shift, endLine: e.endLine - shift })) };
      }
      if (f.related) {
        // Evidence in another cell names that cell; lines are relative to the cell that holds them.
        const related: RelatedLocation[] = [];
        for (const r of f.related) {
          if (r.path !== undefined) {
            related.push(r); // another file: its own lines
            continue;
          }
          const at = spans.find((s) => r.line >= s.firstLine && r.line < s.firstLine + s.lineCount);
          if (!at || (r.endLine !== undefined && r.endLine >= at.firstLine + at.lineCount)) continue;
          const moved: RelatedLocation = {
            ...r,
            line: r.line - at.firstLine + 1,
            ...(r.endLine !== undefined ? { endLine: r.endLine - at.firstLine + 1 } : {}),
          };
          related.push(at.cellIndex === span.cellIndex ? moved : { ...moved, cell: at.cellIndex });
        }
        if (related.length > 0) mapped.related = related;
        else delete mapped.related;
      }
      out.find((o) => o.cellIndex === span.cellIndex)?.findings.push(mapped);
    }
    return out;
  };

  const lintNotebookFile = (json: string, opts?: LintOptions): { cells: NotebookCellFindings[]; error?: string } => {
    const nb = parseNotebook(typeof json === 'string' ? json : '');
    if (!nb.ok) return { cells: [], error: nb.error };
    return { cells: lintCells(nb.cells, opts) };
  };

  return {
    lintPython: lintSource,
    lintNotebook: (json, opts) => lintNotebookFile(json, opts).cells,
    lintNotebookFile,
    lintCells,
    workspaceDependencies: (path) => {
      const p = normalizeRelPath(path);
      return (p === undefined ? undefined : dependencies.get(p)) ?? [];
    },
    invalidateWorkspaceFile: (path) => {
      const p = normalizeRelPath(path);
      if (p) workspace?.invalidate(p);
    },
  };
}

function anyRuleEnabled(options: LintOptions | undefined): boolean {
  return (['ATT001', 'ATT002', 'ATT003', 'ATT004', 'ATT005', 'ATT006', 'ATT007', 'ATT008'] as const).some((c) => isEnabled(c, options));
}

/**
 * A half-typed cell (an unclosed bracket) would swallow the cells after it when all are parsed as one
 * module. Such cells are replaced by blank lines in the joined module; the others keep their context.
 * Only a cell left unbalanced can be one, so a notebook without such a cell is not parsed here at all (the
 * lint parses the joined module once), and only the unbalanced cells are parsed alone.
 */
function dropBrokenCells(parser: PythonParser, cells: readonly NotebookCell[]): NotebookCell[] {
  const suspect = cells.map((c) => unbalanced(c.source));
  if (!suspect.includes(true)) return [...cells];
  const joined = joinCells(cells);
  if (!parser.parse(joined.source).hasErrors) return [...cells];
  return cells.map((c, i) => {
    if (!suspect[i] || !parser.parse(joinCells([c]).source).hasErrors) return c;
    return { index: c.index, source: c.source.replace(/[^\n]/g, '') };
  });
}

/** Brackets left open at the end of a cell (ignoring strings and comments, roughly). */
function unbalanced(src: string): boolean {
  let depth = 0;
  const stripped = src.replace(/#[^\n]*/g, '').replace(/("""|''')[\s\S]*?\1|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, '""');
  for (const ch of stripped) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
  }
  return depth > 0 || /("""|''')/.test(stripped);
}
