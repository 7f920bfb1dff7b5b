// The parts of the editor integration that need no VS Code: reading the settings, choosing severities,
// building `# noqa` edits, deciding which documents to lint. Unit-tested in plain Node.
import { isRuleCode, MAX_LINT_FILE_BYTES, type Finding, type LintOptions, type MessageParts, type RuleCode } from '../../lint/types';

/** Lint Workspace skips (and names) files larger than this, checked before reading: the CLI's limit. */
export const MAX_WORKSPACE_FILE_BYTES = MAX_LINT_FILE_BYTES;

export type EditorSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface LintSettings {
  enable: boolean;
  options: LintOptions;
  /** Severity overrides by rule code; 'off' hides the rule. */
  severity: Partial<Record<RuleCode, EditorSeverity | 'off'>>;
}

/** Raw values as `workspace.getConfiguration('attentionInspector.lint')` returns them (anything may be wrong). */
export interface RawLintSettings {
  enable?: unknown;
  select?: unknown;
  ignore?: unknown;
  severity?: unknown;
}

function codeList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = v
    .filter((x): x is string => typeof x === 'string')
    .map((x) => x.trim().toUpperCase())
    .filter((x) => /^ATT\d{0,3}$/.test(x));
  return out.length > 0 ? out : undefined;
}

const SEVERITIES = new Set(['error', 'warning', 'information', 'info', 'hint', 'off']);

/** Validated settings; unknown codes and values are dropped rather than breaking the linter. */
export function readLintSettings(raw: RawLintSettings): LintSettings {
  const severity: LintSettings['severity'] = {};
  if (raw.severity && typeof raw.severity === 'object' && !Array.isArray(raw.severity)) {
    for (const [code, value] of Object.entries(raw.severity as Record<string, unknown>)) {
      const c = code.trim().toUpperCase();
      if (!isRuleCode(c) || typeof value !== 'string' || !SEVERITIES.has(value)) continue;
      severity[c] = value === 'info' ? 'information' : (value as EditorSeverity | 'off');
    }
  }
  const ignore = codeList(raw.ignore) ?? [];
  for (const [code, s] of Object.entries(severity)) if (s === 'off') ignore.push(code);
  return {
    enable: raw.enable !== false,
    options: { select: codeList(raw.select), ignore: ignore.length > 0 ? ignore : undefined },
    severity,
  };
}

/** The severity a finding is shown with: the override for its code, else the rule's default. */
export function editorSeverity(f: Finding, settings: LintSettings): EditorSeverity {
  const o = isRuleCode(f.code) ? settings.severity[f.code] : undefined;
  if (o && o !== 'off') return o;
  return f.severity === 'info' ? 'information' : f.severity;
}

/** Edit that adds (or extends) a `# noqa: CODE` comment at the end of a line. */
export function noqaEdit(lineText: string, code: RuleCode): { column: number; endColumn: number; newText: string } {
  const m = /#\s*noqa\b(?::\s*([A-Za-z0-9,\s]+))?/i.exec(lineText);
  if (m) {
    if (!m[1]) return { column: lineText.length + 1, endColumn: lineText.length + 1, newText: '' }; // bare noqa already covers it
    const codes = m[1].split(/[\s,]+/).filter((c) => c.length > 0);
    if (codes.map((c) => c.toUpperCase()).includes(code)) return { column: lineText.length + 1, endColumn: lineText.length + 1, newText: '' };
    const start = m.index + 1;
    const end = m.index + m[0].length + 1;
    return { column: start, endColumn: end, newText: `# noqa: ${[...codes, code].join(', ')}` };
  }
  const trimmed = lineText.replace(/\s+$/, '');
  return { column: trimmed.length + 1, endColumn: lineText.length + 1, newText: `${trimmed.length > 0 ? '  ' : ''}# noqa: ${code}` };
}

/** Folders never searched by "Lint Workspace". */
export const WORKSPACE_EXCLUDE = '**/{node_modules,.git,.venv,venv,env,.tox,.nox,__pycache__,site-packages,.ipynb_checkpoints,.mypy_cache,.pytest_cache}/**';
export const WORKSPACE_INCLUDE = '**/*.{py,pyi,ipynb}';

/** Text documents linted as Python: Python files and Python notebook cells. */
export function isLintableDocument(languageId: string, scheme: string): boolean {
  if (languageId !== 'python') return false;
  return scheme === 'file' || scheme === 'untitled' || scheme === 'vscode-notebook-cell' || scheme === 'vscode-remote' || scheme === 'vscode-vfs';
}

/** Debounce delay for re-linting while typing: longer for large documents. */
export function debounceMs(lineCount: number): number {
  if (lineCount > 5000) return 800;
  if (lineCount > 1000) return 400;
  return 250;
}

/**
 * At most one lint per key (a document, a notebook) at a time. A request made while one runs replaces any
 * request already waiting for that key, and runs when the current one ends: the worker never queues lints of
 * text that has already changed again. A task reads the document when it runs, not when it is requested.
 */
export class LatestPerKey {
  private readonly running = new Map<string, Promise<void>>();
  private readonly waiting = new Map<string, () => Promise<void>>();

  /** @param onError receives what a task threw (tasks are expected to handle their own failures). */
  constructor(private readonly onError: (e: unknown) => void = () => undefined) {}

  /** Resolves once this task, or the later one that replaced it, has run. Never rejects. */
  run(key: string, task: () => Promise<void>): Promise<void> {
    const current = this.running.get(key);
    if (current) {
      this.waiting.set(key, task);
      return current;
    }
    const done = (async () => {
      await Promise.resolve(); // `running` holds this promise before any task runs (a task may fail synchronously)
      let next: (() => Promise<void>) | undefined = task;
      while (next) {
        try {
          await next();
        } catch (e) {
          this.onError(e);
        }
        next = this.waiting.get(key);
        this.waiting.delete(key);
      }
      this.running.delete(key);
    })();
    this.running.set(key, done);
    return done;
  }

  /** Whether a task for `key` is running. */
  busy(key: string): boolean {
    return this.running.has(key);
  }
}

/** Where a related location of a finding points in the editor (built into vscode objects by the host). */
export interface RelatedTarget {
  /** 'document': the finding's own document; 'cell': a cell (0-based, all cells counted) of its notebook; 'uri': another file. */
  where: 'document' | 'cell' | 'uri';
  cell?: number;
  uri?: string;
  /** 0-based, end exclusive (the start again when the location gives no end). */
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  /** English; `messageParts` the same for translation (absent when the message was made in the host). */
  message: string;
  messageParts?: MessageParts;
}

/**
 * A finding's related locations for `DiagnosticRelatedInformation`, 0-based. `inCell` is the cell the finding
 * is shown on (a notebook open in the editor): a location in another cell points at that cell's document.
 */
export function relatedTargets(f: Finding, inCell?: number): RelatedTarget[] {
  return (f.related ?? []).map((r) => {
    const line = r.line - 1;
    const character = r.column - 1;
    const end =
      r.endLine !== undefined && r.endColumn !== undefined
        ? { endLine: r.endLine - 1, endCharacter: r.endColumn - 1 }
        : { endLine: line, endCharacter: character };
    const place =
      r.path !== undefined
        ? { where: 'uri' as const, uri: r.path }
        : r.cell !== undefined && r.cell !== inCell
          ? { where: 'cell' as const, cell: r.cell }
          : { where: 'document' as const };
    return { ...place, line, character, ...end, message: r.message, ...(r.messageParts ? { messageParts: r.messageParts } : {}) };
  });
}
