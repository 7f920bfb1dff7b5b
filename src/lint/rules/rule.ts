// What a rule is: declarative meta (code, name, severity, the rule page in Ruff's shape, fix safety) plus
// `create(context)`, which returns a visitor over the sites the analysis recorded (ESLint's shape, keyed by
// site kind instead of node type). Rules stay short: the analysis has done the work.
import type { Evaluator } from '../analysis/evaluator';
import type { FillSite, MaskSite, MatmulSite, ScaleSite, SdpaSite, SoftmaxSite, WeightsMaskSite } from '../analysis/facts';
import { defineTemplates, msg, type MessageArg, type MessageParts } from '../message';
import type { PyNode } from '../syntax/tree';
import type { FixSafety, RuleCode, Severity } from '../types';

export interface RuleDocs {
  /** One line: what the rule reports. */
  summary: string;
  whatItDoes: string;
  whyIsThisBad: string;
  /** Python code that triggers the rule. */
  example: string;
  /** The fixed version. */
  useInstead: string;
  fixSafety: string;
  /**
   * Where a finding is reported (the use or the definition) and which other places its related locations name:
   * the other end is always a related location.
   */
  whereReported: string;
  references: { title: string; url: string }[];
}

export interface RuleMeta {
  code: RuleCode;
  /** kebab-case name, also the rule file's suffix: ATT001-softmax-dim. */
  name: string;
  severity: Severity;
  /** Whether the rule can offer a fix, and its safety when it does. */
  fix: FixSafety | 'none';
  docs: RuleDocs;
}

/** A fix expressed over source offsets (UTF-16); the engine turns it into line/column edits. */
export interface FixSpec {
  title: MessageParts;
  safety: FixSafety;
  edits: { start: number; end: number; newText: string }[];
}

/** A place in the same module whose code is part of the evidence (becomes a Finding's related location). */
export interface RelatedSpec {
  /** A syntax node, or any UTF-16 range of the module's source. */
  node: { readonly start: number; readonly end: number };
  message: MessageParts;
  /** When the range is in another workspace file (a base class's `self.scale = ...`): that file's path and text. */
  file?: { readonly path: string; readonly source: string };
}

export interface Report {
  /** The offending argument or expression; the finding's range. */
  node: PyNode;
  message: MessageParts;
  fix?: FixSpec;
  /** Where the evidence comes from (the other end of use and definition); entries inside `node` are dropped. */
  related?: readonly (RelatedSpec | undefined)[];
}

export interface RuleContext {
  readonly analysis: Evaluator;
  text(node: PyNode): string;
  report(r: Report): void;
}

export interface RuleVisitor {
  softmax?(site: SoftmaxSite): void;
  matmul?(site: MatmulSite): void;
  mask?(site: MaskSite): void;
  fill?(site: FillSite): void;
  scale?(site: ScaleSite): void;
  sdpa?(site: SdpaSite): void;
  weightsMask?(site: WeightsMaskSite): void;
  /** Called after every site was visited (for rules that weigh evidence across sites). */
  end?(): void;
}

export interface Rule {
  meta: RuleMeta;
  create(context: RuleContext): RuleVisitor;
}

// ------------------------------------------------------------------------------------------------ helpers for rules

/** `code` formatted for messages, shortened when long. */
export function quote(s: string, max = 60): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return `\`${one.length > max ? one.slice(0, max - 1) + '…' : one}\``;
}

/** Wraps an expression in parentheses unless it is a primary (name, attribute, call, subscript, literal). */
export function parenthesize(node: PyNode, text: string): string {
  const primary = new Set(['identifier', 'attribute', 'call', 'subscript', 'parenthesized_expression', 'integer', 'float', 'string']);
  return primary.has(node.type) ? text : `(${text})`;
}

/** Edit that inserts a keyword argument into a call's argument list. */
export function insertKeyword(argList: PyNode, ctxText: (n: PyNode) => string, keyword: string): { start: number; end: number; newText: string } {
  const inner = ctxText(argList).slice(1, -1).trim();
  if (inner.length === 0) return { start: argList.start + 1, end: argList.start + 1, newText: keyword };
  // Insert after the last argument (before any trailing comma/whitespace and the closing parenthesis).
  const full = ctxText(argList);
  let i = full.length - 2;
  while (i > 0 && /[\s,]/.test(full.charAt(i))) i--;
  const at = argList.start + i + 1;
  return { start: at, end: at, newText: `, ${keyword}` };
}

const API_PHRASES = defineTemplates({
  indexAssignment: 'index assignment',
});

/**
 * A site's `display` for a message: the API's name as code, or the phrase for the index assignment (not one call).
 * Additive masks are named by their rule's own wording (ATT002), never through this.
 */
export function apiName(display: string): MessageArg {
  if (display === 'index assignment') return msg(API_PHRASES.indexAssignment);
  return display;
}
