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
    docs.whatItDoes,
    '',
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
