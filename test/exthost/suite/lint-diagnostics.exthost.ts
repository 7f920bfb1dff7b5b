// The linter's diagnostics as the vscode API reports them: on a copy of examples/attention_bug.py, ATT001 and
// ATT004 with the ranges of the buggy arguments (found in the file's own text), the rules' severities, code
// links to the rule pages shipped with the extension, the same findings as the CLI; the severity setting
// changes them, and `# noqa` silences one line only.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ruleByCode } from '../../../src/lint/rules';
import {
  activeExtension,
  cliFindings,
  closeAllEditors,
  codeOf,
  copyWorkspaceFile,
  defaultSeverity,
  describeDiagnostics,
  hasCodes,
  lacksCode,
  openInEditor,
  ours,
  rangeOf,
  readWorkspaceFile,
  resetLintSettings,
  setLintSetting,
  SOURCE,
  waitForDiagnostics,
} from './helpers';

const EXAMPLE = 'attention_bug.py';
const COPY = 'exthost-diagnostics/attention_bug.py';

describe('lint diagnostics on examples/attention_bug.py', function () {
  let uri: vscode.Uri;
  let editor: vscode.TextEditor;
  let text: string;
  let softmaxDim: vscode.Range; // ATT001: the dim= argument of the softmax over the query axis
  let dividedByDk: vscode.Range; // ATT004: the divisor d_k that should be sqrt(d_k)

  before(async function () {
    await resetLintSettings();
    text = await readWorkspaceFile(EXAMPLE);
    softmaxDim = rangeOf(text, 'torch.softmax(scores', 'dim=-2');
    dividedByDk = rangeOf(text, 'k.transpose(-2, -1) / d_k', 'd_k  #');
    dividedByDk = new vscode.Range(dividedByDk.start, dividedByDk.start.translate(0, 'd_k'.length));
    uri = await copyWorkspaceFile(EXAMPLE, COPY);
    editor = await openInEditor(uri);
  });

  after(async function () {
    await resetLintSettings();
    await closeAllEditors();
  });

  it("reports ATT001 and ATT004, on the buggy arguments, with the rules' severities", async function () {
    const list = await waitForDiagnostics(uri, hasCodes('ATT001', 'ATT004'), 'ATT001 and ATT004');
    assert.equal(list.length, 2, `only the two bugs: ${describeDiagnostics(list)}`);
    const att001 = list.find((d) => codeOf(d) === 'ATT001')!;
    const att004 = list.find((d) => codeOf(d) === 'ATT004')!;
    assert.ok(
      att001.range.isEqual(softmaxDim),
      `ATT001 at ${describeDiagnostics([att001])}, the argument is at line ${softmaxDim.start.line + 1}:${softmaxDim.start.character + 1}`,
    );
    assert.ok(
      att004.range.isEqual(dividedByDk),
      `ATT004 at ${describeDiagnostics([att004])}, the divisor is at line ${dividedByDk.start.line + 1}:${dividedByDk.start.character + 1}`,
    );
    assert.equal(att001.severity, defaultSeverity('ATT001'));
    assert.equal(att004.severity, defaultSeverity('ATT004'));
    assert.notEqual(att001.severity, att004.severity, 'the example no longer has two severities');
    assert.match(att001.message, /dim=-2/);
    assert.match(att004.message, /square root|sqrt/);
    for (const d of list) assert.equal(d.source, SOURCE);
  });

  it("links each code to its rule page, shipped in the extension's docs/rules", async function () {
    const extension = await activeExtension();
    for (const [code, page] of [
      ['ATT001', 'ATT001-softmax-dim.md'],
      ['ATT004', 'ATT004-wrong-scale.md'],
    ] as const) {
      const d = ours(uri).find((x) => codeOf(x) === code);
      assert.ok(d && typeof d.code === 'object', `${code} has no code link: ${describeDiagnostics(ours(uri))}`);
      const target = d.code.target;
      assert.equal(target.toString(), vscode.Uri.joinPath(extension.extensionUri, 'docs', 'rules', page).toString());
      const content = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      assert.ok(content.includes(ruleByCode(code).meta.name), `${target.toString()} does not name the rule "${ruleByCode(code).meta.name}"`);
    }
  });

  it('agrees with the CLI on every finding of the file (positions, codes, messages)', function () {
    const expected = cliFindings().get(EXAMPLE) ?? [];
    assert.ok(expected.length > 0, `the CLI found nothing in ${EXAMPLE}`);
    const shown = ours(uri).map((d) => ({
      code: codeOf(d),
      line: d.range.start.line + 1,
      column: d.range.start.character + 1,
      endLine: d.range.end.line + 1,
      endColumn: d.range.end.character + 1,
      message: d.message,
    }));
    const cli = expected.map((f) => ({ code: f.code, line: f.line, column: f.column, endLine: f.endLine, endColumn: f.endColumn, message: f.message }));
    const key = (f: { line: number; column: number }) => f.line * 10_000 + f.column;
    assert.deepEqual(
      shown.sort((a, b) => key(a) - key(b)),
      cli.sort((a, b) => key(a) - key(b)),
    );
  });

  it("names the evidence as related information: the CLI's related locations, on the scores, the product with v and d_k", function () {
    const expected = cliFindings().get(EXAMPLE) ?? [];
    const lineOf = (needle: string): number => text.split('\n').findIndex((l) => l.includes(needle));
    for (const f of expected) {
      const d = ours(uri).find((x) => codeOf(x) === f.code && x.range.start.line === f.line - 1);
      assert.ok(d, `${f.code} at line ${f.line}: ${describeDiagnostics(ours(uri))}`);
      const shown = (d.relatedInformation ?? []).map((r) => ({
        uri: r.location.uri.toString(),
        line: r.location.range.start.line + 1,
        column: r.location.range.start.character + 1,
        message: r.message,
      }));
      const cli = (f.related ?? []).map((r) => ({ uri: uri.toString(), line: r.line, column: r.column, message: r.message }));
      assert.ok(cli.length > 0, `the CLI names no evidence for ${f.code}`);
      assert.deepEqual(shown, cli, f.code);
    }
    const related = (code: string): number[] => (ours(uri).find((x) => codeOf(x) === code)?.relatedInformation ?? []).map((r) => r.location.range.start.line);
    // ATT001 (softmax over dim=-2): the scores q @ kᵀ and the product with the values.
    assert.ok(related('ATT001').includes(lineOf('scores = q @ k.transpose')), `ATT001 related lines ${related('ATT001').join(', ')}`);
    assert.ok(related('ATT001').includes(lineOf('return weights @ v')), `ATT001 related lines ${related('ATT001').join(', ')}`);
    // ATT004 (divided by d_k): where d_k is defined.
    assert.ok(related('ATT004').includes(lineOf('d_k = q.size(-1)')), `ATT004 related lines ${related('ATT004').join(', ')}`);
  });

  it('explains a finding in the hover, with a link to the rule page', async function () {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, softmaxDim.start.translate(0, 1));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
    const rule = ruleByCode('ATT001').meta;
    assert.ok(text.includes(rule.docs.summary), `the hover does not explain ATT001: ${text.slice(0, 400)}`);
    // The link runs Show Lint Rule Page for ATT001 (the page rendered in a Markdown preview).
    const link = `](command:attentionInspector.showRulePage?${encodeURIComponent(JSON.stringify(['ATT001']))})`;
    assert.ok(text.includes(link), `the hover does not link the rule page: ${text.slice(0, 400)}`);
  });

  it('follows attentionInspector.lint.severity: ATT004 as hint, then off, then back to its default', async function () {
    await setLintSetting('severity', { ATT004: 'hint' });
    let list = await waitForDiagnostics(uri, (l) => l.some((d) => codeOf(d) === 'ATT004' && d.severity === vscode.DiagnosticSeverity.Hint), 'ATT004 as a hint');
    assert.equal(list.find((d) => codeOf(d) === 'ATT001')?.severity, defaultSeverity('ATT001'), 'the override changed ATT001 too');
    await setLintSetting('severity', { ATT004: 'off' });
    list = await waitForDiagnostics(uri, lacksCode('ATT004'), 'ATT004 turned off');
    assert.deepEqual(list.map(codeOf), ['ATT001']);
    await setLintSetting('severity', undefined);
    list = await waitForDiagnostics(
      uri,
      (l) => l.some((d) => codeOf(d) === 'ATT004' && d.severity === defaultSeverity('ATT004')),
      'ATT004 back at its default severity',
    );
    assert.equal(list.length, 2);
  });

  it('is silenced on one line by "# noqa: ATT004", and comes back when the comment goes', async function () {
    const line = dividedByDk.start.line;
    const end = editor.document.lineAt(line).range.end;
    assert.ok(await editor.edit((b) => b.insert(end, '  # noqa: ATT004')), 'the edit was not applied');
    let list = await waitForDiagnostics(uri, lacksCode('ATT004'), 'ATT004 silenced by # noqa');
    assert.equal(list.length, 1, describeDiagnostics(list));
    assert.ok(list[0].range.isEqual(softmaxDim), 'ATT001, on another line, must stay where it was');
    // A noqa for another code does not silence ATT004.
    const comment = new vscode.Range(line, end.character, line, editor.document.lineAt(line).range.end.character);
    assert.ok(await editor.edit((b) => b.replace(comment, '  # noqa: ATT001')));
    list = await waitForDiagnostics(uri, hasCodes('ATT001', 'ATT004'), 'ATT004 back under a noqa for another code');
    assert.ok(list.find((d) => codeOf(d) === 'ATT004')!.range.isEqual(dividedByDk));
  });
});
