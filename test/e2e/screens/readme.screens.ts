// The README's screenshots, taken in the real VS Code of the e2e tier (not part of `npm test`):
//   npm run screenshots     → test-artifacts/e2e/readme-*.png; copy the chosen ones to docs/images/
// It checks only that what it photographs is there (the panel's token count, the Problems rows).
import { useWorkbench } from '../session';

const SENTENCE = 'The cat sat on the mat because it was tired.';

describe('README screenshots', function () {
  this.timeout(300_000);
  const session = useWorkbench({
    folder: 'examples',
    settings: { 'attentionInspector.heads': 8, 'attentionInspector.dModel': 128, 'attentionInspector.seed': 0, 'workbench.colorTheme': 'Default Dark Modern' },
  });

  it('the panel beside the editor: the heads grid and one head opened large, with its hover', async function () {
    const workbench = session.workbench;
    await workbench.openFile('hello.md');
    await workbench.selectText(SENTENCE);
    await workbench.runCommand('Attention Inspector: Inspect Selection');
    const panel = await workbench.webviewFrame(60_000);
    await panel.waitForText('11 tokens', 60_000);
    await panel.locator('button.thumb[data-layer="0"][data-head="5"]').click();
    const canvas = panel.locator('.detail canvas.heatmap-canvas');
    await canvas.waitFor();
    const box = await panel.evaluate(() => {
      type View = { currentLayout?: { matrix: { x: number; y: number; w: number; h: number } } };
      return (globalThis as unknown as { attentionInspector: { heatmap: View } }).attentionInspector.heatmap.currentLayout!.matrix;
    }, undefined);
    await canvas.hover({ position: { x: box.x + (7.5 * box.w) / 11, y: box.y + (6.5 * box.h) / 11 } });
    await workbench.screenshot('readme-panel');
    await panel.screenshot('readme-panel-only');
  });

  it('the debugger on a softmax over the wrong dim', async function () {
    const panel = await session.workbench.webviewFrame(60_000);
    await panel.locator('button:has-text("Step through this head")').click();
    await panel.locator('select').filter({ hasText: 'over queries' }).selectOption({ label: '-2 (over queries)' });
    await panel.waitForText('Rows do not sum to 1', 60_000);
    await session.workbench.screenshot('readme-debugger');
  });

  it('the linter on attention_bug.py', async function () {
    const workbench = session.workbench;
    await workbench.runCommand('View: Close All Editors');
    await workbench.openFile('attention_bug.py');
    await workbench.waitForProblems((rows) => rows.length >= 2, 'the two findings of attention_bug.py', 60_000);
    await workbench.hoverContent({ line: 12, column: 39 }, { screenshot: 'readme-lint-hover' });
  });
});
