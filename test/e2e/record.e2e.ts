// Recording attention from the user's own program in a real VS Code (code-server + Chromium): open a buggy
// script, run "Record Attention (Run File)" with Debian's torch (/usr/bin/python3, installed by
// scripts/setup-torch.sh), see the runtime diagnostic at the line the bug is on (found in the file's own
// text), then open the recorded call in the panel's debugger on the captured tensors.
import assert from 'node:assert/strict';
import type { ProblemRow, Workbench } from './driver/workbench';
import { useWorkbench } from './session';

const SOURCE = 'attention-inspector (runtime)';
const FILE = 'padding_bug.py';
const PROGRAM = `import math
import torch
import torch.nn.functional as F

torch.manual_seed(0)
emb = torch.nn.Embedding(20, 16, padding_idx=0)
ids = torch.tensor([[5, 6, 7, 0, 0], [3, 4, 9, 8, 2]])
x = emb(ids)
keep = ids != 0  # True = a real token
scores = x @ x.transpose(-2, -1) / math.sqrt(16)
scores = scores.masked_fill(keep[:, None, :], float("-inf"))
out = F.softmax(scores, dim=-1) @ x
print("done", tuple(out.shape))
`;
const BUG_LINE = PROGRAM.split('\n').findIndex((l) => l.includes('masked_fill(keep')) + 1;
const BUG_COLUMN = PROGRAM.split('\n')[BUG_LINE - 1].indexOf('scores.masked_fill') + 1;

/**
 * Waits until the palette lists `title`: its `when` clause (a Python editor, a trusted workspace) is evaluated
 * by the workbench after the editor opens, and the palette can be asked before that has happened.
 */
async function waitForPaletteCommand(wb: Workbench, title: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let listed: string[] = [];
  while (Date.now() < until) {
    listed = await wb.commandTitles(title);
    if (listed.includes(title)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`the palette never listed "${title}" (last: ${listed.join(' | ') || 'nothing'})`);
}

describe('recording attention from a running program', function () {
  const session = useWorkbench({ files: { [FILE]: PROGRAM }, settings: { 'attentionInspector.python': '/usr/bin/python3' } });

  it('records the script and shows the runtime diagnostic at the line of the mask', async function () {
    this.timeout(240_000);
    const wb = session.workbench;
    await wb.openFile(FILE);
    await waitForPaletteCommand(wb, 'Attention Inspector: Record Attention (Run File)');
    await wb.runCommand('Attention Inspector: Record Attention (Run File)');
    const rows = await wb.waitForProblems((r: ProblemRow[]) => r.some((p) => p.source === SOURCE), 'a runtime finding', 180_000);
    const runtime = rows.filter((p) => p.source === SOURCE);
    assert.equal(runtime.length, 1, JSON.stringify(runtime));
    const [finding] = runtime;
    assert.equal(finding.file, FILE);
    assert.match(finding.code ?? '', /^ATT002/);
    assert.equal(finding.line, BUG_LINE);
    assert.equal(finding.column, BUG_COLUMN);
    assert.equal(finding.severity, 'error');
    assert.match(finding.message, /padding mask is inverted.*positions 3–4 of batch element 0, which hold padding id 0/);
    await wb.waitForNotification(/Recorded 1 attention call\(s\); 1 runtime finding\(s\)\./);
  });

  it('opens the recorded call in the debugger on the captured tensors', async function () {
    this.timeout(120_000);
    const wb = session.workbench;
    await waitForPaletteCommand(wb, 'Attention Inspector: Open Recorded Call');
    await wb.runCommand('Attention Inspector: Open Recorded Call');
    const panel = await wb.webviewFrame(60_000);
    await panel.waitForText(/Recorded: manual \(padding_bug\.py:12\)/, 30_000);
    const shot = await panel.screenshot('record-debugger');
    assert.ok(shot.length > 0);
  });

  it('clears the runtime diagnostic when the file changes', async function () {
    const wb = session.workbench;
    await wb.openFile(FILE);
    await wb.goTo(1, 1);
    await wb.typeText('# edited\n');
    await wb.waitForProblems((r: ProblemRow[]) => !r.some((p) => p.source === SOURCE), 'the runtime finding gone', 30_000);
  });
});
