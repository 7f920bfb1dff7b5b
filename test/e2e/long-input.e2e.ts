// A long selection in a real VS Code (code-server + Chromium): with maxTokens lowered to 1000, inspecting
// 3000 tokens asks first; "Run Anyway" runs it without sending any weights; the opened head is a
// block-averaged 1000×1000 view that says so, whose hover names the token ranges of the cell and shows the
// same mean the engine computes in this process; the lines view and the debugger say the run is too long.
import assert from 'node:assert/strict';
import { InspectSession } from '../../src/models/session';
import { useWorkbench } from './session';
import { clickNotificationButton } from './support/dialogs';

const HEADS = 4;
const TOKENS = 3000;
const MAX_TOKENS = 1000;
const ENGLISH = 'The cat sat on the mat because it was tired.';
/** One line of 3000 words (Inspect Selection with nothing selected takes the cursor's line). */
const LONG_LINE = Array.from({ length: TOKENS }, (_, i) => `word${(i * 37) % 701}`).join(' ');
const SEEDED = { kind: 'seeded' as const, seed: 0, heads: HEADS, dModel: 64 };

describe('a long selection in the inspector panel (code-server)', function () {
  const session = useWorkbench({
    folder: 'examples',
    files: { 'long.md': `${LONG_LINE}\n` },
    settings: { 'attentionInspector.heads': HEADS, 'attentionInspector.dModel': 64, 'attentionInspector.seed': 0, 'attentionInspector.maxTokens': MAX_TOKENS },
  });

  it('asks before running 3000 tokens, runs anyway, and shows a head as 1000×1000 block means', async function () {
    this.timeout(600_000);
    const workbench = session.workbench;
    // What the engine computes for the same text, in this process: the tokens and head 1's block means.
    const engine = new InspectSession();
    await engine.configure(SEEDED);
    const expected = await engine.run({ text: LONG_LINE, maxTokens: 5000 });
    assert.equal(expected.seqLen, TOKENS);
    const view = engine.attention({ runId: expected.runId, layer: 0, head: 1, downsample: 1024 });
    assert.deepEqual([view.rows, view.cols, view.block], [1000, 1000, 3]);

    // A short inspection first opens the panel (its page is how the toast's button is reached).
    await workbench.openFile('hello.md');
    await workbench.selectText(ENGLISH);
    await workbench.runCommand('Attention Inspector: Inspect Selection');
    let panel = await workbench.webviewFrame(60_000);
    await panel.waitForText('11 tokens', 60_000);

    await workbench.openFile('long.md');
    await workbench.goTo(1, 1);
    await workbench.runCommand('Attention Inspector: Inspect Selection');
    const ask = await workbench.waitForNotification('The selection is long', 60_000);
    // Its size as the engine counted it: tokens, then characters and lines.
    assert.match(
      ask.message,
      new RegExp(
        `The selection is long: ${TOKENS.toLocaleString('en')} tokens \\([0-9,]+ characters on 1 lines\\), over the limit of 1000 tokens \\(the attentionInspector.maxTokens setting\\)`,
      ),
    );
    assert.match(ask.message, /Inspecting up to 16384 tokens may take a while; the heads of a long run are shown as block averages/);
    assert.deepEqual(ask.buttons.filter((b) => b === 'Run Anyway' || b === 'Open Settings').sort(), ['Open Settings', 'Run Anyway']);
    await clickNotificationButton(panel, 'The selection is long', 'Run Anyway');

    panel = await workbench.webviewFrame(60_000);
    await panel.waitForText(`${TOKENS} tokens`, 300_000);
    const grid = await panel.evaluate(() => {
      const app = (globalThis as unknown as { attentionInspector: { grid: { headCount: number } } }).attentionInspector;
      const canvases = [...document.querySelectorAll<HTMLCanvasElement>('canvas.thumb-canvas')];
      const colours = canvases.map((c) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        const seen = new Set<number>();
        for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
        return seen.size;
      });
      return { heads: app.grid.headCount, colours };
    }, undefined);
    assert.equal(grid.heads, HEADS);
    for (const [i, n] of grid.colours.entries()) assert.ok(n >= 4, `thumbnail ${i} has ${n} colours`);

    // Open head 1: the panel asks for a downsampled head and says what each cell is.
    await panel.locator('button.thumb[data-layer="0"][data-head="1"]').click();
    await panel.waitForText('Showing 3000 tokens as 1000×1000 blocks: each cell is the mean of 3×3 weights.', 120_000);
    const canvas = panel.locator('.detail canvas.heatmap-canvas');
    await canvas.waitFor();
    const m = await panel.evaluate(() => {
      const app = (globalThis as unknown as { attentionInspector: { heatmap: { currentLayout?: { matrix: { x: number; y: number; w: number; h: number } } } } })
        .attentionInspector;
      return app.heatmap.currentLayout!.matrix;
    }, undefined);
    // Hover a few cells; each tooltip names a 3×3 range of tokens and shows the engine's mean for that cell.
    for (const [fy, fx] of [
      [0.1, 0.2],
      [0.55, 0.3],
      [0.9, 0.85],
    ]) {
      await canvas.hover({ position: { x: Math.round(m.x + fx * m.w), y: Math.round(m.y + fy * m.h) } });
      const tip = await panel.locator('#ai-tooltip').innerText();
      const ranges = /Queries (\d+)–(\d+) → keys (\d+)–(\d+)/.exec(tip);
      assert.ok(ranges, `the tooltip names token ranges: ${tip}`);
      const [q0, q1, k0, k1] = ranges.slice(1).map(Number);
      assert.ok(q0 % 3 === 0 && q1 === q0 + 2 && k0 % 3 === 0 && k1 === k0 + 2, tip);
      assert.match(
        tip,
        new RegExp(`“${expected.tokens[q0].display}” … “${expected.tokens[q1].display}” → “${expected.tokens[k0].display}” … “${expected.tokens[k1].display}”`),
      );
      const shown = /mean weight ([0-9.e−-]+) over 3×3 weights/.exec(tip);
      assert.ok(shown, tip);
      const value = Number(shown[1].replace('−', '-'));
      const cell = view.data[(q0 / 3) * view.cols + k0 / 3];
      assert.ok(Math.abs(value - cell) <= 1e-3 * Math.abs(cell) + 1e-9, `cell (${q0 / 3}, ${k0 / 3}) shows ${value}, the engine computes ${cell}`);
    }
    await panel.screenshot('long-input-head-blocks');

    // The lines view and the debugger say the run is too long for them.
    await panel.locator('button.sub-tab[data-view="lines"]').click();
    await panel.waitForText('The lines view draws a line for every weight: 3000 tokens are too many for it (at most 1024). Use the heatmap.');
    await panel.locator('#mode-debugger').click();
    await panel.waitForText('The step-through debugger shows at most 1024 tokens; this run has 3000. Inspect a shorter selection to step through it.');
    assert.equal(await panel.locator('.step-panel').isVisible(), false, 'no steps are drawn');
    await panel.screenshot('long-input-debugger');
  });
});
