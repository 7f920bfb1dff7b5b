// Loading a malformed weight file in a window whose display language is Simplified Chinese (the runner starts
// it with `--locale zh-cn`): the error the editor shows names the file and says what is wrong in Chinese. The
// loader's error crosses the engine worker as its template and arguments; the expected text is computed, not
// written down: the pure loader (run here on the same bytes) gives the error's parts, rendered through
// l10n/bundle.l10n.zh-cn.json the way vscode.l10n.t renders them (bundle keys `<English>/error`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { fillTemplate, messagePartsOf, renderMessage } from '../../../src/protocol/message';
import { readTensors } from '../../../src/weights';
import { activeExtension, workspaceFile } from './helpers';

const HAN = /[\u4e00-\u9fff]/;

/** A safetensors file cut short: its header length (1,000) points past its 16 bytes, as a truncated download does. */
function truncatedSafetensors(): Uint8Array {
  const bytes = new Uint8Array(16);
  new DataView(bytes.buffer).setBigUint64(0, 1000n, true);
  return bytes;
}

describe('a malformed weight file in zh-cn (display language Simplified Chinese)', function () {
  let zh: Record<string, string>;

  before(async function () {
    assert.equal(vscode.env.language, 'zh-cn', 'the window must run with --locale zh-cn');
    const extension = await activeExtension();
    zh = JSON.parse(readFileSync(vscode.Uri.joinPath(extension.extensionUri, 'l10n', 'bundle.l10n.zh-cn.json').fsPath, 'utf8')) as Record<string, string>;
  });

  after(async function () {
    await vscode.commands.executeCommand('attentionInspector.useSeededWeights');
  });

  /** What the loader says about `bytes` named `fileName`, in English and rendered through the zh-cn bundle. */
  async function loaderError(bytes: Uint8Array, fileName: string): Promise<{ english: string; chinese: string }> {
    const e = await readTensors(bytes, fileName).then(
      () => assert.fail(`the loader read ${fileName}`),
      (err: unknown) => err as Error,
    );
    const parts = messagePartsOf(e);
    assert.ok(parts, 'the loader error has no parts');
    const chinese = renderMessage(parts, (t, args) => fillTemplate(zh[`${t}/error`] ?? t, args));
    return { english: e.message, chinese };
  }

  for (const { fileName, bytes } of [
    { fileName: 'cut.safetensors', bytes: truncatedSafetensors() },
    { fileName: 'notes.npy', bytes: new TextEncoder().encode('these are notes, not an array') },
  ]) {
    it(`shows the loader's error for ${fileName} in Chinese, naming the file`, async function () {
      const uri = workspaceFile(`exthost-load-error/${fileName}`);
      await vscode.workspace.fs.writeFile(uri, bytes);
      const shown = await vscode.commands.executeCommand<string | undefined>('attentionInspector.loadWeights', uri);
      const { english, chinese } = await loaderError(bytes, fileName);
      assert.ok(shown, 'Load Weights reported no error for a malformed file');
      // the loader's message begins with the file's name; the notification names it once, in its own prefix
      assert.ok(chinese.startsWith(`${fileName}：`), `the loader's message does not begin with the file: ${chinese}`);
      assert.equal(shown, fillTemplate(zh['Could not load {0}: {1}'], [fileName, chinese.slice(fileName.length + 1)]));
      assert.equal(shown.split(fileName).length, 2, `the file is named more than once: ${shown}`);
      assert.ok(shown.includes(`${fileName}：`), `the message does not name the file: ${shown}`);
      assert.match(shown, HAN);
      assert.ok(!shown.includes(english.slice(fileName.length + 2)), `the English problem is still shown: ${shown}`);
    });
  }
});
