// Runs the passes and the rules over one parsed module and turns reports into findings: positions in
// UTF-16 columns, noqa, select/ignore, de-duplication and a stable order. Never throws: a failure becomes an
// ATT000 finding (the module could not be analysed), and code cut for nesting too deeply an ATT000 warning.
import type { ForeignEvidence } from './analysis/cross-file';
import { Evaluator } from './analysis/evaluator';
import { originRef } from './analysis/portable';
import { analyseScopes } from './analysis/scopes';
import type { ModuleLink } from './analysis/workspace';
import { defineTemplates, msg, renderMessage, type MessageArg, type MessageParts } from './message';
import { parseNoqa, suppressed, type NoqaMap } from './noqa';
import { RULES } from './rules';
import type { Report, Rule, RuleContext, RuleVisitor } from './rules/rule';
import { LineIndex } from './syntax/positions';
import { MAX_BRACKET_DEPTH } from './syntax/blocks';
import { MAX_TREE_DEPTH, text, type PyTree } from './syntax/tree';
import { NOT_ANALYSED, type Finding, type LintOptions, type RelatedLocation, type RuleCode } from './types';

/** Whether a code is enabled by select/ignore lists of codes or prefixes ('ATT', 'ATT00', 'ATT003'). */
export function isEnabled(code: RuleCode, options: LintOptions | undefined): boolean {
  const matches = (list: string[] | undefined): boolean => !!list && list.some((p) => p.length > 0 && code.startsWith(p.trim().toUpperCase()));
  if (matches(options?.ignore)) return false;
  if (!options?.select || options.select.length === 0) return true;
  return matches(options.select);
}

export interface EngineHooks {
  /** Called with internal errors (the linter then returns only an ATT000 finding for that input). */
  onInternalError?: (e: unknown) => void;
}

/** Whether ATT000 is reported: always, unless the ignore list names it exactly. */
export function notAnalysedReported(options: LintOptions | undefined): boolean {
  return !options?.ignore?.some((c) => c.trim().toUpperCase() === NOT_ANALYSED);
}

const T = defineTemplates({
  notAnalysed: 'Not analysed: {0}. Attention findings in this file may be missing.',
  analysisFailed: 'the analysis failed ({0})',
  tooDeep:
    'Not analysed: this code nests too deeply (past {0} syntax levels, or {1} brackets for a whole statement), deeper than Python itself accepts; the rest of the file was analysed.',
  tooDeepOneMore:
    'Not analysed: this code nests too deeply (and 1 more place) (past {0} syntax levels, or {1} brackets for a whole statement), deeper than Python itself accepts; the rest of the file was analysed.',
  tooDeepMore:
    'Not analysed: this code nests too deeply (and {2} more places) (past {0} syntax levels, or {1} brackets for a whole statement), deeper than Python itself accepts; the rest of the file was analysed.',
});

/** The message parts of ATT000 for a reason (a host's own reason is a string it has translated already). */
export function notAnalysedMessage(why: MessageArg): MessageParts {
  return msg(T.notAnalysed, why);
}

/** The ATT000 finding for input that could not be analysed (at the start of the input). */
export function notAnalysedFinding(why: MessageArg, options: LintOptions | undefined): Finding[] {
  if (!notAnalysedReported(options)) return [];
  const parts = notAnalysedMessage(why);
  return [
    {
      code: NOT_ANALYSED,
      severity: 'error',
      message: renderMessage(parts),
      messageParts: parts,
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
    },
  ];
}

export function lintTree(tree: PyTree, options?: LintOptions, hooks?: EngineHooks, link?: ModuleLink): Finding[] {
  let findings: Finding[];
  try {
    findings = lintTreeUnsafe(tree, options, link);
  } catch (e) {
    hooks?.onInternalError?.(e);
    return notAnalysedFinding(msg(T.analysisFailed, describeError(e)), options);
  }
  const first = tree.tooDeep[0];
  if (first !== undefined && notAnalysedReported(options)) {
    const lines = new LineIndex(tree.source);
    const start = lines.position(first.start);
    const end = lines.position(first.end);
    const more = tree.tooDeep.length - 1;
    const parts = msg(more === 0 ? T.tooDeep : more === 1 ? T.tooDeepOneMore : T.tooDeepMore, MAX_TREE_DEPTH, MAX_BRACKET_DEPTH.toLocaleString('en-US'), more);
    findings.unshift({
      code: NOT_ANALYSED,
      severity: 'warning',
      message: renderMessage(parts),
      messageParts: parts,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
    });
    findings.sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
  }
  return findings;
}

