// Recording attention from the user's own program in a real VS Code (code-server + Chromium): open a buggy
// script, run "Record Attention (Run File)" with Debian's torch (/usr/bin/python3, installed by
// scripts/setup-torch.sh), see the runtime diagnostic at the line the bug is on (found in the file's own
// text), then open the recorded call in the panel's debugger on the captured tensors. The second suite records
// a program with an HF tokenizer in the Debian sid root (torch 2.14 + transformers, scripts/setup-torch-sid.sh):
// token text on the axes, the batch element picker, each debugger step linked to its line, the user's own tensor
// beside the reference at each step (the missing scale visible as a difference), and the static finding the run
// confirms.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { ProblemRow, Workbench } from './driver/workbench';
import { useWorkbench } from './session';
import { repoRoot } from './support/paths';

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
    this.timeout(360_000);
    const wb = session.workbench;
    await ensureRecorded(wb, FILE, (rows) => rows.some((p) => p.source === SOURCE), 'a runtime finding');
    await waitForPaletteCommand(wb, 'Attention Inspector: Open Recorded Call');
    await wb.runCommand('Attention Inspector: Open Recorded Call');
    const panel = await wb.webviewFrame(60_000);
    await panel.waitForText(/Recorded: manual \(padding_bug\.py:12\)/, 30_000);
    const shot = await panel.screenshot('record-debugger');
    assert.ok(shot.length > 0);
  });

  it('clears the runtime diagnostic when the file changes', async function () {
    this.timeout(300_000);
    const wb = session.workbench;
    await ensureRecorded(wb, FILE, (rows) => rows.some((p) => p.source === SOURCE), 'a runtime finding');
    await wb.openFile(FILE);
    await wb.goTo(1, 1);
    await wb.typeText('# edited\n');
    await wb.waitForProblems((r: ProblemRow[]) => !r.some((p) => p.source === SOURCE), 'the runtime finding gone', 30_000);
  });
});

const TOKENS_FILE = 'tokens_attention.py';
const TOKENS_PROGRAM = `import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

words = ["[PAD]", "[UNK]", "the", "cat", "sat", "on", "mat", "a", "dog", "ran", "home"]
backend = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
backend.pre_tokenizer = pre_tokenizers.Whitespace()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="[PAD]")

torch.manual_seed(0)
batch = tokenizer(["the cat sat on the mat", "a dog ran home"], padding=True, return_tensors="pt")
embed = torch.nn.Embedding(len(words), 16, padding_idx=0)
x = embed(batch["input_ids"])
q, k, v = torch.nn.Linear(16, 48)(x).chunk(3, dim=-1)
scores = q @ k.transpose(-2, -1)
scores = scores.masked_fill(batch["attention_mask"][:, None, :] == 0, float("-inf"))
weights = torch.softmax(scores, dim=-1)
out = weights @ v
print("done", tuple(out.shape))
`;
const lineOf = (text: string) => TOKENS_PROGRAM.split('\n').findIndex((l) => l.startsWith(text)) + 1;
const SCORES_LINE = lineOf('scores = q @ k');
const SOFTMAX_LINE = lineOf('weights = torch.softmax');

