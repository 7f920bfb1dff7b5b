// Rule pages: docs/rules/*.md are generated from the rule files and must be in sync; each rule's own
// example triggers it and its "use instead" does not.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RULES, renderRulePage, rulePageFileName } from '../../../src/lint';
import { renderRuleIndex, splitSentences, withoutAsides } from '../../../src/lint/docs';
import { linter, ROOT } from './helpers';

const DOCS = join(ROOT, 'docs', 'rules');

describe('rule pages', () => {
  it('docs/rules is in sync with the rule files (run npx tsx scripts/gen-rule-docs.ts)', () => {
    for (const rule of RULES) {
      const path = join(DOCS, rulePageFileName(rule));
      assert.ok(existsSync(path), `missing ${path}`);
      assert.equal(readFileSync(path, 'utf8'), renderRulePage(rule), `${rulePageFileName(rule)} is stale`);
    }
    assert.equal(readFileSync(join(DOCS, 'README.md'), 'utf8'), renderRuleIndex(RULES));
    const expected = new Set([...RULES.map(rulePageFileName), 'README.md']);
    for (const f of readdirSync(DOCS)) assert.ok(expected.has(f), `docs/rules/${f} belongs to no rule`);
  });

  it("every page has Ruff's sections and a fix-safety statement", () => {
    for (const rule of RULES) {
      const page = renderRulePage(rule);
      for (const h of ['## What it does', '## Why is this bad?', '## Example', 'Use instead:', '## Where it is reported', '## Fix safety', '## References'])
        assert.ok(page.includes(h), `${rule.meta.code}: ${h}`);
      // Where the finding sits (the use or the definition), and the other end as a related location.
      assert.match(rule.meta.docs.whereReported, /^At .*, the use\b/, `${rule.meta.code}: where it is reported`);
      assert.match(rule.meta.docs.whereReported, /Related locations: /, `${rule.meta.code}: its related locations`);
      assert.ok(rule.meta.docs.references.length > 0, `${rule.meta.code}: references`);
      assert.match(rule.meta.code, /^ATT00[1-8]$/);
      assert.match(rule.meta.name, /^[a-z]+(-[a-z0-9]+)*$/);
    }
  });

  it('splits prose into sentences outside code spans and brackets, and drops asides outside code spans', () => {
    assert.deepEqual(splitSentences('Reports a (e.g. x. Y) thing. Also `a. B` here.  Then "quoted". Done'), [
      'Reports a (e.g. x. Y) thing.',
      'Also `a. B` here.',
      'Then "quoted".',
      'Done',
    ]);
    assert.deepEqual(splitSentences('one sentence, e.g. this. not split before lowercase'), ['one sentence, e.g. this. not split before lowercase']);
    assert.equal(withoutAsides('Reports `f(x)` (not `g(y)`, nor (nested)) here (always).'), 'Reports `f(x)` here.');
  });

  it("opens every page's 'What it does' on a short lead and keeps the rule's whole text below it", () => {
    const squash = (t: string) => t.replace(/\s+/g, ' ').trim();
    for (const rule of RULES) {
      const page = renderRulePage(rule);
      const section = page.slice(page.indexOf('## What it does') + '## What it does'.length, page.indexOf('## Why is this bad?'));
      const lead = section.trim().split('\n')[0];
      assert.ok(lead.length <= 600, `${rule.meta.code}: a lead of ${lead.length} characters`);
      const text = rule.meta.docs.whatItDoes;
      if (text.includes('\n'))
        assert.ok(
          section.includes(
            text
              .split(/\n\s*\n/)
              .slice(1)
              .join('\n\n'),
          ),
          `${rule.meta.code}: text left out`,
        );
      else assert.equal(squash(splitSentences(text).join(' ')), squash(text), `${rule.meta.code}: sentences lose text`);
      for (const s of text.includes('\n') ? [] : splitSentences(text)) assert.ok(section.includes(`- ${s}`), `${rule.meta.code}: missing "${s.slice(0, 40)}"`);
    }
  });

  for (const rule of RULES) {
    it(`${rule.meta.code}: the page's example is reported and its fix is not`, async () => {
      const l = await linter();
      const bad = l.lintPython(rule.meta.docs.example, { select: [rule.meta.code] });
      assert.ok(bad.length > 0, `${rule.meta.code} example not reported`);
      // The page's example names its evidence (the place other than the finding that shows the bug).
      assert.ok(
        bad.some((f) => (f.related?.length ?? 0) > 0),
        `${rule.meta.code} example: no related location`,
      );
      const good = l.lintPython(rule.meta.docs.useInstead, { select: [rule.meta.code] });
      assert.deepEqual(
        good.map((f) => f.message),
        [],
        `${rule.meta.code} "use instead" reported`,
      );
    });
  }
});
