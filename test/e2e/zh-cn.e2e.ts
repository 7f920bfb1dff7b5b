// The extension in a real VS Code whose display language is Simplified Chinese (code-server started with
// `--locale zh-cn` and an empty language pack, as the extension-host tier's zh-cn window): what a Chinese user
// sees. A malformed weight file gives an error notification in Chinese naming the file; a Python file with an
// attention bug gets Chinese rows in the Problems view, a Chinese hover and Chinese quick-fix titles; Lint
// Workspace sums up in Chinese and names a closed notebook's cell in Chinese; the command palette, the inspector
// panel (the model's name in its title and its description too) and the question before a selection longer than
// maxTokens speak Chinese; the engine's errors name the tiny trained model in Chinese. VS Code's own strings stay
// English (the pack translates none).
// The expected text is computed, never written down: the pure loader and linter run here on the same bytes and
// their message parts are rendered through l10n/bundle.l10n.zh-cn.json (package.nls.zh-cn.json for the palette)
// the way vscode.l10n.t renders them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter, type ExtendedLinter, type Finding } from '../../src/lint';
import { ENGINE_ERRORS } from '../../src/protocol/engine-errors';
import { fillTemplate, messagePartsOf, renderMessage, type MessageParts, type Template } from '../../src/protocol/message';
import { PANEL_STRING_KEYS } from '../../src/protocol/webview';
import { InspectSession, loadCheckpoint } from '../../src/models/session';
import type { ModelInfo } from '../../src/protocol/engine';
import { ruleByCode } from '../../src/lint/rules';
import { readTensors } from '../../src/weights';
import type { ProblemRow, Webview } from './driver/workbench';
import { useWorkbench } from './session';
import { clickNotificationButton } from './support/dialogs';
import { repoRoot } from './support/paths';

const HAN = /[\u4e00-\u9fff]/;
const SOURCE = 'attention-inspector';
const BUG_FILE = 'attention_bug.py';
const NOTEBOOK_FILE = 'attention_notebook.ipynb';
const HEADS = 4;
const SENTENCE = '我爱自然语言处理。';
const ENGLISH = 'The cat sat on the mat because it was tired.';

const readJson = (path: string) => JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as Record<string, string>;
/** The extension's runtime strings in Chinese (keys: the English text, `<English>/lint`, `<English>/error`). */
const zh = readJson('l10n/bundle.l10n.zh-cn.json');
/** package.json's titles in Chinese (`command.loadWeights` → 加载权重…). */
const zhNls = readJson('package.nls.zh-cn.json');

/** What vscode.l10n.t gives in zh-cn for a host string, a linter message or a loader error. */
const hostText = (english: string, ...args: (string | number)[]) => fillTemplate(zh[english] ?? english, args);
const lintText = (parts: MessageParts) => renderMessage(parts, (t, args) => fillTemplate(zh[`${t}/lint`] ?? t, args));
// An argument marked with its own l10n comment (a model's name in an engine error: inDomain) is rendered under it, as the host does.
const errorText = (parts: MessageParts) => renderMessage(parts, (t, args, domain) => fillTemplate(zh[`${t}/${domain ?? 'error'}`] ?? t, args));
const modelText = (parts: MessageParts) => renderMessage(parts, (t, args) => fillTemplate(zh[`${t}/model`] ?? t, args));

/** A palette title of one of the extension's commands in zh-cn (the category is not translated). */
const commandTitle = (key: string) => `Attention Inspector: ${zhNls[key]}`;

/** A safetensors file cut short: its header length (1,000) points past its 16 bytes, as a truncated download does. */
function truncatedSafetensors(): Uint8Array {
  const bytes = new Uint8Array(16);
  new DataView(bytes.buffer).setBigUint64(0, 1000n, true);
  return bytes;
}

const MALFORMED: Record<string, Uint8Array> = {
  'cut.safetensors': truncatedSafetensors(),
  'notes.npy': new TextEncoder().encode('these are notes, not an array'),
};

