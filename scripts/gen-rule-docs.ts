// Writes docs/rules/<CODE>-<name>.md (one page per rule, in Ruff's shape) and docs/rules/README.md (the
// index) from the rules' declarative meta in src/lint/rules. The rule file is the source of truth; a unit
// test (test/unit/lint/docs.test.ts) fails when these pages are out of date.
//
//   npx tsx scripts/gen-rule-docs.ts          write the pages
//   npx tsx scripts/gen-rule-docs.ts --check  exit 1 if any page differs from what would be written
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES, renderRulePage, rulePageFileName } from '../src/lint';
import { renderRuleIndex } from '../src/lint/docs';

const DIR = join(__dirname, '..', 'docs', 'rules');

export function expectedPages(): Map<string, string> {
  const pages = new Map<string, string>();
  for (const rule of RULES) pages.set(rulePageFileName(rule), renderRulePage(rule));
  pages.set('README.md', renderRuleIndex(RULES));
  return pages;
}

function main(): number {
  const check = process.argv.includes('--check');
  const pages = expectedPages();
  let stale = 0;
  if (!check) mkdirSync(DIR, { recursive: true });
  for (const [name, content] of pages) {
    const path = join(DIR, name);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (current === content) continue;
    stale++;
    if (check) console.error(`docs/rules/${name} is out of date (run npx tsx scripts/gen-rule-docs.ts)`);
    else writeFileSync(path, content);
  }
  // Pages of rules that no longer exist.
  for (const f of existsSync(DIR) ? readdirSync(DIR) : []) {
    if (f.endsWith('.md') && !pages.has(f)) {
      stale++;
      console.error(`docs/rules/${f} belongs to no rule`);
    }
  }
  if (!check) console.log(`docs/rules: ${pages.size} pages, ${stale} written`);
  return check && stale > 0 ? 1 : 0;
}

if (require.main === module) process.exitCode = main();
