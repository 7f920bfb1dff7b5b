// The tiny trained model (media/models/tiny-bilingual, docs/tiny-model.md) in the real panel, the way a learner
// gets to it: the status bar's model menu → Use the Tiny Trained Model, Inspect Selection on a sentence said
// twice, layer 1 head 2 opened large. The panel must show the shipped model's own weights for that head (the
// engine's session run in this process on the same files, to 1e-5), and the head must do what the document
// says: in the second sentence most rows put their largest weight on the token after the same token in the
// first (induction). The window's screenshot (dark theme) is test-artifacts/e2e/tiny-model-panel.png, the
// picture in docs/images/tiny-model-panel.png.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InspectSession, loadCheckpoint } from '../../src/models/session';
import type { Webview } from './driver/workbench';
import { useWorkbench } from './session';
import { repoRoot } from './support/paths';

const SENTENCE = 'A little bird sang in the tall tree.';
const TWICE = `${SENTENCE} ${SENTENCE}`;
const LAYER = 1;
const HEAD = 2;
const TINY = join(repoRoot, 'media', 'models', 'tiny-bilingual');

/** The shipped model's run on `text` in this process: its name, tokens and the weights of LAYER/HEAD. */
async function expected(text: string): Promise<{ name: string; tokens: string[]; weights: Float32Array }> {
  const session = new InspectSession(loadCheckpoint);
  const info = await session.configure({
    kind: 'file',
    fileName: 'tiny-bilingual/model.safetensors',
    bytes: new Uint8Array(readFileSync(join(TINY, 'model.safetensors'))),
    configJson: readFileSync(join(TINY, 'config.json'), 'utf8'),
    tokenizerJson: readFileSync(join(TINY, 'tokenizer.json'), 'utf8'),
  });
  const run = await session.run({ text, maxTokens: 128 });
  return { name: info.name, tokens: run.tokens.map((t) => t.display), weights: session.attention({ runId: run.runId, layer: LAYER, head: HEAD }).data };
}

/** The weights of the head the panel shows large (its rows × cols matrix, row-major). */
function shownWeights(panel: Webview): Promise<{ rows: number; cols: number; values: number[] }> {
  return panel.evaluate(() => {
    const app = (globalThis as unknown as { attentionInspector: { headMatrix?: { rows: number; cols: number; block: number; values: Float32Array } } })
      .attentionInspector;
    const m = app.headMatrix;
    if (!m) throw new Error('the panel holds no head matrix');
    if (m.block !== 1) throw new Error(`the panel shows blocks of ${m.block} tokens`);
    return { rows: m.rows, cols: m.cols, values: [...m.values] };
  }, undefined);
}

describe('the tiny trained model in the panel', function () {
  this.timeout(240_000);
  const session = useWorkbench({
    folder: 'examples',
    files: { 'said-twice.md': `# A sentence said twice\n\n${TWICE}\n` },
    settings: { 'workbench.colorTheme': 'Default Dark Modern' },
  });

  it('status bar → Use the Tiny Trained Model, a sentence said twice, layer 1 head 2: the engine’s weights, an induction head', async function () {
    const workbench = session.workbench;
    const want = await expected(TWICE);
    const half = want.tokens.length / 2;
    assert.ok(Number.isInteger(half) && want.tokens.slice(1, half).join('') === want.tokens.slice(half + 1).join(''), `the tokens: ${want.tokens.join('|')}`);

    // The model's item appears in the status bar once the engine has a model: a first inspection (seeded).
    await workbench.openFile('said-twice.md');
    await workbench.selectText(TWICE);
    await workbench.runCommand('Attention Inspector: Inspect Selection');
    await workbench.webviewFrame(60_000);
    assert.match(await workbench.clickStatusBarItem('Seeded'), /Seeded/);
    await workbench.pickQuickItem('Use the Tiny Trained Model');
    await workbench.waitForNotification(/^Loaded tiny-bilingual\/model\.safetensors: /, 60_000);

    // Inspect the sentence with it, from the model's menu (its title names the model).
    await workbench.runCommand('View: Close All Editors');
    await workbench.openFile('said-twice.md');
    await workbench.selectText(TWICE);
    assert.equal(await workbench.clickStatusBarItem(want.name), want.name, 'the status bar names the model');
    assert.equal(await workbench.pickQuickItem('Inspect Selection'), want.name, "the model menu's title");

    const panel = await workbench.webviewFrame(60_000);
    await panel.waitForText(`${want.tokens.length} tokens`, 60_000);
    await panel.locator(`button.thumb[data-layer="${LAYER}"][data-head="${HEAD}"]`).click();
    await panel.waitForText(`Layer ${LAYER} · head ${HEAD}`);
    await panel.locator('.detail canvas.heatmap-canvas').waitFor();

    const T = want.tokens.length;
    let shown = await shownWeights(panel);
    for (let i = 0; i < 100 && shown.values.length !== T * T; i++) {
      await new Promise((r) => setTimeout(r, 200));
      shown = await shownWeights(panel);
    }
    assert.deepEqual([shown.rows, shown.cols], [T, T]);
    let worst = 0;
    for (let i = 0; i < T * T; i++) worst = Math.max(worst, Math.abs(shown.values[i] - want.weights[i]));
    assert.ok(worst < 1e-5, `the panel's weights differ from the engine's by ${worst}`);

    // Rows of the second sentence (after its first token): where is each row's largest weight?
    const argmax = (q: number) => {
      let best = 0;
      for (let k = 1; k <= q; k++) if (shown.values[q * T + k] > shown.values[q * T + best]) best = k;
      return best;
    };
    const rows = Array.from({ length: half - 1 }, (_, i) => half + 1 + i);
    const induced = rows.filter((q) => argmax(q) === q - half + 1);
    assert.ok(
      induced.length * 2 >= rows.length,
      `only ${induced.length} of ${rows.length} rows look at the token after the earlier occurrence: ${rows.map((q) => `${want.tokens[q]}→${want.tokens[argmax(q)]}`).join(' ')}`,
    );
    // The picture: no toast, no side bar, the whole heatmap in view (the heads grid above it as far as it fits).
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.runCommand('View: Close Primary Side Bar');
    await panel.evaluate(() => document.querySelector('.detail canvas.heatmap-canvas')!.scrollIntoView({ block: 'end' }), undefined);
    await workbench.screenshot('tiny-model-panel');
    await panel.screenshot('tiny-model-panel-only');
  });
});
