// The driver itself, checked against VS Code's built-in features (JSON diagnostics, the Markdown preview
// webview, the JSON extension's toast, the "no formatter" dialog), so that tests of our own features can
// trust what it reports.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { useWorkbench } from './session';

const files = {
  'broken.json': '{\n  "a": 1\n  "b": 2\n}\n',
  'notes.txt': 'alpha beta\nBeta beta gamma\ndelta\n',
  'last-line.txt': 'one\ntwo, without a line break',
  'preview.md': '# Preview\n\nThe cat sat on the mat because it was tired.\n\n我爱自然语言处理。\n',
};

describe('the e2e driver (on built-in VS Code features)', function () {
  const session = useWorkbench({ files });

  it('selects exact, case-sensitive text, the n-th occurrence, lines and positions', async function () {
    const workbench = session.workbench;
    await workbench.openFile('notes.txt');
    await workbench.selectText('beta');
    assert.deepEqual(await workbench.selection(), { line: 1, column: 11, selected: 4 });
    await workbench.selectText('beta', 2); // 'Beta' on line 2 does not match
    assert.deepEqual(await workbench.selection(), { line: 2, column: 10, selected: 4 });
    await workbench.selectLine(2);
    assert.deepEqual(await workbench.selection(), { line: 2, column: 16, selected: 15 });
    await workbench.selectLines(1, 3);
    assert.deepEqual(await workbench.selection(), { line: 3, column: 6, selected: 'alpha beta\nBeta beta gamma\ndelta'.length });
    await workbench.openFile('last-line.txt');
    await workbench.selectLine(2);
    assert.deepEqual(await workbench.selection(), { line: 2, column: 26, selected: 25 });
    await workbench.openFile('notes.txt');
    await workbench.goTo(2, 6);
    assert.deepEqual(await workbench.selection(), { line: 2, column: 6, selected: 0 });
    await assert.rejects(workbench.selectText('beta', 3), /has 2 occurrence\(s\) of "beta".*\n  screenshot: .*\.png/);
    await assert.rejects(workbench.selectText('two\nlines'), /one line/);
  });

  it('reads the Problems view and the hover of a diagnostic', async function () {
    const workbench = session.workbench;
    await workbench.openFile('broken.json');
    const rows = await workbench.waitForProblems((r) => r.some((p) => p.file === 'broken.json'), 'the JSON error');
    const comma = rows.find((p) => p.file === 'broken.json');
    assert.ok(comma, JSON.stringify(rows));
    assert.equal(comma.severity, 'error');
    assert.match(comma.message, /Expected comma/);
    assert.deepEqual([comma.line, comma.column], [3, 3]);
    assert.match(await workbench.hover('"b"'), /Expected comma/);
  });

  it('sees toasts and modal dialogs, and refuses to type into a blocked workbench', async function () {
    const workbench = session.workbench;
    await workbench.openFile('broken.json'); // activates the JSON extension
    await workbench.runCommand('JSON: Clear Schema Cache');
    const toast = await workbench.waitForNotification('JSON schema cache cleared.');
    assert.deepEqual([toast.severity, toast.modal], ['info', false]);
    assert.ok((await workbench.notifications()).some((n) => n.message === 'JSON schema cache cleared.'));

    await workbench.openFile('preview.md');
    await workbench.runCommand('Format Document');
    const dialog = await workbench.waitForNotification(/no formatter for 'markdown'/);
    assert.equal(dialog.modal, true);
    assert.ok(dialog.buttons.includes('Cancel'), JSON.stringify(dialog));
    await assert.rejects(workbench.runCommand('Format Document'), /a modal dialog is open/);
    await workbench.dismissDialog('Cancel');
  });

  it('reads a webview (the Markdown preview) and screenshots it', async function () {
    const workbench = session.workbench;
    await workbench.openFile('preview.md');
    await workbench.runCommand('Markdown: Open Preview');
    const webview = await workbench.webviewFrame();
    await webview.waitForText('The cat sat on the mat because it was tired.');
    assert.match(await webview.text(), /我爱自然语言处理。/);
    // A named inner function: tsx wraps it in __name(), which the driver provides in every frame.
    const headings = await webview.evaluate((tag) => {
      const count = (name: string) => document.getElementsByTagName(name).length;
      return count(tag);
    }, 'h1');
    assert.equal(headings, 1);
    assert.ok(existsSync(await webview.screenshot('driver-markdown-preview')));
    assert.ok(existsSync(await workbench.screenshot('driver-markdown-preview-window')));
  });

  it('answers a file dialog, and says why when the dialog refuses the path', async function () {
    const workbench = session.workbench;
    await workbench.runCommand('File: Open File...');
    await assert.rejects(workbench.answerFileDialog(`${workbench.folder}/missing.txt`), /stayed open, saying "Please enter a path that exists\."/);
    await workbench.answerFileDialog(`${workbench.folder}/notes.txt`); // the same dialog, still open
    await workbench.selectText('gamma');
    assert.deepEqual(await workbench.selection(), { line: 2, column: 16, selected: 5 });
  });

  it('reloads the window and goes on working in the new one', async function () {
    const workbench = session.workbench;
    await workbench.reloadWindow();
    await workbench.openFile('notes.txt');
    await workbench.selectText('delta');
    assert.deepEqual(await workbench.selection(), { line: 3, column: 6, selected: 5 });
  });

  it('reports an unknown command with what the palette lists', async function () {
    await assert.rejects(session.workbench.runCommand('No Such Command Anywhere'), /no command titled "No Such Command Anywhere"/);
  });
});