/** Token ids a user selects for the tiny trained model: one past its vocabulary, and more than its 128 positions. */
const PAST_VOCABULARY = '5 3072';
const PAST_POSITIONS = Array.from({ length: 130 }, () => '7').join(' ');
const TINY = join(repoRoot, 'media', 'models', 'tiny-bilingual');

/** The tiny trained model's refusal of `ids` in this process (the engine's session on the shipped files). */
async function tinyRefusal(ids: number[]): Promise<{ english: string; parts: MessageParts; info: ModelInfo }> {
  const engine = new InspectSession(loadCheckpoint);
  const info = await engine.configure({
    kind: 'file',
    fileName: 'tiny-bilingual/model.safetensors',
    bytes: new Uint8Array(readFileSync(join(TINY, 'model.safetensors'))),
    configJson: readFileSync(join(TINY, 'config.json'), 'utf8'),
    tokenizerJson: readFileSync(join(TINY, 'tokenizer.json'), 'utf8'),
  });
  const error = await engine.run({ text: ids.join(' '), ids, maxTokens: 512 }).then(
    () => assert.fail(`the tiny model ran ids ${ids.join(' ')}`),
    (e: unknown) => e as Error,
  );
  const parts = messagePartsOf(error);
  assert.ok(parts, `the engine's error has no parts: ${error.message}`);
  return { english: error.message, parts, info };
}

/** The loader's error on `bytes` named `fileName`: its English text and its parts. */
async function loaderError(bytes: Uint8Array, fileName: string): Promise<{ english: string; parts: MessageParts }> {
  const error = await readTensors(bytes, fileName).then(
    () => assert.fail(`the loader read ${fileName}`),
    (e: unknown) => e as Error,
  );
  const parts = messagePartsOf(error);
  assert.ok(parts, `the loader's error on ${fileName} has no parts: ${error.message}`);
  return { english: error.message, parts };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern for `template` with its `{n}` placeholders filled by `args` (text as is, a RegExp as its pattern, none: any text). */
function templateSource(template: string, args: readonly (string | number | RegExp)[] = []): string {
  return template
    .split(/(\{\d+\})/)
    .map((piece) => {
      const index = /^\{(\d+)\}$/.exec(piece)?.[1];
      if (index === undefined) return escapeRegExp(piece);
      const arg = args[Number(index)];
      return arg === undefined ? '.+?' : arg instanceof RegExp ? arg.source : escapeRegExp(String(arg));
    })
    .join('');
}

/** A regular expression matching the whole of `template` with any text in its placeholders. */
const templatePattern = (template: string) => new RegExp(`^${templateSource(template)}$`, 's');

/**
 * Every text of the panel a person reads: its text nodes and tooltip / accessible-name attributes, outside code
 * (`pre`, `code`: Python the panel shows is the same in every language).
 */
function panelTexts(panel: Webview): Promise<string[]> {
  return panel.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
      if (element?.closest('pre, code, script, style')) continue;
      if (node.nodeType === Node.TEXT_NODE) texts.push((node.textContent ?? '').trim());
      else for (const name of ['title', 'aria-label', 'placeholder']) texts.push((node as Element).getAttribute(name)?.trim() ?? '');
    }
    return texts.filter((t) => t !== '');
  }, undefined);
}

/** The panel's strings that are still the English key of a string that has a different Chinese translation. */
function untranslated(texts: string[]): string[] {
  const english = PANEL_STRING_KEYS.filter((key) => zh[key] !== undefined && zh[key] !== key).map((key) => ({ key, pattern: templatePattern(key) }));
  return texts.filter((text) => english.some(({ pattern }) => pattern.test(text)));
}

/** The seeded model the session configures, as the engine describes it. */
function expectedModel(): Promise<ModelInfo> {
  return new InspectSession().configure({ kind: 'seeded', seed: 0, heads: HEADS, dModel: 64 });
}

