// The editor integration's pure helpers (the VS Code-bound part is exercised by the e2e tier).
import { strict as assert } from 'node:assert';
import { debounceMs, editorSeverity, isLintableDocument, noqaEdit, readLintSettings, relatedTargets } from '../../../src/host/lint/pure';
import type { Finding } from '../../../src/lint';

const finding = (code: Finding['code'], severity: Finding['severity']): Finding => ({
  code,
  severity,
  message: 'm',
  line: 1,
  column: 1,
  endLine: 1,
  endColumn: 2,
});

describe('lint settings and editor helpers', () => {
  it('reads settings defensively', () => {
    assert.deepEqual(readLintSettings({}), { enable: true, options: { select: undefined, ignore: undefined }, severity: {} });
    const s = readLintSettings({
      enable: false,
      select: ['att001', 'ATT00', 42, 'bogus'],
      ignore: 'ATT003',
      severity: { ATT003: 'info', att004: 'off', ATT009: 'error', ATT005: 'loud' },
    });
    assert.equal(s.enable, false);
    assert.deepEqual(s.options.select, ['ATT001', 'ATT00']);
    assert.deepEqual(s.options.ignore, ['ATT004'], '"off" severities become ignores; a non-array ignore is dropped');
    assert.deepEqual(s.severity, { ATT003: 'information', ATT004: 'off' });
  });

  it('maps severities with overrides', () => {
    const s = readLintSettings({ severity: { ATT003: 'hint' } });
    assert.equal(editorSeverity(finding('ATT003', 'warning'), s), 'hint');
    assert.equal(editorSeverity(finding('ATT001', 'error'), s), 'error');
    assert.equal(editorSeverity(finding('ATT002', 'info'), s), 'information');
  });

  it('adds or extends # noqa comments', () => {
    assert.deepEqual(noqaEdit('    x = f(y)', 'ATT001'), { column: 13, endColumn: 13, newText: '  # noqa: ATT001' });
    assert.deepEqual(noqaEdit('    x = f(y)   ', 'ATT001'), { column: 13, endColumn: 16, newText: '  # noqa: ATT001' });
    assert.deepEqual(noqaEdit('x = f(y)  # noqa: E501', 'ATT002'), { column: 11, endColumn: 23, newText: '# noqa: E501, ATT002' });
    assert.equal(noqaEdit('x  # noqa', 'ATT002').newText, '', 'a bare noqa already covers every code');
    assert.equal(noqaEdit('x  # noqa: ATT002', 'ATT002').newText, '');
  });

  it('lints Python files and Python notebook cells only', () => {
    assert.ok(isLintableDocument('python', 'file'));
    assert.ok(isLintableDocument('python', 'vscode-notebook-cell'));
    assert.ok(isLintableDocument('python', 'untitled'));
    assert.ok(!isLintableDocument('markdown', 'vscode-notebook-cell'));
    assert.ok(!isLintableDocument('python', 'git'));
    assert.ok(debounceMs(100) < debounceMs(10_000));
  });

  it('maps related locations for DiagnosticRelatedInformation: 0-based, same document, another cell, another file', () => {
    const f: Finding = {
      code: 'ATT002',
      severity: 'error',
      message: 'm',
      line: 4,
      column: 2,
      endLine: 4,
      endColumn: 9,
      related: [
        { line: 2, column: 5, endLine: 2, endColumn: 12, message: 'built here' },
        { cell: 1, line: 3, column: 1, message: 'in another cell' },
        { cell: 4, line: 1, column: 1, endLine: 1, endColumn: 3, message: 'in this cell' },
        { path: 'file:///w/utils.py', line: 10, column: 3, endLine: 10, endColumn: 8, message: 'in another file' },
      ],
    };
    assert.deepEqual(relatedTargets(f, 4), [
      { where: 'document', line: 1, character: 4, endLine: 1, endCharacter: 11, message: 'built here' },
      { where: 'cell', cell: 1, line: 2, character: 0, endLine: 2, endCharacter: 0, message: 'in another cell' },
      { where: 'document', line: 0, character: 0, endLine: 0, endCharacter: 2, message: 'in this cell' },
      { where: 'uri', uri: 'file:///w/utils.py', line: 9, character: 2, endLine: 9, endCharacter: 7, message: 'in another file' },
    ]);
    assert.deepEqual(relatedTargets({ ...f, related: undefined }), []);
  });
});
