// The linter in a real VS Code (code-server + Chromium), as its author specified it: diagnostics on a copy of
// examples/attention_bug.py with code links to the shipped rule pages, the rule's hover, the unsafe quick fix
// as the only change to the file (fix-all on save applies nothing), a `# noqa` quick fix, the severity and
// ignore settings, a notebook cell's diagnostic on the right cell, and a half-typed file with syntax errors.
// Expected positions are found in the files' own text (where the buggy argument is), rule names and
// severities come from the rules' metadata, and cells from the notebook's JSON: never from the editor.
// The tests run in order on one workbench, each on the state the previous ones left. What a lint publishes after
// an edit (a quick fix's, a typed line's) or on a newly opened file is waited for up to PUBLISH_MS: on the shared
// machine, with another code-server and a test tier beside, the extension host and the Problems view can be
// that far behind.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ruleByCode } from '../../src/lint/rules';
import type { ProblemRow, Workbench } from './driver/workbench';
import { useWorkbench } from './session';
import { repoRoot } from './support/paths';

const SOURCE = 'attention-inspector';
const BUG_FILE = 'attention_bug.py';
const PADDING_FILE = 'padding_masks.py';
const NOTEBOOK_FILE = 'attention_notebook.ipynb';
const HALF_TYPED_FILE = 'half_typed.py';
/** How long a diagnostic published after an edit (or on opening a file) may take to reach the Problems view under load. */
const PUBLISH_MS = 120_000;

/** A file being edited: one complete function (with a softmax over the query axis), the rest half-typed. */
const HALF_TYPED = `"""A module in the middle of an edit: one complete function, the rest half-typed."""
import math
import torch

def attention(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    weights = torch.softmax(scores, dim=-2)
    return weights @ v


def unfinished(q, k:
    return q +


weights = torch.softmax(q @ k.transpose(-2, -1), dim=
`;

const examples = join(repoRoot, 'examples');
const readExample = (name: string) => readFileSync(join(examples, name), 'utf8');

/** 1-based line and column of `needle` in `text`, searched from the first line containing `lineHint`. */
function positionOf(text: string, lineHint: string, needle: string): { line: number; column: number } {
  const lines = text.split('\n');
  const index = lines.findIndex((l) => l.includes(lineHint));
  assert.ok(index >= 0, `no line contains ${JSON.stringify(lineHint)}`);
  const column = lines[index].indexOf(needle);
  assert.ok(column >= 0, `line ${index + 1} (${JSON.stringify(lines[index])}) has no ${JSON.stringify(needle)}`);
  return { line: index + 1, column: column + 1 };
}

/** The rule page a code links to, as a path on this machine (the link is a vscode-remote: or file: URI). */
function linkedPath(link: string | undefined): string {
  assert.ok(link, 'the code has no link');
  const url = new URL(link);
  return url.protocol === 'file:' ? fileURLToPath(url) : decodeURIComponent(url.pathname);
}

/** Checks that a hover link runs the Show Lint Rule Page command for `code`, and nothing else. */
function assertRunsShowRulePage(link: string | undefined, code: string): void {
  assert.ok(link, 'the hover has no rule page link');
  const [command, query = ''] = link.replace(/^command:/, '').split('?');
  assert.ok(link.startsWith('command:'), `the link ${link} runs no command`);
  assert.equal(command, 'attentionInspector.showRulePage', `the link ${link} runs another command`);
  assert.deepEqual(JSON.parse(decodeURIComponent(query)), [code], `the link ${link} names another rule`);
}

/** Checks that a code links to the rule page docs/rules/<page> shipped in the installed extension. */
function assertLinksToRulePage(link: string | undefined, page: string): void {
  const path = linkedPath(link);
  assert.ok(path.endsWith(`/docs/rules/${page}`), `the link ${link} does not point at docs/rules/${page}`);
  assert.ok(existsSync(path), `the linked page ${path} is not installed`);
  assert.equal(readFileSync(path, 'utf8'), readFileSync(join(repoRoot, 'docs', 'rules', page), 'utf8'), 'the installed rule page differs from docs/rules');
}

const ours = (rows: ProblemRow[], file: string) => rows.filter((r) => r.file === file && r.source === SOURCE);
const at = (rows: ProblemRow[], file: string, code: string) => ours(rows, file).find((r) => r.code === code);
const describeRows = (rows: ProblemRow[]) => JSON.stringify(rows.map((r) => `${r.file} ${r.code} ${r.line}:${r.column} ${r.severity}`));

async function readDisk(workbench: Workbench, file: string): Promise<string> {
  return readFileSync(join(workbench.folder, file), 'utf8');
}