/** The tokens the engine makes of `text` with the seeded model the session configures. */
async function expectedTokens(text: string): Promise<string[]> {
  const session = new InspectSession();
  await session.configure({ kind: 'seeded', seed: 0, heads: HEADS, dModel: 64 });
  return (await session.run({ text, maxTokens: 512 })).tokens.map((t) => t.display);
}

const ours = (rows: ProblemRow[]) => rows.filter((r) => r.file === BUG_FILE && r.source === SOURCE);

describe('the extension in a zh-cn VS Code (display language Simplified Chinese)', function () {
  const session = useWorkbench({
    folder: 'examples',
    files: { ...MALFORMED, 'ids.md': `# Token ids\n\n${PAST_VOCABULARY}\n\n${PAST_POSITIONS}\n` },
    locale: 'zh-cn',
    settings: { 'files.autoSave': 'off', 'attentionInspector.heads': HEADS, 'attentionInspector.dModel': 64, 'attentionInspector.seed': 0 },
  });

  let findings: Finding[];
  let linter: ExtendedLinter;
  before(async function () {
    const media = (name: string) => readFileSync(join(repoRoot, 'media', name));
    linter = await createLinter({ treeSitter: media('web-tree-sitter.wasm'), python: media('tree-sitter-python.wasm') });
    findings = linter.lintPython(readFileSync(join(repoRoot, 'examples', BUG_FILE), 'utf8'));
    assert.deepEqual(findings.map((f) => f.code).sort(), ['ATT001', 'ATT004'], 'examples/attention_bug.py changed');
  });

  it("lists the extension's commands in the palette under their Chinese titles", async function () {
    const listed = await session.workbench.commandTitles('Attention Inspector');
    const wanted = ['command.inspectSelection', 'command.openDebugger', 'command.loadWeights', 'command.lintWorkspace'].map(commandTitle);
    for (const title of wanted) assert.match(title, HAN);
    assert.deepEqual(
      wanted.filter((title) => !listed.includes(title)),
      [],
      `the palette lists ${JSON.stringify(listed)}`,
    );
  });

  for (const [fileName, bytes] of Object.entries(MALFORMED)) {
    it(`shows Load Weights' error on a malformed ${fileName} in Chinese, naming the file`, async function () {
      const workbench = session.workbench;
      const { english, parts } = await loaderError(bytes, fileName);
      // the loader's message begins with the file's name; the notification names it once, in its own prefix
      const problemText = errorText(parts);
      assert.ok(problemText.startsWith(`${fileName}：`), `the loader's message does not begin with the file: ${problemText}`);
      const expected = hostText('Could not load {0}: {1}', fileName, problemText.slice(fileName.length + 1));
      assert.match(expected, HAN);
      await workbench.runCommand(commandTitle('command.loadWeights'));
      await workbench.answerFileDialog(join(workbench.folder, fileName));
      const shown = await workbench.waitForNotification(expected, 60_000);
      if (fileName === 'cut.safetensors') {
        await workbench.expandNotification(expected);
        await workbench.screenshot('zh-cn-load-error');
      }
      assert.equal(shown.severity, 'error');
      assert.equal(shown.message, expected);
      assert.ok(shown.message.startsWith(`无法加载 ${fileName}：`), `the message does not name the file first: ${shown.message}`);
      assert.equal(shown.message.split(fileName).length, 2, `the file is named more than once: ${shown.message}`);
      const problem = english.slice(english.indexOf(': ') + 2);
      assert.ok(!shown.message.includes(problem), `the English problem is still shown: ${shown.message}`);
    });
  }

  it('shows the linter findings of attention_bug.py in Chinese in the Problems view and the hover', async function () {
    const workbench = session.workbench;
    await workbench.openFile(BUG_FILE);
    const rows = await workbench.waitForProblems((r) => ['ATT001', 'ATT004'].every((code) => ours(r).some((row) => row.code === code)), 'ATT001 and ATT004');
    assert.equal(ours(rows).length, 2, JSON.stringify(ours(rows)));
    for (const finding of findings) {
      const row = ours(rows).find((r) => r.code === finding.code)!;
      assert.deepEqual([row.line, row.column], [finding.line, finding.column], finding.code);
      assert.equal(row.message, lintText(finding.messageParts!));
      assert.notEqual(row.message, finding.message, `${finding.code}'s row is still English`);
      assert.match(row.message, HAN);
    }
    await workbench.screenshot('zh-cn-problems');

    const att001 = findings.find((f) => f.code === 'ATT001')!;
    const rule = ruleByCode('ATT001').meta;
    const hover = await workbench.hoverContent({ line: att001.line, column: att001.column + 2 }, { screenshot: 'zh-cn-lint-hover' });
    assert.ok(hover.text.includes(lintText(att001.messageParts!)), `the hover does not show the Chinese diagnostic: ${hover.text}`);
    assert.ok(hover.text.includes(zh[`${rule.docs.summary}/lint`]), `the hover does not explain the rule in Chinese: ${hover.text}`);
    assert.ok(!hover.text.includes(rule.docs.summary), `the hover still explains the rule in English: ${hover.text}`);
    assert.ok(
      hover.links.some((l) => l.text === hostText('Rule page')),
      `no "${hostText('Rule page')}" link in ${JSON.stringify(hover.links)}`,
    );
  });

  it('titles the quick fixes in Chinese, and the Chinese "[不安全]" fix edits the file', async function () {
    const workbench = session.workbench;
    const att001 = findings.find((f) => f.code === 'ATT001')!;
    const fix = hostText('{0} [unsafe]', lintText(att001.fix!.titleParts!));
    const noqa = hostText('Ignore {0} on this line (# noqa)', 'ATT001');
    assert.match(fix, HAN);
    assert.match(noqa, HAN);
    await workbench.openFile(BUG_FILE);
    await workbench.waitForProblems((r) => ours(r).some((row) => row.code === 'ATT001'), 'ATT001');
    try {
      const offered = await workbench.quickFix({ line: att001.line, column: att001.column + 2 }, fix, { screenshot: 'zh-cn-quick-fix-menu' });
      assert.ok(offered.includes(noqa), `the menu lists ${JSON.stringify(offered)}`);
      await workbench.waitForProblems((r) => !ours(r).some((row) => row.code === 'ATT001'), 'ATT001 gone after the fix');
      assert.equal(await workbench.dirty(), true, 'the fix did not edit the file');
    } finally {
      // Back to the file as on disk, for any test after this one.
      if (await workbench.dirty()) await workbench.runCommand('File: Revert File');
    }
    await workbench.waitForProblems((r) => ours(r).some((row) => row.code === 'ATT001'), 'ATT001 back after the revert');
  });

  it("sums up Lint Workspace in Chinese and names a closed notebook's cell in Chinese", async function () {
    this.timeout(300_000);
    const workbench = session.workbench;
    const notebookJson = readFileSync(join(repoRoot, 'examples', NOTEBOOK_FILE), 'utf8');
    const cells = linter.lintNotebook(notebookJson).filter((c) => c.findings.length > 0);
    assert.deepEqual(
      cells.flatMap((c) => c.findings.map((f) => f.code)),
      ['ATT003'],
      'examples/attention_notebook.ipynb changed',
    );
    const [
      {
        cellIndex,
        findings: [att003],
      },
    ] = cells;
    const files = readdirSync(workbench.folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.(py|pyi|ipynb)$/.test(e.name)).length;

    await workbench.runCommand('View: Close All Editors');
    await workbench.runCommand(commandTitle('command.lintWorkspace'));
    const summaryPattern = new RegExp(`^${templateSource(zh['Attention Inspector: {0} problems in {1} files.'], [/(\d+)/, files])}$`);
    const summary = await workbench.waitForNotification(summaryPattern, 240_000);
    assert.equal(summary.severity, 'info', summary.message);
    const problems = Number(summaryPattern.exec(summary.message)![1]);
    // The Problems view renders the published rows a moment after the summary (its badge first): wait for them.
    const rows = (
      await workbench
        .waitForProblems((all) => all.filter((r) => r.source === SOURCE).length >= problems, `the ${problems} rows the summary counts`, 60_000)
        .catch(() => workbench.problems())
    ).filter((r) => r.source === SOURCE);
    await workbench.screenshot('zh-cn-lint-workspace');
    assert.equal(rows.length, problems, `the summary says ${problems}, the Problems view shows ${JSON.stringify(rows.map((r) => r.message))}`);
    const notebookRows = rows.filter((r) => r.file === NOTEBOOK_FILE);
    assert.deepEqual(
      notebookRows.map((r) => r.message),
      [hostText('cell {0}, line {1}: ', cellIndex + 1, att003.line) + lintText(att003.messageParts!)],
    );
    assert.match(notebookRows[0].message, HAN);
  });

  it("shows the inspector panel's strings in Chinese: the header, a head, the debugger", async function () {
    const workbench = session.workbench;
    const tokens = await expectedTokens(SENTENCE);
    await workbench.runCommand('View: Close All Editors');
    await workbench.openFile('hello.md');
    await workbench.selectText(SENTENCE);
    await workbench.runCommand(commandTitle('command.inspectSelection'));
    const panel = await workbench.webviewFrame(60_000);
    const header = new RegExp(templateSource(zh['{0} tokens · {1} layers × {2} heads · {3} ms'], [tokens.length, 1, HEADS, /\d+/]));
    await panel.waitForText(header, 60_000);
    assert.deepEqual(untranslated(await panelTexts(panel)), [], 'English strings left in the heads grid');
    // The model's name (the panel's title) and description (its tooltip) as the engine's parts in Chinese.
    const model = await expectedModel();
    const [name, detail] = [modelText(model.nameParts), modelText(model.detailParts)];
    assert.match(name, HAN);
    assert.notEqual(name, model.name);
    const title = panel.locator('h1.title');
    assert.equal((await title.textContent())?.trim(), name);
    assert.equal(await title.getAttribute('title'), detail);
    assert.match(detail, HAN);

    await panel.locator('button.thumb[data-layer="0"][data-head="2"]').click();
    await panel.waitForText(hostText('Layer {0} · head {1}', 0, 2));
    await panel.waitForText(hostText('Step through this head'));
    assert.deepEqual(untranslated(await panelTexts(panel)), [], 'English strings left with a head opened');
    await workbench.screenshot('zh-cn-panel');

    await panel.locator(`button:has-text("${hostText('Step through this head')}")`).click();
    await panel.waitForText(hostText('1 · scores = QKᵀ'), 60_000);
    await panel.waitForText(hostText('No problems found with these switches.'));
    assert.deepEqual(untranslated(await panelTexts(panel)), [], 'English strings left in the debugger');
    await panel.screenshot('zh-cn-debugger');
  });

  it('asks in Chinese before inspecting a selection longer than maxTokens, saying its size', async function () {
    const workbench = session.workbench;
    const MAX_TOKENS = 5;
    // What the engine says about the sentence with this limit, in this process: its token count (or a lower bound).
    const engine = new InspectSession();
    await engine.configure({ kind: 'seeded', seed: 0, heads: HEADS, dModel: 64 });
    const refusal = await engine.run({ text: SENTENCE, maxTokens: MAX_TOKENS }).then(
      () => assert.fail(`the engine ran ${SENTENCE} with maxTokens ${MAX_TOKENS}`),
      (e: unknown) => messagePartsOf(e),
    );
    assert.ok(refusal && [ENGINE_ERRORS.tooManyTokens, ENGINE_ERRORS.tooManyTokensAtLeast].includes(refusal.template as Template), JSON.stringify(refusal));
    const key =
      refusal.template === ENGINE_ERRORS.tooManyTokens
        ? 'The selection is long: {0} tokens ({1} characters on {2} lines), over the limit of {3} tokens (the attentionInspector.maxTokens setting). Inspecting up to {4} tokens may take a while; the heads of a long run are shown as block averages.'
        : 'The selection is long: more than {0} tokens ({1} characters on {2} lines), over the limit of {3} tokens (the attentionInspector.maxTokens setting). Inspecting up to {4} tokens may take a while; the heads of a long run are shown as block averages.';
    const question = new RegExp(`^${templateSource(zh[key], [Number(refusal.args[0]), SENTENCE.length, 1, MAX_TOKENS, /\d+/])}$`);

    // A short inspection of another sentence first opens the panel (its page is how the toast's button is reached).
    const english = await expectedTokens(ENGLISH);
    await workbench.runCommand('View: Close All Editors');
    await workbench.openFile('hello.md');
    await workbench.selectText(ENGLISH);
    await workbench.runCommand(commandTitle('command.inspectSelection'));
    const panel = await workbench.webviewFrame(60_000);
    await panel.waitForText(hostText('{0} tokens', english.length), 60_000);
    try {
      await workbench.setSetting('attentionInspector.maxTokens', MAX_TOKENS);
      await workbench.openFile('hello.md'); // setSetting left settings.json active
      await workbench.selectText(SENTENCE);
      await workbench.runCommand(commandTitle('command.inspectSelection'));
      const ask = await workbench.waitForNotification(question, 60_000);
      await workbench.screenshot('zh-cn-long-selection');
      assert.equal(ask.severity, 'warning');
      assert.deepEqual(ask.buttons, [hostText('Run Anyway'), hostText('Open Settings')]);
      await clickNotificationButton(panel, ask.message, hostText('Run Anyway'));
      const tokens = await expectedTokens(SENTENCE);
      assert.notEqual(tokens.length, english.length);
      await (await workbench.webviewFrame(60_000)).waitForText(hostText('{0} tokens', tokens.length), 60_000);
    } finally {
      await workbench.setSetting('attentionInspector.maxTokens', undefined);
    }
  });

  it("names the tiny trained model in Chinese in the engine's errors (ids past its vocabulary, past its positions)", async function () {
    const workbench = session.workbench;
    try {
      await workbench.runCommand('View: Close All Editors');
      await workbench.runCommand(commandTitle('command.chooseModel'));
      await workbench.pickQuickItem(hostText('Use the Tiny Trained Model'));
      await workbench.waitForNotification(new RegExp(`^${templateSource(zh['Loaded {0}: {1}'], ['tiny-bilingual/model.safetensors'])}$`, 's'), 60_000);
      for (const [text, template] of [
        [PAST_VOCABULARY, ENGINE_ERRORS.idOutsideVocabulary],
        [PAST_POSITIONS, ENGINE_ERRORS.maxPositions],
      ] as const) {
        const { english, parts, info } = await tinyRefusal(text.split(' ').map(Number));
        assert.equal(parts.template, template);
        const name = modelText(info.nameParts);
        assert.match(name, HAN);
        const expected = hostText('Attention Inspector: {0}', errorText(parts));
        assert.ok(expected.includes(name), expected);
        await workbench.openFile('ids.md');
        await workbench.selectText(text);
        await workbench.runCommand(commandTitle('command.inspectSelection'));
        const shown = await workbench.waitForNotification(expected, 60_000);
        if (template === ENGINE_ERRORS.idOutsideVocabulary) {
          await workbench.expandNotification(expected);
          await workbench.screenshot('zh-cn-tiny-model-vocabulary-error');
        }
        assert.equal(shown.severity, 'error');
        assert.equal(shown.message, expected);
        assert.ok(!shown.message.includes(info.name), `the English model name is shown: ${shown.message}`);
        assert.ok(!shown.message.includes(english), `the English error is shown: ${shown.message}`);
      }
    } finally {
      await workbench.runCommand(commandTitle('command.chooseModel'));
      await workbench.pickQuickItem(hostText('Use Seeded Weights'));
    }
  });
});