/** An internal error in a few words (no stack: the message is shown to users). */
export function describeError(e: unknown): string {
  const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

function lintTreeUnsafe(tree: PyTree, options?: LintOptions, link?: ModuleLink): Finding[] {
  const rules = RULES.filter((r) => isEnabled(r.meta.code, options));
  if (rules.length === 0) return [];
  const sr = analyseScopes(tree);
  const ev = new Evaluator(tree, sr, link);
  ev.run();
  const lines = ev.lines;
  const noqa = readNoqaComments(tree, lines);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const rule of rules) {
    const reports: Report[] = [];
    const context: RuleContext = {
      analysis: ev,
      text: (n) => text(tree, n),
      report: (r) => reports.push(r),
    };
    const visitor = rule.create(context);
    visit(visitor, ev);
    for (const r of reports) {
      const f = toFinding(rule, r, lines);
      if (ev.foreignEvidence.length > 0) linkForeignEvidence(f, ev.foreignEvidence);
      if (suppressed(noqa, f.line, rule.meta.code) || suppressed(noqa, f.endLine, rule.meta.code)) continue;
      const key = `${f.code}:${f.line}:${f.column}:${f.endLine}:${f.endColumn}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(f);
    }
  }
  findings.sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
  return findings;
}

function visit(v: RuleVisitor, ev: Evaluator): void {
  const f = ev.facts;
  if (v.softmax) for (const s of f.softmax) v.softmax(s);
  if (v.matmul) for (const s of f.matmul) v.matmul(s);
  if (v.mask) for (const s of f.mask) v.mask(s);
  if (v.fill) for (const s of f.fill) v.fill(s);
  if (v.scale) for (const s of f.scale) v.scale(s);
  if (v.sdpa) for (const s of f.sdpa) v.sdpa(s);
  if (v.weightsMask) for (const s of f.weightsMask) v.weightsMask(s);
  v.end?.();
}

function toFinding(rule: Rule, r: Report, lines: LineIndex): Finding {
  const start = lines.position(r.node.start);
  const end = lines.position(r.node.end);
  const f: Finding = {
    code: rule.meta.code,
    severity: rule.meta.severity,
    message: renderMessage(r.message),
    messageParts: r.message,
    line: start.line,
    column: start.column,
    endLine: end.line,
    endColumn: end.column,
  };
  const related = relatedLocations(r, lines);
  if (related.length > 0) f.related = related;
  if (r.fix && r.fix.edits.length > 0) {
    f.fix = {
      title: renderMessage(r.fix.title),
      titleParts: r.fix.title,
      safety: r.fix.safety,
      edits: r.fix.edits.map((e) => {
        const s = lines.position(e.start);
        const t = lines.position(e.end);
        return { line: s.line, column: s.column, endLine: t.line, endColumn: t.column, newText: e.newText };
      }),
    };
  }
  return f;
}

/**
 * The report's evidence as related locations: in source order of the rule's list, without places inside the
 * finding's own range (they add nothing) and without repeats of one range.
 */
function relatedLocations(r: Report, lines: LineIndex): RelatedLocation[] {
  const out: RelatedLocation[] = [];
  const seen = new Set<string>();
  for (const rel of r.related ?? []) {
    if (!rel) continue;
    // A range of another workspace file is placed in that file's text, and named by its path.
    if (rel.file) {
      const key = `${rel.file.path}:${rel.node.start}:${rel.node.end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const at = new LineIndex(rel.file.source);
      const s = at.position(rel.node.start);
      const e = at.position(rel.node.end);
      out.push({
        path: rel.file.path,
        line: s.line,
        column: s.column,
        endLine: e.line,
        endColumn: e.column,
        message: renderMessage(rel.message),
        messageParts: rel.message,
      });
      continue;
    }
    if (rel.node.start >= r.node.start && rel.node.end <= r.node.end) continue;
    const key = `${rel.node.start}:${rel.node.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const s = lines.position(rel.node.start);
    const e = lines.position(rel.node.end);
    out.push({ line: s.line, column: s.column, endLine: e.line, endColumn: e.column, message: renderMessage(rel.message), messageParts: rel.message });
  }
  return out;
}

/** A finding whose message quotes evidence from another file ("utils.py:12") gets that place as a related location. */
function linkForeignEvidence(f: Finding, evidence: readonly ForeignEvidence[]): void {
  // Named by the message, or by one of its related locations (a mask that comes in as a parameter, passed by a call
  // of an importing file).
  const related = evidence
    .filter((e) => f.message.includes(originRef(e)) || !!f.related?.some((r) => r.message.includes(originRef(e))))
    .map((e) => ({ path: e.path, line: e.line, column: e.column, message: renderMessage(e.message), messageParts: e.message }));
  if (related.length > 0) f.related = [...(f.related ?? []), ...related];
}

function readNoqaComments(tree: PyTree, lines: LineIndex): NoqaMap {
  const out: NoqaMap = new Map();
  for (const n of tree.comments) {
    const entry = parseNoqa(text(tree, n));
    if (entry) out.set(lines.position(n.start).line, entry);
  }
  return out;
}
