// Public types of the linter (the contract in docs/LINT-CONTRACT.md). Pure data, no behaviour.
import type { MessageParts } from './message';

export type { MessageParts } from './message';

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
  /** English (what the CLI prints); `titleParts` is the same text as a template and arguments, for translation. */
  title: string;
  titleParts?: MessageParts;
  safety: FixSafety;
  edits: TextEdit[];
}

/**
 * A place whose code is part of a finding's evidence (where the mask was built, where the scale was defined,
 * the softmax, the product with the values, the cache concatenation). 1-based lines, UTF-16 columns.
 */
export interface RelatedLocation {
  /**
   * Absent: the finding's own file. Another file: in CLI output a path relative to the workspace root (forward
   * slashes); in the editor a URI.
   */
  path?: string;
  /** 0-based notebook cell (all cells counted) when the location is in another cell than the finding. */
  cell?: number;
  line: number;
  column: number;
  /** End exclusive; absent when only the start is known. */
  endLine?: number;
  endColumn?: number;
  /** What this place contributes: "the mask is built here: True at padding". */
  message: string;
  /** The same as a template and its arguments (for translation). */
  messageParts?: MessageParts;
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** English text (what the CLI prints). */
  message: string;
  /** The message as a template and its arguments, which a host translates (absent only on messages made by a host). */
  messageParts?: MessageParts;
  /** 1-based; column counts UTF-16 code units. */
  line: number;
  column: number;
  /** 1-based, end exclusive. */
  endLine: number;
  endColumn: number;
  fix?: Fix;
  /** The lines the evidence comes from (other than the finding's own range), in the order the message uses them. */
  related?: readonly RelatedLocation[];
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
