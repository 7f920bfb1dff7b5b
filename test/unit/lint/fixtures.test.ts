// Per-rule fixture tests in TorchFix/Ruff style: test/unit/lint/fixtures/<CODE>/<name>.py is linted with only
// that rule selected; <name>.txt lists the expected findings as `line:col CODE` (empty file: none), and
// <name>.fixed.py, when present, is the source after applying every offered fix.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RULE_CODES } from '../../../src/lint';
import { applyFixes, linter } from './helpers';

const DIR = join(__dirname, 'fixtures');

describe('lint fixtures', () => {
  for (const code of RULE_CODES) {
    const dir = join(DIR, code);
    const cases = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.py') && !f.endsWith('.fixed.py')) : [];
    describe(code, () => {
      it('has fixtures (at least one with a finding and one without)', () => {
        const expected = cases.map((c) => readFileSync(join(dir, c.replace(/\.py$/, '.txt')), 'utf8').trim());
        assert.ok(
          expected.some((e) => e.length > 0),
          `${code}: no fixture expects a finding`,
        );
        assert.ok(cases.length >= 2, `${code}: fewer than two fixtures`);
      });
      for (const file of cases) {
        it(file, async () => {
          const source = readFileSync(join(dir, file), 'utf8');
          const expectedPath = join(dir, file.replace(/\.py$/, '.txt'));
          assert.ok(existsSync(expectedPath), `missing ${expectedPath}`);
          const expected = readFileSync(expectedPath, 'utf8')
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l.length > 0);
          const findings = (await linter()).lintPython(source, { select: [code] });
          const actual = findings.map((f) => `${f.line}:${f.column} ${f.code}`);
          assert.deepEqual(actual, expected, findings.map((f) => `${f.line}:${f.column} ${f.code} ${f.message}`).join('\n'));
          for (const f of findings) {
            assert.ok(f.message.length > 20, 'the message says what is wrong');
            assert.ok(f.endLine > f.line || (f.endLine === f.line && f.endColumn > f.column), 'non-empty range');
            if (f.fix) assert.equal(f.fix.safety, 'unsafe', 'attention fixes change behaviour');
          }
          const fixedPath = join(dir, file.replace(/\.py$/, '.fixed.py'));
          if (existsSync(fixedPath)) {
            assert.ok(
              findings.some((f) => f.fix),
              'a .fixed.py exists but no fix is offered',
            );
            const fixed = applyFixes(source, findings);
            assert.equal(fixed, readFileSync(fixedPath, 'utf8'));
            // The fixed source no longer has the finding.
            const after = (await linter()).lintPython(fixed, { select: [code] });
            assert.deepEqual(
              after.map((f) => `${f.line}:${f.column} ${f.code}`),
              [],
              'the fix removes the finding',
            );
          }
        });
      }
    });
  }
});