describe('a recorded call with an HF tokenizer, in the panel (torch 2.14, Debian sid root)', function () {
  before(function () {
    this.timeout(30 * 60_000);
    // The sid root is built once (about 15 minutes) and reused; npm test builds it in test:record before this tier.
    execFileSync('bash', [join(repoRoot, 'scripts', 'setup-torch-sid.sh')], { stdio: 'inherit' });
  });
  const session = useWorkbench({
    files: { [TOKENS_FILE]: TOKENS_PROGRAM },
    settings: { 'attentionInspector.python': join(repoRoot, '.cache', 'torch-sid', 'bin', 'python3') },
  });

  it('confirms the static finding the run reproduces', async function () {
    this.timeout(300_000);
    const wb = session.workbench;
    await wb.openFile(TOKENS_FILE);
    const isStatic = (p: ProblemRow) => p.source === 'attention-inspector' && /^ATT003/.test(p.code ?? '');
    await wb.waitForProblems((r) => r.some(isStatic), 'the linter’s ATT003', 60_000);
    await waitForPaletteCommand(wb, 'Attention Inspector: Record Attention (Run File)');
    await wb.runCommand('Attention Inspector: Record Attention (Run File)');
    const rows = await wb.waitForProblems(
      (r) => r.some((p) => p.source === SOURCE) && r.some((p) => isStatic(p) && /confirmed by the recorded run/.test(p.message)),
      'the runtime ATT003 and the confirmed static one',
      240_000,
    );
    const runtime = rows.filter((p) => p.source === SOURCE);
    assert.deepEqual(
      runtime.map((p) => `${p.line}:${(p.code ?? '').slice(0, 6)}`),
      [`${SCORES_LINE}:ATT003`],
    );
    const confirmed = rows.find(isStatic)!;
    assert.equal(confirmed.line, SOFTMAX_LINE);
    assert.match(confirmed.message, /\(confirmed by the recorded run, call #0\)$/);
  });

  it('shows the tokens’ text, follows the batch picker and links each step to its line', async function () {
    this.timeout(480_000);
    const wb = session.workbench;
    await ensureRecorded(wb, TOKENS_FILE, (rows) => rows.some((p) => p.source === SOURCE), 'the runtime ATT003');
    await waitForPaletteCommand(wb, 'Attention Inspector: Open Recorded Call');
    await wb.runCommand('Attention Inspector: Open Recorded Call');
    const panel = await wb.webviewFrame(60_000);
    await panel.waitForText(/Recorded: manual \(tokens_attention\.py:\d+\)/, 60_000);
    // The per-row statistics name each query by its token.
    await panel.waitForText(/\bcat\b[\s\S]*\bmat\b/, 60_000);
    assert.doesNotMatch(await panel.text(), /\bdog\b/);
    const link = panel.locator('button.step-source');
    await link.waitFor();
    assert.equal((await link.innerText()).trim(), `${TOKENS_FILE}:${SCORES_LINE}`);
    await link.click();
    await poll(async () => ((await wb.selection()).line === SCORES_LINE ? true : undefined), 'the editor at the scores line');
    // The user's own tensor beside the reference at each step: q·kᵀ agrees; the program never scales its
    // scores, so at "× scale" its tensor is the raw scores and differs from the reference's (d_k = 16: by 3/4 of
    // each score), and so do its weights. Batch element 0 has 6 tokens and no padding: 36 cells.
    const own = panel.locator('.own-step');
    await panel.waitForText(/Reference: the engine on your captured q, k, v and mask/, 30_000);
    await panel.waitForText(new RegExp(`Your q·kᵀ, as your matmul gave it \\(${TOKENS_FILE.replace('.', '\\.')}:${SCORES_LINE}\\)`), 30_000);
    assert.match(await own.innerText(), /Agrees with the reference: max \|yours − reference\| = /);
    await panel.locator('button.step-tab').nth(1).click();
    await panel.waitForText(/Your scores at this step: q·kᵀ, never scaled in your code/, 30_000);
    const scaleText = await own.innerText();
    const scaleDiff =
      /Differs from the reference in (\d+) of 36 cells; max \|yours − reference\| = ([\d.]+)\. First at query 0 “the” → key 0 “the”: yours (−?[\d.]+), reference (−?[\d.]+)\./.exec(
        scaleText,
      );
    assert.ok(scaleDiff, scaleText);
    assert.ok(Number(scaleDiff[1]) >= 30, scaleText);
    const num = (x: string) => Number(x.replace('−', '-'));
    // The reference is the user's score × 1/√16.
    assert.ok(Math.abs(num(scaleDiff[4]) - num(scaleDiff[3]) / 4) < 1e-3 * Math.max(1, Math.abs(num(scaleDiff[3]))), scaleText);
    await panel.locator('button.step-tab').nth(3).click();
    await panel.waitForText(`${TOKENS_FILE}:${SOFTMAX_LINE}`, 30_000);
    await panel.waitForText(/Your weights \(tokens_attention\.py:\d+\)/, 30_000);
    assert.match(await own.innerText(), /Differs from the reference in \d+ of 36 cells/);
    // The README's picture (docs/images/recorded-call.png): the editor and the panel with room to show the step.
    await wb.runCommand('View: Hide Panel');
    await wb.runCommand('View: Toggle Primary Side Bar Visibility');
    // With room for two matrices, the user's weights stand beside the reference's.
    await poll(async () => ((await panel.locator('.step-matrices.side-by-side').count()) === 1 ? true : undefined), 'the two matrices side by side');
    await wb.screenshot('recorded-call');
    await panel.screenshot('recorded-call-panel');

    await panel.locator('#recorded-batch').selectOption('1');
    await panel.waitForText(/\bdog\b[\s\S]*\bhome\b/, 60_000);
    assert.doesNotMatch(await panel.text(), /\bcat\b/);
    assert.equal(await panel.locator('#recorded-batch').inputValue(), '1');
    await panel.waitForText(`${TOKENS_FILE}:${SOFTMAX_LINE}`, 30_000); // the same step, on the other sequence
  });

  it('shows the linter’s finding as it was once the file changes', async function () {
    this.timeout(360_000);
    const wb = session.workbench;
    await ensureRecorded(wb, TOKENS_FILE, (rows) => rows.some((p) => p.source === SOURCE), 'the runtime ATT003');
    await wb.openFile(TOKENS_FILE);
    await wb.goTo(1, 1);
    await wb.typeText('# edited\n');
    await wb.waitForProblems(
      (r) =>
        !r.some((p) => p.source === SOURCE) &&
        r.some((p) => p.source === 'attention-inspector' && /^ATT003/.test(p.code ?? '') && !/confirmed/.test(p.message)),
      'the static ATT003 without the run’s confirmation',
      60_000,
    );
  });
});

/**
 * Records `file` unless the Problems view already shows what a recording of it gives (`recorded`): a test that
 * needs a recording makes one when it runs alone, and reuses the one an earlier test made in the same session.
 */
async function ensureRecorded(wb: Workbench, file: string, recorded: (rows: ProblemRow[]) => boolean, what: string): Promise<void> {
  await wb.openFile(file);
  if (recorded(await wb.problems())) return;
  await waitForPaletteCommand(wb, 'Attention Inspector: Record Attention (Run File)');
  await wb.runCommand('Attention Inspector: Record Attention (Run File)');
  await wb.waitForProblems(recorded, what, 240_000);
}

/** Polls `check` every 250 ms until it returns a value (at most 30 s). */
async function poll<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}
