// Public types of the linter (the contract in docs/LINT-CONTRACT.md). Pure data, no behaviour.

export type RuleCode = 'ATT001' | 'ATT002' | 'ATT003' | 'ATT004' | 'ATT005' | 'ATT006' | 'ATT007' | 'ATT008';

export const RULE_CODES: readonly RuleCode[] = ['ATT001', 'ATT002', 'ATT003', 'ATT004', 'ATT005', 'ATT006', 'ATT007', 'ATT008'];

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
  code: RuleCode;
  severity: Severity;
  message: string;
  /** 1-based; column counts UTF-16 code units. */
  line: number;
  column: number;
  /** 1-based, end exclusive. */
  endLine: number;
  endColumn: number;
  fix?: Fix;
}

export interface LintOptions {
  /** Codes or prefixes to report (e.g. ['ATT001', 'ATT00']); default: all. */
  select?: string[];
  /** Codes or prefixes never to report; wins over select. */
  ignore?: string[];
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
