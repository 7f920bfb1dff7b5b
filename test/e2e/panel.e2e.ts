// The inspector panel in a real VS Code (code-server + Chromium): Inspect Selection on a Chinese and an
// English sentence draws one non-blank heatmap per head, hovering names the right tokens, the debugger steps
// through its five steps and warns when softmax runs over dim -2, a hostile selection stays text, and a
// fixture checkpoint loaded through Load Weights is what the panel then shows. Expected tokens come from the
// engine's own session run in this process, not from the panel.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InspectSession } from '../../src/models/session';
import type { Webview, Workbench } from './driver/workbench';
import { useWorkbench } from './session';
import { answerFileDialogSettled, cancelQuickInput as cancelFileDialog } from './support/dialogs';
import { repoRoot } from './support/paths';

const HEADS = 4;
const ENGLISH = 'The cat sat on the mat because it was tired.';
const CHINESE = '我爱自然语言处理。';
const HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1">';

/** The tokens the engine makes of `text` with the seeded model the tests configure. */
async function expectedTokens(text: string): Promise<string[]> {
  const session = new InspectSession();
  await session.configure({ kind: 'seeded', seed: 0, heads: HEADS, dModel: 64 });
  return (await session.run({ text, maxTokens: 512 })).tokens.map((t) => t.display);
}

interface ThumbPixels {
  count: number;
  /** Per thumbnail: share of pixels that differ from the editor background, and distinct colours. */
  heads: { nonBackground: number; colours: number }[];
}

/** Reads every head thumbnail's pixels in the webview. */
function thumbnailPixels(panel: Webview): Promise<ThumbPixels> {
  return panel.evaluate(() => {
    const bg = getComputedStyle(document.body).backgroundColor.match(/\d+/g)!.map(Number);
    const canvases = [...document.querySelectorAll<HTMLCanvasElement>('canvas.thumb-canvas')];
    return {
      count: canvases.length,
      heads: canvases.map((c) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        const colours = new Set<number>();
        let differ = 0;
        for (let i = 0; i < d.length; i += 4) {
          colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
          if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 6) differ++;
        }
        return { nonBackground: differ / (d.length / 4), colours: colours.size };
      }),
    };
  }, undefined);
}

/** Where cell (row, col) of a rows × cols heatmap is drawn, relative to its canvas (CSS px). */
async function cellCentre(panel: Webview, which: 'head' | 'debugger', row: number, col: number, rows: number, cols: number): Promise<{ x: number; y: number }> {
  const m = await panel.evaluate((w) => {
    type View = { currentLayout?: { matrix: { x: number; y: number; w: number; h: number } } };
    const app = (globalThis as unknown as { attentionInspector: { heatmap: View; debugger: { heatmap: View } } }).attentionInspector;
    return (w === 'debugger' ? app.debugger.heatmap : app.heatmap).currentLayout!.matrix;
  }, which);
  return { x: m.x + ((col + 0.5) * m.w) / cols, y: m.y + ((row + 0.5) * m.h) / rows };
}

async function inspect(workbench: Workbench, file: string, text: string): Promise<Webview> {
  // From a clean editor area: an earlier test may have left the file open in two groups (the panel's too), where
  // the driver's selection would land in the other one.
  await workbench.runCommand('View: Close All Editors');
  await workbench.openFile(file);
  await workbench.selectText(text);
  await workbench.runCommand('Attention Inspector: Inspect Selection');
  const panel = await workbench.webviewFrame(60_000);
  return panel;
}

