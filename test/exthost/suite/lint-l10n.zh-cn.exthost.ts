// The linter in a window whose display language is Simplified Chinese (the runner starts it with
// `--locale zh-cn`; suites named *.zh-cn.exthost.ts run only there): on a copy of examples/attention_bug.py the
// diagnostics, their related information, the quick-fix titles and the rule hovers are in Chinese. The
// expected text is computed, not written down: the pure linter (run here on the same file) gives each
// finding's template and arguments, rendered through l10n/bundle.l10n.zh-cn.json the way vscode.l10n.t
// renders them; the code in backticks is the file's own and stays as written.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { createLinter, RULES, type Finding } from '../../../src/lint';
import { fillTemplate, renderMessage, type MessageParts } from '../../../src/lint/message';
import {
  activeExtension,
  closeAllEditors,
  codeOf,
  copyWorkspaceFile,
  hasCodes,
  openInEditor,
  readWorkspaceFile,
  resetLintSettings,
  waitForDiagnostics,
} from './helpers';

const EXAMPLE = 'attention_bug.py';
const HAN = /[\u4e00-\u9fff]/;

describe('linter messages in zh-cn (display language Simplified Chinese)', function () {
  let zh: Record<string, string>;
  let expected: Finding[];
  let uri: vscode.Uri;
  let diagnostics: vscode.Diagnostic[];

  /** What vscode.l10n.t gives for a linter template (bundle key `<English>/lint`) or a host string. */
  const lintText = (parts: MessageParts) => renderMessage(parts, (t, args) => fillTemplate(zh[`${t}/lint`] ?? t, args));
  const hostText = (english: string, ...args: (string | number)[]) => fillTemplate(zh[english] ?? english, args);

  before(async function () {
    await resetLintSettings();
    assert.equal(vscode.env.language, 'zh-cn', 'the window must run with --locale zh-cn');
    const extension = await activeExtension();
    const read = (path: string) => readFileSync(vscode.Uri.joinPath(extension.extensionUri, ...path.split('/')).fsPath);
    zh = JSON.parse(read('l10n/bundle.l10n.zh-cn.json').toString('utf8')) as Record<string, string>;
    const linter = await createLinter({ treeSitter: read('media/web-tree-sitter.wasm'), python: read('media/tree-sitter-python.wasm') });
    expected = linter.lintPython(await readWorkspaceFile(EXAMPLE));
    assert.deepEqual(
      expected.map((f) => f.code),
      ['ATT004', 'ATT001'],
    );
    uri = await copyWorkspaceFile(EXAMPLE, 'exthost-l10n/attention_bug.py');
    await openInEditor(uri);
    diagnostics = await waitForDiagnostics(uri, hasCodes('ATT001', 'ATT004'), 'ATT001 and ATT004');
  });

  after(async function () {
    await closeAllEditors();
  });

  it('shows each diagnostic and its related information in Chinese, the code quoted as written', function () {
    for (const f of expected) {
      const d = diagnostics.find((x) => codeOf(x) === f.code);
      assert.ok(d, `no ${f.code} diagnostic`);
      assert.equal(d.message, lintText(f.messageParts!));
      assert.notEqual(d.message, f.message, 'the message is still English');
      assert.match(d.message, HAN);
      // The code the message quotes is the same in both languages.
      assert.deepEqual(d.message.match(/`[^`]*`/g)?.sort(), f.message.match(/`[^`]*`/g)?.sort());
      assert.deepEqual(
        (d.relatedInformation ?? []).map((r) => r.message),
        (f.related ?? []).map((r) => lintText(r.messageParts!)),
      );
      for (const r of d.relatedInformation ?? []) assert.match(r.message, HAN);
    }
  });

  it('titles the quick fixes in Chinese (the unsafe marker and # noqa action too)', async function () {
    const att001 = expected.find((f) => f.code === 'ATT001')!;
    const range = new vscode.Range(att001.line - 1, att001.column - 1, att001.endLine - 1, att001.endColumn - 1);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range);
    const titles = actions.map((a) => a.title);
    const fix = hostText('{0} [unsafe]', lintText(att001.fix!.titleParts!));
    assert.ok(titles.includes(fix), `no action titled ${fix}; offered: ${JSON.stringify(titles)}`);
    assert.match(fix, HAN);
    const noqa = hostText('Ignore {0} on this line (# noqa)', 'ATT001');
    assert.ok(titles.includes(noqa), `no action titled ${noqa}; offered: ${JSON.stringify(titles)}`);
  });

  it('explains the rule in Chinese when hovering a diagnostic', async function () {
    const d = diagnostics.find((x) => codeOf(x) === 'ATT001')!;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, d.range.start);
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
    const rule = RULES.find((r) => r.meta.code === 'ATT001')!;
    assert.ok(text.includes(zh[`${rule.meta.docs.summary}/lint`]), text);
    assert.ok(text.includes(zh[`${rule.meta.docs.whyIsThisBad}/lint`]), text);
    assert.ok(text.includes(`[${hostText('Rule page')}]`), text);
  });
});
