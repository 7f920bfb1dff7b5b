// Quick fixes as vscode.executeCodeActionProvider returns them for the findings on a copy of
// examples/attention_bug.py: their titles (a behaviour-changing fix says "[unsafe]" and is never preferred),
// the `# noqa` actions, none offered to source.fixAll, and exactly the edit each one applies.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  closeAllEditors,
  codeOf,
  copyWorkspaceFile,
  describeDiagnostics,
  hasCodes,
  lacksCode,
  openInEditor,
  ours,
  rangeOf,
  readWorkspaceFile,
  resetLintSettings,
  waitForDiagnostics,
} from './helpers';

const EXAMPLE = 'attention_bug.py';

async function codeActions(uri: vscode.Uri, range: vscode.Range, kind?: string): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<Array<vscode.CodeAction | vscode.Command>>('vscode.executeCodeActionProvider', uri, range, kind);
  return actions.filter((a): a is vscode.CodeAction => 'edit' in a || 'kind' in a);
}

function titled(actions: vscode.CodeAction[], title: RegExp | string): vscode.CodeAction {
  const found = actions.find((a) => (typeof title === 'string' ? a.title === title : title.test(a.title)));
  assert.ok(found, `no action titled ${String(title)}; offered: ${JSON.stringify(actions.map((a) => a.title))}`);
  return found;
}

/** The text of `document` after replacing `range` of `original` with `newText`. */
function replaced(original: string, range: vscode.Range, newText: string): string {
  const lines = original.split('\n');
  const line = lines[range.start.line];
  lines[range.start.line] = line.slice(0, range.start.character) + newText + line.slice(range.end.character);
  return lines.join('\n');
}

describe('quick fixes from vscode.executeCodeActionProvider', function () {
  let original: string;
  let softmaxDim: vscode.Range;
  let divisor: vscode.Range;

  before(async function () {
    await resetLintSettings();
    original = await readWorkspaceFile(EXAMPLE);
    softmaxDim = rangeOf(original, 'torch.softmax(scores', 'dim=-2');
    const d = rangeOf(original, 'k.transpose(-2, -1) / d_k', 'd_k  #');
    divisor = new vscode.Range(d.start, d.start.translate(0, 'd_k'.length));
  });

  after(async function () {
    await closeAllEditors();
  });

  /** A fresh copy of the example, open in an editor, with both findings published. */
  async function freshCopy(name: string): Promise<vscode.TextEditor> {
    const uri = await copyWorkspaceFile(EXAMPLE, `exthost-quick-fixes/${name}.py`);
    const editor = await openInEditor(uri);
    await waitForDiagnostics(uri, hasCodes('ATT001', 'ATT004'), 'ATT001 and ATT004');
    return editor;
  }

  it('offers "Set dim=-1 … [unsafe]" and "Ignore ATT001 on this line (# noqa)" on ATT001, nothing preferred', async function () {
    const { document } = await freshCopy('titles');
    const actions = await codeActions(document.uri, softmaxDim);
    const fix = titled(actions, /^Set dim=-1 \(.+\) \[unsafe\]$/);
    const noqa = titled(actions, 'Ignore ATT001 on this line (# noqa)');
    // (vscode.executeCodeActionProvider does not return an action's diagnostics: the range ties them here.)
    for (const a of [fix, noqa]) assert.equal(a.kind?.value, vscode.CodeActionKind.QuickFix.value, `${a.title} is not a quick fix`);
    assert.equal(fix.isPreferred, false, 'a fix that changes behaviour must not be preferred (auto-applied)');
    assert.equal(actions.filter((a) => a.title.includes('ATT004')).length, 0, 'actions of ATT004 offered on the ATT001 line');
    // On ATT004's divisor: its own unsafe fix and noqa.
    const onDivisor = await codeActions(document.uri, divisor);
    titled(onDivisor, /^Use sqrt\(d_k\) \(.+\) \[unsafe\]$/);
    titled(onDivisor, 'Ignore ATT004 on this line (# noqa)');
  });

  it('offers none of them to source.fixAll (fix-all on save never changes behaviour)', async function () {
    const { document } = await freshCopy('fix-all');
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    const fixAll = await codeActions(document.uri, whole, vscode.CodeActionKind.SourceFixAll.value);
    assert.deepEqual(
      fixAll.filter((a) => /\[unsafe\]|# noqa/.test(a.title)).map((a) => a.title),
      [],
    );
    // The same range without a kind filter does offer them: the empty list above is the filter's doing.
    assert.ok((await codeActions(document.uri, whole)).some((a) => a.title.endsWith('[unsafe]')));
  });

  it('the ATT001 fix replaces exactly dim=-2 by dim=-1, and ATT001 goes while ATT004 stays', async function () {
    const editor = await freshCopy('apply-dim');
    const fix = titled(await codeActions(editor.document.uri, softmaxDim), /^Set dim=-1 /);
    assert.ok(fix.edit, 'the fix has no edit');
    assert.ok(await vscode.workspace.applyEdit(fix.edit), 'the edit was not applied');
    assert.equal(editor.document.getText(), replaced(original, softmaxDim, 'dim=-1'));
    const list = await waitForDiagnostics(editor.document.uri, lacksCode('ATT001'), 'ATT001 fixed');
    assert.deepEqual(list.map(codeOf), ['ATT004'], describeDiagnostics(list));
    assert.ok(list[0].range.isEqual(divisor));
  });

  it('the ATT004 fix divides by the square root of d_k, and the file is then clean', async function () {
    const editor = await freshCopy('apply-sqrt');
    const fix = titled(await codeActions(editor.document.uri, divisor), /^Use sqrt\(d_k\) /);
    assert.ok(fix.edit && (await vscode.workspace.applyEdit(fix.edit)), 'the edit was not applied');
    const changed = editor.document.getText().split('\n');
    const before = original.split('\n');
    const differing = changed.map((l, i) => (l === before[i] ? -1 : i)).filter((i) => i >= 0);
    assert.deepEqual(differing, [divisor.start.line], 'the fix changed other lines');
    const line = changed[divisor.start.line];
    assert.match(line, /\/ (?:math\.)?sqrt\(d_k\)  #/, `the divisor is not sqrt(d_k): ${line}`);
    if (line.includes('math.sqrt')) assert.match(original, /^import math$/m, 'the fix uses math.sqrt in a file that does not import math');
    await waitForDiagnostics(editor.document.uri, lacksCode('ATT004'), 'ATT004 fixed');
    // Both fixes together leave nothing to report.
    const dim = titled(await codeActions(editor.document.uri, softmaxDim), /^Set dim=-1 /);
    assert.ok(dim.edit && (await vscode.workspace.applyEdit(dim.edit)));
    await waitForDiagnostics(editor.document.uri, (l) => l.length === 0, 'no findings after both fixes');
  });

  it('the # noqa action appends "  # noqa: ATT004" to its line and silences ATT004 only', async function () {
    const editor = await freshCopy('apply-noqa');
    const noqa = titled(await codeActions(editor.document.uri, divisor), 'Ignore ATT004 on this line (# noqa)');
    assert.ok(noqa.edit && (await vscode.workspace.applyEdit(noqa.edit)), 'the edit was not applied');
    const lines = original.split('\n');
    lines[divisor.start.line] += '  # noqa: ATT004';
    assert.equal(editor.document.getText(), lines.join('\n'));
    const list = await waitForDiagnostics(editor.document.uri, lacksCode('ATT004'), 'ATT004 silenced');
    assert.deepEqual(list.map(codeOf), ['ATT001']);
    assert.equal(ours(editor.document.uri).length, 1);
  });
});
