// Rule pages in Ruff's shape, rendered from each rule's declarative meta. docs/rules/*.md are generated
// from this by scripts/gen-rule-docs.ts (a unit test keeps them in sync); the editor's hover uses it too.
import type { Rule } from './rules/rule';

export function rulePageFileName(rule: Rule): string {
  return `${rule.meta.code}-${rule.meta.name}.md`;
}

export function renderRulePage(rule: Rule): string {
  const { code, name, severity, fix, docs } = rule.meta;
  const fixLine =
    fix === 'none'
      ? 'No automatic fix.'
      : `Fix available (${fix}: ${fix === 'safe' ? 'behaviour unchanged' : 'changes behaviour; offered as a quick fix, never applied by fix-all'}).`;
  return [
    `# ${code} ${name}`,
    '',
    docs.summary,
    '',
    `Default severity: **${severity}**. ${fixLine}`,
    '',
    '## What it does',
    '',
    ...whatItDoesSection(docs.whatItDoes),
    '## Why is this bad?',
    '',
    docs.whyIsThisBad,
    '',
    '## Example',
    '',
    '```python',
    docs.example,
    '```',
    '',
    'Use instead:',
    '',
    '```python',
    docs.useInstead,
    '```',
    '',
    '## Where it is reported',
    '',
    docs.whereReported,
    '',
    '## Fix safety',
    '',
    docs.fixSafety,
    '',
    '## Suppressing',
    '',
    `Add \`# noqa: ${code}\` to the line, or set \`attentionInspector.lint.ignore\` (editor) / \`--ignore ${code}\` (CLI).`,
    '',
    'Code that deviates on purpose where nothing in it says so (a published model whose weights were trained that way, a',
    'paper that defines its attention so) is still reported, since it does what the message says: keep the code and add',
    `\`# noqa: ${code}\` with a comment saying why.`,
    '',
    '## References',
    '',
    ...docs.references.map((r) => `- [${r.title}](${r.url})`),
    '',
  ].join('\n');
}

/**
 * Splits prose into its sentences: a sentence ends at a `. ` followed by a capital letter, a
 * backtick or a quote, outside backtick code spans and outside brackets (`(e.g. x. Y)` stays whole). Joining the
 * result with single spaces gives the text back with its whitespace runs collapsed.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let depth = 0;
  let inCode = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '`') inCode = !inCode;
    else if (inCode) continue;
    else if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (c === '.' && depth === 0 && /^\s+[A-Z`"']/.test(text.slice(i + 1, i + 12))) {
      sentences.push(text.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences.map((t) => t.replace(/\s+/g, ' '));
}

/** A sentence without its bracketed asides (outside code spans): the claim it makes, without its qualifications. */
export function withoutAsides(sentence: string): string {
  let out = '';
  let depth = 0;
  let inCode = false;
  for (const c of sentence) {
    if (c === '`' && depth === 0) inCode = !inCode;
    if (!inCode && c === '(') depth++;
    else if (!inCode && c === ')' && depth > 0) depth--;
    else if (depth === 0) out += c;
  }
  return out
    .replace(/\s+/g, ' ')
    .replace(/ ([,.:;])/g, '$1')
    .trim();
}

/**
 * "What it does" of a text in one paragraph: the first sentence without its asides as the lead, then the whole text,
 * one sentence a bullet (one handled form of code or one exception each, in the rule's own order), in a collapsed list: a page whose rule knows
 * many forms still opens on one readable sentence, and nothing of the text is left out.
 */
function whatItDoesSection(text: string): string[] {
  // Text already laid out in paragraphs and lists (ATT002's): its first paragraph leads, the rest is collapsed as written.
  const [first = '', ...paragraphs] = text.split(/\n\s*\n/);
  if (paragraphs.length > 0) return [first, '', '<details>', '<summary>In full</summary>', '', paragraphs.join('\n\n'), '', '</details>', ''];
  const sentences = splitSentences(text);
  const lead = sentences[0] ?? '';
  if (sentences.length === 1 && !lead.includes('(')) return [lead, ''];
  return [
    withoutAsides(lead),
    '',
    '<details>',
    `<summary>In full: ${sentences.length === 1 ? 'the sentence' : `${sentences.length} sentences`} on the forms it reads and where it stays silent</summary>`,
    '',
    ...sentences.map((d) => `- ${d}`),
    '',
    '</details>',
    '',
  ];
}

/** Short hover text: summary and the "why" paragraph, each through `translate` (the editor's display language). */
export function renderHover(rule: Rule, translate: (english: string) => string = (s) => s): string {
  return `**${rule.meta.code} ${rule.meta.name}**: ${translate(rule.meta.docs.summary)}\n\n${translate(rule.meta.docs.whyIsThisBad)}`;
}

/** docs/rules/README.md: one line per rule. */
export function renderRuleIndex(rules: readonly Rule[]): string {
  return [
    '# Attention Inspector lint rules',
    '',
    'Generated from `src/lint/rules/*.ts` by `scripts/gen-rule-docs.ts`; edit the rule files, not these pages.',
    '',
    '| Code | Name | Severity | Fix | Summary |',
    '| --- | --- | --- | --- | --- |',
    ...rules.map((r) => `| [${r.meta.code}](${rulePageFileName(r)}) | ${r.meta.name} | ${r.meta.severity} | ${r.meta.fix} | ${r.meta.docs.summary} |`),
    '',
  ].join('\n');
}
