// Closing the inspector panel while its run is computing cancels the run (issue 14, item 10): in a real VS Code
// (code-server + Chromium) a selection of 16,000 tokens is run anyway past the maxTokens question, the panel
// the run is for is closed while "Computing attention…" shows, and then the progress ends and the panel does
// not come back with the run's result; the engine answers the next inspection with its own result.
import assert from 'node:assert/strict';
import { useWorkbench } from './session';
import { clickNotificationButton } from './support/dialogs';

const ENGLISH = 'The cat sat on the mat because it was tired.';
/** Long enough that the seeded layer computes for many seconds on these machines (16,000 of the 16,384 allowed). */
const TOKENS = 16_000;
const LONG_LINE = Array.from({ length: TOKENS }, (_, i) => `word${(i * 37) % 701}`).join(' ');

describe('closing the inspector panel mid-run (code-server)', function () {
  const session = useWorkbench({
    folder: 'examples',
    files: { 'long.md': `${LONG_LINE}\n` },
    settings: { 'attentionInspector.heads': 4, 'attentionInspector.dModel': 64, 'attentionInspector.seed': 0, 'attentionInspector.maxTokens': 1000 },
  });

  it('cancels the run: the progress ends and the panel does not reopen with its result', async function () {
    this.timeout(600_000);
    const workbench = session.workbench;
    // A short inspection opens the panel the long run is then for.
    await workbench.openFile('hello.md');
    await workbench.selectText(ENGLISH);
    await workbench.runCommand('Attention Inspector: Inspect Selection');
    const panel = await workbench.webviewFrame(60_000);
    await panel.waitForText('11 tokens', 60_000);
    const page = panel.locator('body').page();

    await workbench.openFile('long.md');
    await workbench.goTo(1, 1);
    await workbench.runCommand('Attention Inspector: Inspect Selection');
    await workbench.waitForNotification('The selection is long', 60_000);
    await clickNotificationButton(panel, 'The selection is long', 'Run Anyway');
    const progress = page.locator('.notifications-toasts .notification-list-item', { hasText: 'Computing attention' }).first();
    await progress.waitFor({ timeout: 60_000 });
    await workbench.screenshot('panel-cancel-running');

    // Close the panel (every editor, the panel's tab among them) while the run computes.
    await workbench.runCommand('View: Close All Editors');
    await page.locator('iframe.webview:visible').first().waitFor({ state: 'detached', timeout: 30_000 });
    // The run ends as cancelled: its progress goes away, and no panel opens with its 16,000 tokens.
    await progress.waitFor({ state: 'hidden', timeout: 120_000 });
    await workbench.screenshot('panel-cancel-after');
    assert.equal(await page.locator('iframe.webview:visible').count(), 0, 'a panel opened after its run was cancelled');
    assert.deepEqual(
      (await workbench.notifications()).filter((n) => /Attention Inspector:/.test(n.message)).map((n) => n.message),
      [],
      'the cancelled run reported an error',
    );

    // The engine is free again: the next inspection shows its own result, not the long run's.
    await workbench.openFile('hello.md');
    await workbench.selectText(ENGLISH);
    await workbench.runCommand('Attention Inspector: Inspect Selection');
    const again = await workbench.webviewFrame(120_000);
    await again.waitForText('11 tokens', 120_000);
    assert.doesNotMatch(await again.text(), /16000 tokens|16,000 tokens/);
    assert.deepEqual(await workbench.extensionHostErrors(), []);
  });
});
