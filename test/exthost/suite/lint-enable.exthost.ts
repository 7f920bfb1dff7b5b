// attentionInspector.lint.enable = false clears every diagnostic the extension published (open files and
// files Lint Workspace linted), and true brings them back for the open documents, as they are now.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  activeExtension,
  allOurs,
  closeAllEditors,
  codeOf,
  copyWorkspaceFile,
  hasCodes,
  openInEditor,
  ours,
  readWorkspaceFile,
  rangeOf,
  resetLintSettings,
  setLintSetting,
  waitFor,
  waitForDiagnostics,
} from './helpers';

describe('attentionInspector.lint.enable', function () {
  let editor: vscode.TextEditor;
  let softmaxDim: vscode.Range;

  before(async function () {
    await resetLintSettings();
    await activeExtension();
    softmaxDim = rangeOf(await readWorkspaceFile('attention_bug.py'), 'torch.softmax(scores', 'dim=-2');
    editor = await openInEditor(await copyWorkspaceFile('attention_bug.py', 'exthost-enable/attention_bug.py'));
    await waitForDiagnostics(editor.document.uri, hasCodes('ATT001', 'ATT004'), 'ATT001 and ATT004');
    await vscode.commands.executeCommand('attentionInspector.lintWorkspace');
  });

  after(async function () {
    await resetLintSettings();
    await closeAllEditors();
  });

  it('false clears the diagnostics of every file, open or not', async function () {
    const before = allOurs();
    assert.ok(before.length >= 3, `Lint Workspace left diagnostics on ${before.length} files only`);
    await setLintSetting('enable', false);
    await waitFor(
      () => (allOurs().length === 0 ? true : undefined),
      'no diagnostics of the extension anywhere',
      () =>
        allOurs()
          .map(([uri, list]) => `${vscode.workspace.asRelativePath(uri)}: ${list.map(codeOf).join(',')}`)
          .join('; '),
    );
  });

  it('true lints the open document again, as edited meanwhile', async function () {
    // An edit while linting is off: a line inserted above the softmax.
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(softmaxDim.start.line, 0), '    # an edit made while linting was off\n')));
    await setLintSetting('enable', true);
    const list = await waitForDiagnostics(editor.document.uri, hasCodes('ATT001', 'ATT004'), 'ATT001 and ATT004 back');
    const att001 = list.find((d) => codeOf(d) === 'ATT001')!;
    assert.ok(
      att001.range.isEqual(softmaxDim.with(softmaxDim.start.translate(1), softmaxDim.end.translate(1))),
      'ATT001 is not one line lower, where the edit moved it',
    );
    assert.equal(ours(editor.document.uri).length, 2);
  });
});