/**
 * Opens the copy of attention_bug.py and waits for `code`'s row: each test that works on the file starts from it
 * being open and linted, whether or not an earlier test opened it (a test run alone, or after another one failed).
 */
async function showFinding(workbench: Workbench, code: string): Promise<void> {
  await workbench.openFile(BUG_FILE);
  await workbench.waitForProblems((r) => at(r, BUG_FILE, code) !== undefined, code, PUBLISH_MS);
}

describe('the linter in VS Code: a Python file, its quick fixes, settings, a notebook', function () {
  // Room for the waits above PUBLISH_MS (the quick fix's menu, the republished rows, the save) in one test.
  this.timeout(300_000);
  const session = useWorkbench({
    folder: 'examples',
    files: { [HALF_TYPED_FILE]: HALF_TYPED },
    settings: {
      // As on the desktop (code-server saves after a delay by default), so that an edit stays unsaved.
      'files.autoSave': 'off',
      // A user who has fix-all on save: the linter's fixes change behaviour and must never be applied by it.
      'editor.codeActionsOnSave': { 'source.fixAll': 'explicit' },
    },
  });

  const original = readExample(BUG_FILE);
  const softmaxDim = positionOf(original, 'torch.softmax(scores', 'dim=-2'); // ATT001's argument
  const dividedByDk = positionOf(original, 'k.transpose(-2, -1) / d_k', 'd_k  #'); // ATT004's divisor

  it('shows ATT001 and ATT004 on a copy of examples/attention_bug.py, each code linking its rule page', async function () {
    const workbench = session.workbench;
    assert.equal(await readDisk(workbench, BUG_FILE), original, 'the workspace copy differs from examples/');
    await workbench.openFile(BUG_FILE);
    const rows = await workbench.waitForProblems(
      (r) => at(r, BUG_FILE, 'ATT001') !== undefined && at(r, BUG_FILE, 'ATT004') !== undefined,
      'ATT001 and ATT004',
    );
    await workbench.screenshot('lint-problems-attention-bug');
    const att001 = at(rows, BUG_FILE, 'ATT001')!;
    const att004 = at(rows, BUG_FILE, 'ATT004')!;
    assert.deepEqual([att001.line, att001.column], [softmaxDim.line, softmaxDim.column], describeRows(rows));
    assert.deepEqual([att004.line, att004.column], [dividedByDk.line, dividedByDk.column], describeRows(rows));
    assert.deepEqual(
      [softmaxDim, dividedByDk],
      [
        { line: 12, column: 37 },
        { line: 10, column: 40 },
      ],
      'the example moved: update the brief',
    );
    assert.equal(att001.severity, ruleByCode('ATT001').meta.severity);
    assert.equal(att004.severity, ruleByCode('ATT004').meta.severity);
    assert.match(att001.message, /dim=-2/);
    assert.match(att001.message, /key axis/);
    assert.match(att004.message, /square root|sqrt/);
    assert.equal(ours(rows, BUG_FILE).length, 2, `only the two bugs: ${describeRows(rows)}`);
    assertLinksToRulePage(att001.codeLink, 'ATT001-softmax-dim.md');
    assertLinksToRulePage(att004.codeLink, 'ATT004-wrong-scale.md');
    assert.equal(await workbench.dirty(), false, 'opening and linting changed the file');
  });

  it('explains ATT001 in the hover of its squiggle and links the rule page', async function () {
    const workbench = session.workbench;
    await showFinding(workbench, 'ATT001');
    const rule = ruleByCode('ATT001').meta;
    const hover = await workbench.hoverContent({ line: softmaxDim.line, column: softmaxDim.column + 2 }, { screenshot: 'lint-hover-att001' });
    assert.ok(hover.text.includes(`${rule.code} ${rule.name}`), `the hover does not name the rule: ${hover.text}`);
    assert.ok(hover.text.includes(rule.docs.summary), `the hover does not explain the rule: ${hover.text}`);
    const page = hover.links.find((l) => l.text === 'Rule page');
    assert.ok(page, `no "Rule page" link in ${JSON.stringify(hover.links)}`);
    assertRunsShowRulePage(page.href, 'ATT001');
  });

  it("opens ATT001's rule page rendered beside the code from the hover's link", async function () {
    const workbench = session.workbench;
    await showFinding(workbench, 'ATT001');
    const before = await readDisk(workbench, BUG_FILE);
    await workbench.clickHoverLink({ line: softmaxDim.line, column: softmaxDim.column + 2 }, 'Rule page');
    const rule = ruleByCode('ATT001').meta;
    const preview = await workbench.webviewFrame();
    await preview.waitForText(`${rule.code} ${rule.name}`);
    const shown = await preview.text();
    // Rendered, not shown as text: headings lose their '#', the collapsed list its <details> tag.
    assert.ok(!shown.includes('<details>') && !/^# /m.test(shown), `the page is shown as text: ${shown.slice(0, 300)}`);
    assert.ok(shown.includes(rule.docs.summary), `the preview does not show the rule's summary: ${shown.slice(0, 300)}`);
    await workbench.screenshot('lint-rule-page-preview');
    assert.equal(await readDisk(workbench, BUG_FILE), before, 'opening the rule page changed the file');
    await workbench.runCommand('View: Close All Editors'); // the next tests work in one editor group
  });

  it('opens a rule page picked from the palette\'s "Show Lint Rule Page"', async function () {
    const workbench = session.workbench;
    const rule = ruleByCode('ATT004').meta;
    await workbench.runCommand('Attention Inspector: Show Lint Rule Page');
    await workbench.pickQuickItem(`${rule.code} ${rule.name}`);
    const preview = await workbench.webviewFrame();
    await preview.waitForText(rule.docs.summary);
    await workbench.runCommand('View: Close All Editors');
  });

  it('changes the file only through the chosen "Set dim=-1 … [unsafe]" quick fix', async function () {
    const workbench = session.workbench;
    await showFinding(workbench, 'ATT001');
    const before = await readDisk(workbench, BUG_FILE);
    const offered = await workbench.quickFix({ line: softmaxDim.line, column: softmaxDim.column + 2 }, /^Set dim=-1 .*\[unsafe\]$/, {
      screenshot: 'lint-quick-fix-menu',
    });
    assert.ok(offered.includes('Ignore ATT001 on this line (# noqa)'), `the menu lists ${JSON.stringify(offered)}`);
    const rows = await workbench.waitForProblems((r) => at(r, BUG_FILE, 'ATT001') === undefined, 'ATT001 gone', PUBLISH_MS);
    assert.ok(at(rows, BUG_FILE, 'ATT004'), `ATT004 went too: ${describeRows(rows)}`);
    assert.equal(await workbench.dirty(), true, 'the fix did not edit the file');
    assert.equal(await readDisk(workbench, BUG_FILE), before, 'the file on disk changed before it was saved');
    // Saving runs fix-all (editor.codeActionsOnSave): it must not apply ATT004's unsafe fix.
    await workbench.save();
    const lines = before.split('\n');
    lines[softmaxDim.line - 1] = lines[softmaxDim.line - 1].replace('torch.softmax(scores, dim=-2)', 'torch.softmax(scores, dim=-1)');
    assert.equal(await readDisk(workbench, BUG_FILE), lines.join('\n'));
    await workbench.screenshot('lint-after-quick-fix');
  });

  it('silences ATT004 with the "# noqa: ATT004" quick fix on line 10', async function () {
    const workbench = session.workbench;
    await showFinding(workbench, 'ATT004');
    const before = await readDisk(workbench, BUG_FILE);
    await workbench.quickFix({ line: dividedByDk.line, column: dividedByDk.column + 1 }, 'Ignore ATT004 on this line (# noqa)');
    await workbench.waitForProblems((r) => at(r, BUG_FILE, 'ATT004') === undefined, `no ATT004 row for ${BUG_FILE}`, PUBLISH_MS);
    await workbench.save();
    const lines = before.split('\n');
    lines[dividedByDk.line - 1] += '  # noqa: ATT004';
    assert.equal(await readDisk(workbench, BUG_FILE), lines.join('\n'));
  });

  it('follows the severity and ignore settings', async function () {
    const workbench = session.workbench;
    const padding = readExample(PADDING_FILE);
    const mask = positionOf(padding, 'attn_mask=key_padding_mask[', 'key_padding_mask[');
    await workbench.openFile(PADDING_FILE);
    let rows = await workbench.waitForProblems((r) => at(r, PADDING_FILE, 'ATT002') !== undefined, 'ATT002');
    assert.deepEqual([at(rows, PADDING_FILE, 'ATT002')!.line, at(rows, PADDING_FILE, 'ATT002')!.column], [mask.line, mask.column]);
    assert.equal(at(rows, PADDING_FILE, 'ATT002')!.severity, ruleByCode('ATT002').meta.severity);
    assert.notEqual(ruleByCode('ATT002').meta.severity, 'info', 'the severity override below would change nothing');

    // The settings are user settings of this session: put back even when an assertion fails, so that the tests
    // after this one see the defaults whatever happens here.
    try {
      await workbench.setSetting('attentionInspector.lint.severity', { ATT002: 'information' });
      await workbench.waitForProblems((r) => at(r, PADDING_FILE, 'ATT002')?.severity === 'info', 'ATT002 as information');

      await workbench.setSetting('attentionInspector.lint.ignore', ['ATT00']);
      rows = await workbench.waitForProblems((r) => ours(r, PADDING_FILE).length === 0, `no ${SOURCE} rows for ${PADDING_FILE}`);
      assert.deepEqual(
        rows.filter((r) => r.source === SOURCE),
        [],
        'a prefix ignores every ATT00x rule in every file',
      );
      await workbench.screenshot('lint-ignore-att00');

      // Back: the rows return (so the empty view came from the setting), with the severity override kept.
      await workbench.setSetting('attentionInspector.lint.ignore', undefined);
      await workbench.waitForProblems((r) => at(r, PADDING_FILE, 'ATT002')?.severity === 'info', 'ATT002 back, as information');
      await workbench.setSetting('attentionInspector.lint.severity', undefined);
      await workbench.waitForProblems((r) => at(r, PADDING_FILE, 'ATT002')?.severity === ruleByCode('ATT002').meta.severity, 'ATT002 at its default severity');
    } finally {
      await workbench.setSetting('attentionInspector.lint.ignore', undefined);
      await workbench.setSetting('attentionInspector.lint.severity', undefined);
    }
  });

  it("puts the notebook's ATT003 on the cell without the scale", async function () {
    const workbench = session.workbench;
    const notebook = JSON.parse(readExample(NOTEBOOK_FILE)) as { cells: Array<{ cell_type: string; source: string | string[] }> };
    const sources = notebook.cells.map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source));
    const cellIndex = sources.findIndex((s) => s.includes('def attend(')); // the one without 1/sqrt(d)
    assert.ok(cellIndex >= 0 && !sources[cellIndex].includes('sqrt'), 'the notebook changed: no unscaled attend() cell');
    const scores = positionOf(sources[cellIndex], 'F.softmax(scores', 'scores, dim');

    await workbench.openFile(NOTEBOOK_FILE);
    const rows = await workbench.waitForProblems((r) => at(r, NOTEBOOK_FILE, 'ATT003') !== undefined, 'ATT003 in the notebook');
    assert.equal(ours(rows, NOTEBOOK_FILE).length, 1, describeRows(rows));
    const row = await workbench.openProblem((r) => r.file === NOTEBOOK_FILE && r.code === 'ATT003', 'ATT003 in the notebook');
    assert.deepEqual([row.line, row.column], [scores.line, scores.column]);
    assert.deepEqual(await workbench.notebookCell(), { cell: cellIndex + 1, cells: notebook.cells.length });
    const hover = await workbench.hoverContent(undefined, { screenshot: 'lint-notebook-att003' });
    const rule = ruleByCode('ATT003').meta;
    assert.ok(hover.text.includes(`${rule.code} ${rule.name}`), `the hover does not name the rule: ${hover.text}`);
    assertRunsShowRulePage(hover.links.find((l) => l.text === 'Rule page')?.href, 'ATT003');
  });

  it("lints a file with syntax errors and a half-typed line without failing, and keeps the valid part's finding", async function () {
    const workbench = session.workbench;
    const dim = positionOf(HALF_TYPED, 'torch.softmax(scores', 'dim=-2');
    await workbench.openFile(HALF_TYPED_FILE);
    let rows = await workbench.waitForProblems((r) => at(r, HALF_TYPED_FILE, 'ATT001') !== undefined, 'ATT001 in the valid function', PUBLISH_MS);
    assert.deepEqual(
      ours(rows, HALF_TYPED_FILE).map((r) => [r.code, r.line, r.column]),
      [['ATT001', dim.line, dim.column]],
    );
    // Type one more half-finished line above the function: the finding moves down with it.
    const blank = positionOf(HALF_TYPED, 'import torch', 'import').line + 1;
    await workbench.goTo(blank, 1);
    await workbench.typeText('y = q @\n');
    rows = await workbench.waitForProblems((r) => at(r, HALF_TYPED_FILE, 'ATT001')?.line === dim.line + 1, 'ATT001 one line lower', PUBLISH_MS);
    assert.deepEqual(
      ours(rows, HALF_TYPED_FILE).map((r) => [r.code, r.line, r.column]),
      [['ATT001', dim.line + 1, dim.column]],
    );
    await workbench.screenshot('lint-half-typed');
    const errors = (await workbench.notifications()).filter((n) => n.severity === 'error');
    assert.deepEqual(errors, [], 'an error notification appeared');
    assert.deepEqual(await workbench.extensionHostErrors(), []);
    // The linter reports its own failures (a rule that threw) on the console only: none in this session.
    assert.deepEqual(
      (await workbench.extensionHostConsole()).filter((m) => m.text.includes('[attention-inspector]')),
      [],
    );
  });
});
