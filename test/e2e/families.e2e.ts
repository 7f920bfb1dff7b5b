// Today's model folders in a real VS Code (code-server + Chromium): Load Weights on the Llama and Gemma 2
// folders of test/fixtures/modern (picked through their config.json), the heads grid saying which kv head each
// query head shares, and the debugger's model steps: a RoPE head stepped through with the rotation switched off
// and on again, and Gemma 2's soft-cap switched off. The numbers checked come from the panel's own trace.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Webview, Workbench } from './driver/workbench';
import { useWorkbench } from './session';
import { answerFileDialogSettled } from './support/dialogs';
import { repoRoot } from './support/paths';

const FOLDER = join(repoRoot, 'test', 'fixtures', 'modern');

interface TraceDigest {
  rope?: boolean;
  softcap?: number;
  /** Sum of the (L, S) scores and of the probabilities of row 2: enough to tell two traces apart. */
  scoreSum: number;
  probsRow: number[];
}

/** The debugger's current trace, read from the panel's app object. */
function traceDigest(panel: Webview): Promise<TraceDigest | undefined> {
  return panel.evaluate(() => {
    type Trace = { S: number; rope?: { applied: boolean }; softcap?: { cap: number }; scores: { data: Float32Array }; probs: { data: Float32Array } };
    const app = (globalThis as unknown as { attentionInspector: { debugger: { trace?: Trace } } }).attentionInspector;
    const t = app.debugger.trace;
    if (!t) return undefined;
    let s = 0;
    for (const x of t.scores.data) s += x;
    return { rope: t.rope?.applied, softcap: t.softcap?.cap, scoreSum: s, probsRow: Array.from(t.probs.data.subarray(2 * t.S, 3 * t.S)) };
  }, undefined);
}

/** Waits until the debugger's trace satisfies `accept`. */
async function waitForTrace(panel: Webview, accept: (t: TraceDigest) => boolean, what: string): Promise<TraceDigest> {
  let last: TraceDigest | undefined;
  for (let i = 0; i < 300; i++) {
    last = await traceDigest(panel);
    if (last && accept(last)) return last;
    await panel.locator('body').page().waitForTimeout(200);
  }
  throw new Error(`the debugger's trace never showed ${what} (last: ${JSON.stringify(last)})`);
}

async function loadFolder(
  panel: Webview,
  family: string,
  runCommand: (title: string) => Promise<void>,
  waitForNotification: (m: string, t: number) => Promise<unknown>,
): Promise<void> {
  await runCommand('Attention Inspector: Load Weights…');
  await answerFileDialogSettled(panel, join(FOLDER, family, 'config.json'));
  await waitForNotification(`Loaded ${family}`, 120_000);
}

/** Inspects a line of the fixtures' README.md (with the model loaded so far); returns the panel. */
async function inspectReadme(workbench: Workbench): Promise<Webview> {
  await workbench.openFile('README.md');
  await workbench.selectText('Modern checkpoint families');
  await workbench.runCommand('Attention Inspector: Inspect Selection');
  return workbench.webviewFrame(60_000);
}

describe("today's model folders in VS Code (code-server)", function () {
  const session = useWorkbench({ folder: FOLDER });

  it('loads the Llama folder, shows which kv head each query head shares, and steps through a RoPE head with the rotation off and on', async function () {
    const workbench = session.workbench;
    const panel = await inspectReadme(workbench);
    await loadFolder(
      panel,
      'llama',
      (t) => workbench.runCommand(t),
      (m, t) => workbench.waitForNotification(m, t),
    );
    const grid = await workbench.webviewFrame();
    await grid.waitForText('llama (', 60_000); // the folder's name, not "Llama llama"
    await grid.locator('#mode-grid').click();
    await grid.waitForText('H3 · kv 1', 30_000);
    await grid.screenshot('families-llama-gqa-grid');
    await grid.locator('#mode-debugger').click();
    await grid.locator('#sw-rope').waitFor({ timeout: 30_000 });
    const on = await waitForTrace(grid, (t) => t.rope === true, 'RoPE applied');
    await grid.locator('#sw-rope').selectOption('off');
    const off = await waitForTrace(grid, (t) => t.rope === false, 'RoPE switched off');
    assert.notEqual(off.scoreSum, on.scoreSum, 'without the rotation the scores change');
    await grid.locator('#sw-rope').selectOption('on');
    const again = await waitForTrace(grid, (t) => t.rope === true, 'RoPE applied again');
    assert.equal(again.scoreSum, on.scoreSum);
    assert.deepEqual(again.probsRow, on.probsRow);
    await grid.screenshot('families-llama-debugger-rope');
    assert.deepEqual(await workbench.extensionHostErrors(), []);
  });

  it('loads the Gemma 2 folder and switches its attention soft-cap off in the debugger', async function () {
    const workbench = session.workbench;
    const panel = await inspectReadme(workbench); // whatever model an earlier test loaded: the folder replaces it
    await loadFolder(
      panel,
      'gemma2',
      (t) => workbench.runCommand(t),
      (m, t) => workbench.waitForNotification(m, t),
    );
    const view = await workbench.webviewFrame();
    await view.waitForText('gemma2 (', 60_000);
    await view.locator('#mode-debugger').click();
    await view.locator('#sw-softcap').waitFor({ timeout: 30_000 });
    const capped = await waitForTrace(view, (t) => t.softcap === 50 && t.rope === true, 'the soft-cap of 50 with RoPE');
    await view.locator('#sw-softcap').selectOption('off');
    const uncapped = await waitForTrace(view, (t) => t.softcap === undefined, 'no soft-cap');
    assert.equal(uncapped.rope, true);
    assert.ok(capped.probsRow.some((p, j) => Math.abs(p - uncapped.probsRow[j]) > 0) || capped.scoreSum !== uncapped.scoreSum, 'the cap changes the trace');
    await view.screenshot('families-gemma2-debugger-softcap');
    assert.deepEqual(await workbench.extensionHostErrors(), []);
  });
});
