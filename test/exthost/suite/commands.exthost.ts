// The extension's commands through vscode.commands: every command package.json contributes is registered,
// Lint Workspace publishes the CLI's findings on files no editor has opened (a Python file and a closed
// notebook, whose findings name their cell), Inspect Selection opens the inspector's panel, and Show Lint Rule
// Page opens a rule's page as a Markdown preview.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  activeExtension,
  allOurs,
  cliFindings,
  closeAllEditors,
  codeOf,
  copyWorkspaceFile,
  describeDiagnostics,
  ours,
  resetLintSettings,
  waitFor,
  workspaceFile,
  workspaceRoot,
  type CliFinding,
} from './helpers';

/** Lint Workspace's closed-notebook form of a CLI finding: on the file, the message naming cell and line. */
function notebookMessage(f: CliFinding): string {
  assert.ok(f.cell !== undefined, `the CLI finding has no cell: ${JSON.stringify(f)}`);
  return `cell ${f.cell + 1}, line ${f.line}: ${f.message}`;
}

/** Diagnostics and CLI findings in one comparable form (positions 1-based). */
function fromDiagnostic(d: vscode.Diagnostic) {
  return {
    code: codeOf(d),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    message: d.message,
  };
}
function fromCli(f: CliFinding) {
  return { code: f.code, line: f.line, column: f.column, endLine: f.endLine, endColumn: f.endColumn, message: f.message };
}
const byPosition = (a: { line: number; column: number; code: string }, b: { line: number; column: number; code: string }) =>
  a.line - b.line || a.column - b.column || a.code.localeCompare(b.code);

describe('commands', function () {
  before(async function () {
    await resetLintSettings();
  });

  after(async function () {
    await closeAllEditors();
  });

  it('registers every command that package.json contributes', async function () {
    const extension = await activeExtension();
    const contributed = (extension.packageJSON as { contributes: { commands: Array<{ command: string }> } }).contributes.commands.map((c) => c.command);
    assert.ok(contributed.length >= 6, `package.json contributes ${contributed.length} commands`);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((c) => !registered.has(c)),
      [],
      'contributed but not registered',
    );
  });

  it('Lint Workspace publishes, on files no editor opened, exactly what the CLI reports', async function () {
    await activeExtension();
    const expected = cliFindings();
    // A file created now, never opened: nothing can have linted it but the command.
    const probe = await copyWorkspaceFile('padding_masks.py', 'exthost-commands/never_opened.py');
    assert.deepEqual(ours(probe), [], 'the new file has diagnostics before the command ran');
    await vscode.commands.executeCommand('attentionInspector.lintWorkspace');

    const paddingExpected = (expected.get('padding_masks.py') ?? []).map(fromCli).sort(byPosition);
    assert.ok(paddingExpected.length > 0, 'the CLI found nothing in padding_masks.py');
    assert.deepEqual(ours(probe).map(fromDiagnostic).sort(byPosition), paddingExpected, 'the new file');

    let notebooks = 0;
    for (const [path, findings] of expected) {
      const uri = workspaceFile(path);
      const shown = ours(uri);
      if (path.endsWith('.ipynb')) {
        notebooks++;
        assert.deepEqual(shown.map((d) => [codeOf(d), d.message]).sort(), findings.map((f) => [f.code, notebookMessage(f)]).sort(), path);
      } else {
        assert.deepEqual(shown.map(fromDiagnostic).sort(byPosition), findings.map(fromCli).sort(byPosition), path);
      }
    }
    assert.ok(notebooks > 0 && expected.size >= 3, `the CLI reported ${[...expected.keys()].join(', ')}: expected Python files and a notebook`);
    // Files without findings have no diagnostics (attention_fixed.py is the corrected example).
    const fixed = workspaceFile('attention_fixed.py');
    assert.equal(expected.has('attention_fixed.py'), false, 'the CLI reports attention_fixed.py');
    assert.deepEqual(ours(fixed), [], describeDiagnostics(ours(fixed)));
    const root = workspaceRoot().toString();
    assert.ok(
      allOurs().every(([uri]) => uri.toString().startsWith(root)),
      'diagnostics outside the workspace',
    );
  });

  it('Inspect Selection opens the inspector panel on the selected text', async function () {
    await activeExtension();
    const document = await vscode.workspace.openTextDocument(workspaceFile('hello.md'));
    const editor = await vscode.window.showTextDocument(document);
    const line = document
      .getText()
      .split('\n')
      .findIndex((l) => l.startsWith('Select a sentence'));
    assert.ok(line >= 0, 'hello.md changed: no line starts with "Select a sentence"');
    editor.selection = new vscode.Selection(line, 0, line, 'Select a sentence'.length);
    await vscode.commands.executeCommand('attentionInspector.inspectSelection');
    const panelTabs = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('attentionInspector.panel'));
    const tabs = await waitFor(
      () => (panelTabs().length > 0 ? panelTabs() : undefined),
      'the inspector panel',
      () => JSON.stringify(vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label))),
    );
    assert.equal(tabs.length, 1);
  });

  it("the model picker's tiny trained model ships inside the extension and loads through Load Weights", async function () {
    const extension = await activeExtension();
    // the path the picker's "Use the Tiny Trained Model" entry loads (TINY_MODEL_PATH in src/host/commands.ts)
    const folder = vscode.Uri.joinPath(extension.extensionUri, 'media', 'models', 'tiny-bilingual');
    for (const name of ['model.safetensors', 'config.json', 'tokenizer.json']) {
      const stat = await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, name));
      assert.ok(stat.size > 0, `${name} is empty`);
    }
    try {
      const shown = await vscode.commands.executeCommand<string | undefined>(
        'attentionInspector.loadWeights',
        vscode.Uri.joinPath(folder, 'model.safetensors'),
      );
      assert.equal(shown, undefined, `loading the tiny trained model failed: ${shown}`);
    } finally {
      await vscode.commands.executeCommand('attentionInspector.useSeededWeights');
    }
  });

  it("Show Lint Rule Page opens the rule's shipped page as a rendered Markdown preview, not as text", async function () {
    const extension = await activeExtension();
    await closeAllEditors();
    const page = vscode.Uri.joinPath(extension.extensionUri, 'docs', 'rules', 'ATT003-missing-scale.md');
    await vscode.workspace.fs.stat(page); // shipped in the package
    await vscode.commands.executeCommand('attentionInspector.showRulePage', 'ATT003');
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    const describeTabs = () => JSON.stringify(tabs().map((t) => [t.label, t.input instanceof vscode.TabInputWebview ? t.input.viewType : 'text']));
    const preview = await waitFor(
      () =>
        tabs().find(
          (t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('markdown.preview') && t.label.includes('ATT003-missing-scale.md'),
        ),
      "ATT003's rule page in a Markdown preview",
      describeTabs,
    );
    assert.ok(preview);
    // Not opened as text as well.
    assert.deepEqual(
      tabs().filter((t) => t.input instanceof vscode.TabInputText),
      [],
      describeTabs(),
    );
    await closeAllEditors();
  });
});
