// The README's screenshots, taken in the real VS Code of the e2e tier (not part of `npm test`):
//   npm run screenshots     → test-artifacts/e2e/readme-*.png; copy the chosen ones to docs/images/
// It checks only that what it photographs is there (the panel's token count, the Problems rows). The last
// two suites photograph the panel in the light and high-contrast themes (theme-*.png), to look at by hand.
import { useWorkbench, type Workbench } from '../session';

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

for (const [name, theme] of [
  ['light', 'Default Light Modern'],
  ['high-contrast', 'Default High Contrast'],
] as const) {
  describe(`the panel in the ${name} theme`, function () {
    this.timeout(300_000);
    const session = useWorkbench({
      folder: 'examples',
      settings: { 'attentionInspector.heads': 4, 'attentionInspector.dModel': 64, 'attentionInspector.seed': 0, 'workbench.colorTheme': theme },
    });

    it('a Chinese head, and the debugger on scale 1/d_k', async function () {
      const workbench = session.workbench;
      await workbench.openFile('hello.md');
      await workbench.selectText('我爱自然语言处理。');
      await workbench.runCommand('Attention Inspector: Inspect Selection');
      const panel = await workbench.webviewFrame(60_000);
      await panel.waitForText('9 tokens', 60_000);
      await panel.locator('button.thumb[data-layer="0"][data-head="1"]').click();
      await panel.locator('.detail canvas.heatmap-canvas').waitFor();
      await panel.screenshot(`theme-${name}-head`);
      await panel.locator('button:has-text("Step through this head")').click();
      await panel.locator('#sw-scale').selectOption('inv-dk');
      await panel.waitForText('Almost uniform rows (flat attention)', 60_000);
      await panel.locator('.step-tab[data-step="3"]').click();
      await panel.screenshot(`theme-${name}-debugger`);
    });
  });
}

// Cross-file findings (examples/crossfile): model.py's ATT002, whose mask data.py builds and train.py passes, with
// its related locations expanded in the Problems view, and its hover; in the dark, light and high-contrast themes.
/** Opens examples/crossfile/model.py and waits for its three cross-file findings, each with its related locations. */
async function openCrossFileModel(workbench: Workbench): Promise<void> {
  await workbench.openFile('crossfile/model.py');
  await workbench.waitForProblems(
    (rows) => ['ATT002', 'ATT007', 'ATT008'].every((code) => rows.some((r) => r.file === 'model.py' && r.code === code && (r.related ?? []).length > 0)),
    'the three cross-file findings of model.py with their related locations',
    120_000,
  );
}

for (const [name, theme] of [
  ['dark', 'Default Dark Modern'],
  ['light', 'Default Light Modern'],
  ['high-contrast', 'Default High Contrast'],
] as const) {
  describe(`a cross-file finding in the ${name} theme`, function () {
    this.timeout(300_000);
    const session = useWorkbench({ folder: 'examples', settings: { 'workbench.colorTheme': theme } });

    it('the Problems view with the related locations, and the hover', async function () {
      const workbench = session.workbench;
      await openCrossFileModel(workbench);
      await workbench.screenshot(`crossfile-${name}-problems`);
      await workbench.hoverContent({ line: 25, column: 51 }, { screenshot: `crossfile-${name}-hover` });
    });
  });
}

// The same finding in a zh-cn window: its message and related locations in Chinese, the code quoted as written.
describe('a cross-file finding in zh-cn', function () {
  this.timeout(300_000);
  const session = useWorkbench({ folder: 'examples', locale: 'zh-cn', settings: { 'workbench.colorTheme': 'Default Dark Modern' } });

  it('the Problems view with the related locations, and the hover', async function () {
    const workbench = session.workbench;
    await openCrossFileModel(workbench);
    await workbench.hoverContent({ line: 25, column: 51 }, { screenshot: 'crossfile-zh-cn-hover' });
  });
});
