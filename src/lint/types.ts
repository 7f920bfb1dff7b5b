// Public types of the linter (the contract in docs/LINT-CONTRACT.md). Pure data, no behaviour.

export type RuleCode = 'ATT001' | 'ATT002' | 'ATT003' | 'ATT004' | 'ATT005' | 'ATT006' | 'ATT007' | 'ATT008';

export const RULE_CODES: readonly RuleCode[] = ['ATT001', 'ATT002', 'ATT003', 'ATT004', 'ATT005', 'ATT006', 'ATT007', 'ATT008'];

/**
 * Not a rule: the file, or a part of it, was not analysed, so findings may be missing there. An error when
 * the analysis failed or the file is over a size limit; a warning when only code nested too deeply was
 * skipped. Reported whatever --select says (a failure must never read as clean); only an explicit
 * `ignore: ['ATT000']` silences it.
 */
export const NOT_ANALYSED = 'ATT000' as const;

/**
 * Files larger than this are not read by the CLI's lint or the editor's Lint Workspace (their size is checked
 * before reading): generated code and data dumps. Reported as skipped, never as clean.
 */
export const MAX_LINT_FILE_BYTES = 8 * 1024 * 1024;

/** The code of a finding: a rule's, or ATT000. */
export type FindingCode = RuleCode | typeof NOT_ANALYSED;

export type Severity = 'error' | 'warning' | 'info';

/** 'safe': behaviour unchanged. 'unsafe': may change what the program computes (offered, never applied in bulk). */
export type FixSafety = 'safe' | 'unsafe';

export interface TextEdit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  newText: string;
}

export interface Fix {
  title: string;
  safety: FixSafety;
  edits: TextEdit[];
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  message: string;
  /** 1-based; column counts UTF-16 code units. */
  line: number;
  column: number;
  /** 1-based, end exclusive. */
  endLine: number;
  endColumn: number;
  fix?: Fix;
  /**
   * Where the evidence comes from, when elsewhere (where a mask was built, where a scale was defined). `path`
   * is relative to the workspace root ('/'-separated) when the evidence is in another file; absent, it is in
   * the linted file. 1-based lines and UTF-16 columns as above.
   */
  related?: readonly { path?: string; line: number; column: number; endLine?: number; endColumn?: number; message: string }[];
}

export interface LintOptions {
  /** Codes or prefixes to report (e.g. ['ATT001', 'ATT00']); default: all. */
  select?: string[];
  /** Codes or prefixes never to report; wins over select. */
  ignore?: string[];
  /**
   * The linted file's path relative to the workspace root ('/'-separated), when the linter was created with a
   * workspace: its imports of workspace files are then followed (createLinter's `workspace` option).
   */
  path?: string;
}

export interface NotebookCellFindings {
  /** 0-based index over ALL cells of the notebook (markdown cells included). */
  cellIndex: number;
  findings: Finding[];
}

export interface Linter {
  lintPython(source: string, options?: LintOptions): Finding[];
  lintNotebook(ipynbJson: string, options?: LintOptions): NotebookCellFindings[];
}

export function isRuleCode(s: string): s is RuleCode {
  return (RULE_CODES as readonly string[]).includes(s);
}