describe('the inspector panel in VS Code (code-server)', function () {
  const session = useWorkbench({
    folder: 'examples',
    files: { 'hostile.md': `# Hostile text\n\n${HOSTILE}\n` },
    settings: { 'attentionInspector.heads': HEADS, 'attentionInspector.dModel': 64, 'attentionInspector.seed': 0 },
  });

  it('inspects a Chinese sentence: one non-blank heatmap per head, and the hover names the tokens', async function () {
    const workbench = session.workbench;
    const tokens = await expectedTokens(CHINESE);
    const panel = await inspect(workbench, 'hello.md', CHINESE);
    await panel.waitForText(`${tokens.length} tokens`, 60_000);
    const pixels = await thumbnailPixels(panel);
    assert.equal(pixels.count, HEADS, 'one thumbnail per head (1 layer × 4 heads)');
    for (const [i, h] of pixels.heads.entries()) {
      assert.ok(h.nonBackground > 0.5, `head ${i}: only ${(h.nonBackground * 100).toFixed(0)}% of its pixels differ from the background`);
      assert.ok(h.colours >= 4, `head ${i}: ${h.colours} colours`);
    }
    // Open head 2 large and hover the cell (query 1, key 3).
    await panel.locator('button.thumb[data-layer="0"][data-head="2"]').click();
    await panel.locator('.detail canvas.heatmap-canvas').waitFor();
    const at = await cellCentre(panel, 'head', 1, 3, tokens.length, tokens.length);
    await panel.locator('.detail canvas.heatmap-canvas').hover({ position: at });
    const tip = await panel.locator('#ai-tooltip').innerText();
    assert.match(tip, new RegExp(`Query 1 “${tokens[1]}” → key 3 “${tokens[3]}”`));
    assert.match(tip, /weight 0\.\d+/);
    await panel.screenshot('panel-chinese-head');
  });

  it('inspects an English sentence and shows query and key tokens on hover, in the grid and the heatmap', async function () {
    const workbench = session.workbench;
    const tokens = await expectedTokens(ENGLISH);
    const panel = await inspect(workbench, 'hello.md', ENGLISH);
    await panel.waitForText(`${tokens.length} tokens`, 60_000);
    assert.equal((await thumbnailPixels(panel)).count, HEADS);
    await panel.locator('button.thumb[data-layer="0"][data-head="1"]').hover();
    assert.match(await panel.locator('#ai-tooltip').innerText(), /Layer 0 · head 1/);
    await panel.locator('button.thumb[data-layer="0"][data-head="1"]').click();
    await panel.waitForText('Layer 0 · head 1');
    const at = await cellCentre(panel, 'head', 4, 1, tokens.length, tokens.length);
    await panel.locator('.detail canvas.heatmap-canvas').hover({ position: at });
    assert.match(await panel.locator('#ai-tooltip').innerText(), new RegExp(`Query 4 “${tokens[4]}” → key 1 “${tokens[1]}”`));
    // The keyboard cursor: the first arrow key puts it on the first cell, the next ones move it, and the
    // screen-reader announcement follows.
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight']) await panel.locator('.detail canvas.heatmap-canvas').press(key);
    assert.match(await panel.locator('.detail .heatmap .sr-only').innerText(), new RegExp(`Query 1 “${tokens[1]}” → key 1 “${tokens[1]}”`));
    await panel.locator('button.sub-tab[data-view="lines"]').click();
    await panel.locator('.lines-canvas').waitFor();
    await panel.screenshot('panel-english-lines');
    await panel.locator('button.sub-tab[data-view="heatmap"]').click();
    await panel.screenshot('panel-english-head');
  });

  it('steps through the debugger and warns when the softmax runs over dim -2', async function () {
    const workbench = session.workbench;
    await workbench.runCommand('Attention Inspector: Open Debugger');
    const panel = await workbench.webviewFrame();
    await panel.waitForText('scores = Q · Kᵀ', 60_000);
    await panel.waitForText('No problems found with these switches.');
    const formulas = [
      /^scores = Q · Kᵀ$/,
      /^scaled = scores × 0\.25 \(1\/√d_k = 1\/√16\)$/,
      /^masked = scaled \+ mask$/,
      /^weights = softmax\(masked, dim=-1\)$/,
      /^output = weights · V$/,
    ];
    for (let step = 0; step < formulas.length; step++) {
      if (step > 0) await panel.locator('button[aria-label="Next step"]').click();
      assert.match((await panel.locator('.formula').innerText()).trim(), formulas[step], `step ${step + 1}`);
      assert.match(await panel.locator('.shape').innerText(), /\(\d+, \d+\)/);
    }
    // ← with the step tabs focused goes back one step.
    await panel.locator('.step-tab.active').press('ArrowLeft');
    assert.match((await panel.locator('.formula').innerText()).trim(), formulas[3]);
    await panel.locator('#sw-dim').selectOption('-2');
    await panel.waitForText('Rows do not sum to 1');
    await panel.waitForText('dim=-2');
    assert.match(await panel.locator('[data-warning="rows-not-normalized"]').innerText(), /softmax ran over dim -2 \(the queries\)/);
    assert.ok((await panel.locator('.stats-table .flag-bad').count()) > 0, 'the statistics flag the row sums');
    // Put the switch back: the warning goes away.
    await panel.locator('#sw-dim').selectOption('-1');
    await panel.waitForText('No problems found with these switches.');
    // Without the scale, head 0's scores (variance about d_k) saturate some rows.
    await panel.locator('#dbg-head').selectOption('0');
    await panel.locator('#sw-scale').selectOption('none');
    await panel.waitForText('Score variance too high');
    await panel.waitForText('Saturated (one-hot) rows');
    await panel.screenshot('panel-debugger-no-scale');
    await panel.locator('#sw-scale').selectOption('inv-sqrt-dk');
    await panel.locator('#sw-dim').selectOption('-2');
    await panel.waitForText('Rows do not sum to 1');
    await panel.screenshot('panel-debugger-softmax-dim');
  });

  it('keeps its state when hidden and shown again (the webview is re-created)', async function () {
    const workbench = session.workbench;
    // Its own state to keep: head 0, the softmax over dim -2 (whatever an earlier test left).
    await workbench.runCommand('Attention Inspector: Open Debugger');
    let panel = await workbench.webviewFrame(60_000);
    await panel.waitForText('Per-row statistics', 60_000);
    await panel.locator('#dbg-head').selectOption('0');
    await panel.locator('#sw-dim').selectOption('-2');
    await panel.waitForText('Rows do not sum to 1');
    const before = (await panel.locator('.formula').innerText()).trim();
    // Another editor in the panel's group hides it; going back re-creates the webview from its saved state.
    await panel.locator('.step-tab.active').click();
    await workbench.openFile('attention_bug.py');
    await workbench.runCommand('View: Open Previous Editor');
    panel = await workbench.webviewFrame();
    await panel.waitForText('Rows do not sum to 1', 60_000);
    assert.equal((await panel.locator('.formula').innerText()).trim(), before);
    assert.equal(await panel.locator('#sw-dim').inputValue(), '-2');
    assert.equal(await panel.locator('#dbg-head').inputValue(), '0');
  });

  it('exports the weights as CSV only where the user chose to save them', async function () {
    const workbench = session.workbench;
    const tokens = await expectedTokens(ENGLISH);
    const panel = await inspect(workbench, 'hello.md', ENGLISH);
    await panel.waitForText(`${tokens.length} tokens`, 60_000);
    await panel.locator('#mode-grid').click();
    await panel.locator('button.thumb[data-layer="0"][data-head="0"]').click();
    await panel.locator('.detail canvas.heatmap-canvas').waitFor();
    const target = join(workbench.folder, 'exported-weights.csv');
    // Cancelling the save dialog writes nothing.
    await panel.locator('button.export[aria-label="Export the current view as CSV"]').click();
    await cancelFileDialog(panel);
    assert.equal(existsSync(target), false);
    await panel.locator('button.export[aria-label="Export the current view as CSV"]').click();
    await answerFileDialogSettled(panel, target);
    await workbench.waitForNotification('Saved exported-weights.csv');
    const rows = readFileSync(target, 'utf8')
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    assert.deepEqual(rows[0], ['query\\key', ...tokens.map((t, i) => `${i}:${t}`)]);
    for (const row of rows.slice(1)) {
      const sum = row.slice(1).reduce((a, v) => a + Number(v), 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${row[0]} sums to ${sum}`);
    }
  });

  it('shows a hostile selection as text', async function () {
    const workbench = session.workbench;
    const tokens = await expectedTokens(HOSTILE);
    // selectLine, not selectText: the driver's find widget does not close on Escape after this text is typed
    // into it (seen with code-server 4.139.1); line 3 of hostile.md is exactly the hostile text.
    await workbench.openFile('hostile.md');
    await workbench.selectLine(3);
    assert.equal((await workbench.selection()).selected, HOSTILE.length);
    await workbench.runCommand('Attention Inspector: Inspect Selection');
    const panel = await workbench.webviewFrame(60_000);
    await panel.waitForText(`${tokens.length} tokens`, 60_000);
    await panel.locator('#mode-grid').click();
    await panel.locator('button.thumb[data-layer="0"][data-head="0"]').click();
    const at = await cellCentre(panel, 'head', 0, 1, tokens.length, tokens.length);
    await panel.locator('.detail canvas.heatmap-canvas').hover({ position: at });
    const tip = await panel.locator('#ai-tooltip').innerText();
    assert.ok(tip.includes(`Query 0 “${tokens[0]}” → key 1 “${tokens[1]}”`), tip);
    const dom = await panel.evaluate(
      () => ({
        imgs: document.querySelectorAll('img').length,
        pwned: document.body.dataset.pwned ?? null,
        csp: (globalThis as { attentionInspectorCspViolations?: string[] }).attentionInspectorCspViolations ?? ['(no list)'],
      }),
      undefined,
    );
    assert.deepEqual(dom, { imgs: 0, pwned: null, csp: [] });
    await panel.screenshot('panel-hostile-text');
  });

  it('loads a fixture checkpoint through Load Weights and shows its attention', async function () {
    const workbench = session.workbench;
    const panel = await inspect(workbench, 'hello.md', ENGLISH);
    await panel.waitForText('tokens', 60_000);
    await workbench.runCommand('Attention Inspector: Load Weights…');
    await answerFileDialogSettled(panel, join(repoRoot, 'test', 'fixtures', 'torch', 'mha_state_dict.pt'));
    // The file has no config.json and its shapes cannot tell the number of heads: the user is asked.
    assert.match(await workbench.pickQuickItem('4 heads'), /How many heads does mha_state_dict\.pt have\?/);
    await workbench.waitForNotification('Loaded mha_state_dict.pt', 60_000);
    const reloaded = await workbench.webviewFrame();
    await reloaded.waitForText('Attention layer mha_state_dict.pt (4 heads', 60_000);
    await reloaded.locator('#mode-grid').click();
    const pixels = await thumbnailPixels(reloaded);
    assert.equal(pixels.count, 4, 'the checkpoint has 1 layer × 4 heads (as chosen)');
    assert.ok(pixels.heads[0].nonBackground > 0.5);
    await reloaded.screenshot('panel-loaded-checkpoint');
    assert.deepEqual(await workbench.extensionHostErrors(), []);
  });

  it('comes back after a window reload, in the mode it was in (serializer + saved state)', async function () {
    const workbench = session.workbench;
    // Its own state to bring back: the hostile line inspected with whatever model is loaded (the checkpoint of the
    // test before, when it ran), in debugger mode at the softmax step, over dim -2.
    const tokens = await expectedTokens(HOSTILE);
    await workbench.openFile('hostile.md');
    await workbench.selectLine(3);
    await workbench.runCommand('Attention Inspector: Inspect Selection');
    const panel = await workbench.webviewFrame(60_000);
    await panel.waitForText(`${tokens.length} tokens`, 60_000);
    const model = (await panel.locator('h1.title').innerText()).trim();
    const shape = /\d+ layers × \d+ heads/.exec(await panel.text())?.[0];
    assert.ok(shape, 'the panel names the layers and heads');
    await panel.locator('#mode-debugger').click();
    await panel.waitForText('Per-row statistics');
    await panel.locator('button.step-tab').nth(3).click();
    await panel.locator('#sw-dim').selectOption('-2');
    await panel.waitForText('Rows do not sum to 1');
    await workbench.runCommand('Developer: Reload Window');
    const restored = await workbench.webviewFrame(120_000);
    // The engine's results do not survive a reload: the host repeats the inspection the panel showed, with the
    // model loaded last (a checkpoint is loaded again, with the heads chosen for it), and the panel shows it in
    // debugger mode again, with the switches and step it had.
    await restored.waitForText(`${tokens.length} tokens · ${shape}`, 120_000);
    await restored.waitForText(model, 60_000);
    await restored.waitForText('Per-row statistics', 60_000);
    assert.equal(await restored.locator('#mode-debugger').getAttribute('aria-selected'), 'true');
    assert.equal(await restored.locator('#sw-dim').inputValue(), '-2');
    assert.equal((await restored.locator('.formula').innerText()).trim(), 'weights = softmax(masked, dim=-2)');
    await restored.screenshot('panel-after-reload');
  });
});

/** What the panel's app says about the theme, and whether its codicon font loaded. */
function themeSeen(panel: Webview): Promise<{ kind: string; background: number[]; codiconFont: boolean; csp: string[] }> {
  return panel.evaluate(async () => {
    const app = (globalThis as unknown as { attentionInspector: { theme: { palette: { kind: string; background: number[] } } } }).attentionInspector;
    await document.fonts.ready;
    return {
      kind: app.theme.palette.kind,
      background: [...app.theme.palette.background],
      codiconFont: [...document.fonts].some((f) => f.family.replace(/["']/g, '') === 'codicon' && f.status === 'loaded'),
      csp: (globalThis as { attentionInspectorCspViolations?: string[] }).attentionInspectorCspViolations ?? ['(no list)'],
    };
  }, undefined);
}

for (const [theme, kind] of [
  ['Default Dark Modern', 'dark'],
  ['Default High Contrast', 'high-contrast'],
  ['Default Light Modern', 'light'],
] as const) {
  describe(`the inspector panel in the ${theme} theme`, function () {
    const session = useWorkbench({
      folder: 'examples',
      settings: { 'workbench.colorTheme': theme, 'attentionInspector.heads': HEADS, 'attentionInspector.dModel': 64 },
    });

    it('draws with the theme’s colours and loads its icons', async function () {
      const workbench = session.workbench;
      const panel = await inspect(workbench, 'hello.md', ENGLISH);
      await panel.waitForText('tokens', 60_000);
      const seen = await themeSeen(panel);
      assert.equal(seen.kind, kind);
      assert.equal(seen.codiconFont, true, 'the codicon font is loaded (font-src allows it)');
      assert.deepEqual(seen.csp, []);
      const pixels = await thumbnailPixels(panel);
      assert.equal(pixels.count, HEADS);
      for (const h of pixels.heads) assert.ok(h.nonBackground > 0.5 && h.colours >= 4);
      await panel.locator('button.thumb[data-layer="0"][data-head="0"]').click();
      await panel.locator('.detail canvas.heatmap-canvas').waitFor();
      await panel.screenshot(`panel-theme-${kind}`);
    });
  });
}
