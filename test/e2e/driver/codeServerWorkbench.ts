// The Workbench driver for code-server: Playwright drives Debian's Chromium showing code-server's workbench.
// It works through the UI a person uses (palette, quick open, find widget, status bar, Problems view), and
// every step waits for its effect; a failed step throws an Error that names the step and a screenshot.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import type { Profile, RunningCodeServer } from '../support/codeServer';
import { artifactsDir } from '../support/paths';
import type {
  Activation,
  ConsoleMessage,
  EditorSelection,
  HoverContent,
  InstalledExtension,
  Notification,
  NotebookCellPosition,
  ProblemRow,
  RelatedRow,
  Severity,
  Webview,
  Workbench,
} from './workbench';

/** Default time one step may take. The machines are small and shared: be generous, never sleep. */
const STEP_TIMEOUT_MS = Number(process.env.E2E_STEP_TIMEOUT_MS ?? 30_000);
/** One try at opening the quick input before it is opened again (see openQuickInput). */
const QUICK_INPUT_TRY_MS = 5_000;
/** How long the first try waits for a hover before the cursor is revealed and the hover asked for again. */
const HOVER_FIRST_TRY_MS = 10_000;

const WEBVIEW_IFRAME = 'iframe.webview';

/** Numbers failure screenshots across all sessions of a run, so none overwrites another. */
let failureCount = 0;

/** How the workbench's console echo of the extension host's console starts. */
const HOST_CONSOLE_PREFIX = '%c[Extension Host] ';

/** The setting setSetting saves along with a change to see when the workbench has applied it. */
const SETTINGS_PROBE_KEY = 'window.title';
/** Numbers setSetting's probes, so that each save's title differs from the last. */
let settingsSaves = 0;

/** A file-name-safe form of a screenshot name. */
function slug(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 120) || 'screenshot'
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function severityOf(className: string): Severity {
  if (/\berror\b/.test(className)) return 'error';
  if (/\bwarning\b/.test(className)) return 'warning';
  return 'info';
}

/** What poll() throws when time runs out (any other error from the probe passes through unchanged). */
class PollTimeout extends Error {}

/** Polls `probe` until it returns a value other than undefined, or throws a PollTimeout after timeoutMs. */
async function poll<T>(probe: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 150): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new PollTimeout(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Replaces a PollTimeout with a more telling error; rethrows anything else. */
function explainTimeout(explain: () => Error | Promise<Error>): (error: unknown) => Promise<never> {
  return async (error) => {
    throw error instanceof PollTimeout ? await explain() : error;
  };
}

export interface CodeServerWorkbenchParts {
  browser: Browser;
  page: Page;
  server: RunningCodeServer;
  folder: string;
  extensionId: string;
  /** Runs after the browser and server have stopped (e.g. removes the temporary profile). */
  cleanup?: () => Promise<void> | void;
}

export class CodeServerWorkbench implements Workbench {
  readonly folder: string;
  private readonly page: Page;
  private readonly browser: Browser;
  private readonly server: RunningCodeServer;
  private readonly extensionId: string;
  private readonly cleanup: (() => Promise<void> | void) | undefined;
  private closed = false;
  /** The extension host's console output, as the workbench echoes it to the page's console. */
  private readonly hostConsole: ConsoleMessage[] = [];

  constructor(parts: CodeServerWorkbenchParts) {
    this.page = parts.page;
    this.browser = parts.browser;
    this.server = parts.server;
    this.folder = parts.folder;
    this.extensionId = parts.extensionId;
    this.cleanup = parts.cleanup;
    // The workbench echoes what extensions write to console.* as `%c[Extension Host] %c<text>` followed by
    // two CSS arguments, which Playwright's text() appends.
    this.page.on('console', (message) => {
      const text = message.text();
      if (!text.startsWith(HOST_CONSOLE_PREFIX)) return;
      const body = text
        .slice(HOST_CONSOLE_PREFIX.length)
        .replace(/^%c/, '')
        .replace(/(?: color: [^ ]*)* color: ?$/, '');
      this.hostConsole.push({ type: message.type(), text: body.trim() });
    });
  }

  /** The code-server profile (settings, logs) this workbench runs in. */
  get profile(): Profile {
    return this.server.profile;
  }

  /** How many times an extension host has finished starting (each window load starts one). */
  private extensionHostStarts(): number {
    return this.server.extensionHostLog().split('Eager extensions activated').length - 1;
  }

  /** Waits for the workbench of a (re)loaded page and for a new extension host (`starts` before the load). */
  private async waitForWorkbench(startsBefore: number): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: STEP_TIMEOUT_MS * 2 });
    await this.page
      .locator('.explorer-folders-view .monaco-list-row')
      .first()
      .waitFor({ timeout: STEP_TIMEOUT_MS * 2 });
    // Until the extension host has started, the palette lacks the extensions' commands.
    await poll(async () => (this.extensionHostStarts() > startsBefore ? true : undefined), STEP_TIMEOUT_MS * 2, 250).catch(
      explainTimeout(() => new Error(`the extension host did not start within ${(STEP_TIMEOUT_MS * 2) / 1000} s`)),
    );
  }

  /** Opens the folder and waits until the explorer lists its files and the extension host has started. */
  async load(): Promise<void> {
    await this.step(`open the workbench on ${this.folder}`, async () => {
      // Functions passed to evaluate() are serialised from tsx-compiled test code, which wraps named inner
      // functions in esbuild's __name(fn, name) helper; give every frame (webviews too) a stand-in.
      await this.page.addInitScript('globalThis.__name ??= (fn) => fn;');
      const starts = this.extensionHostStarts();
      await this.page.goto(this.server.folderUrl(this.folder));
      await this.waitForWorkbench(starts);
    });
  }

  async reloadWindow(): Promise<void> {
    const starts = this.extensionHostStarts();
    const loaded = this.page.waitForEvent('load', { timeout: STEP_TIMEOUT_MS * 2 });
    await this.runCommand('Developer: Reload Window');
    await this.step('reload the window', async () => {
      await loaded;
      await this.waitForWorkbench(starts);
    });
  }

  // ----- steps and failure reports -------------------------------------------------------------------

  /** Runs one step; on failure throws an Error naming the step, the cause and a screenshot. */
  private async step<T>(description: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      const cause = error instanceof Error ? error.message.split('\n')[0] : String(error);
      let shot: string;
      try {
        shot = await this.screenshot(`failure-${++failureCount}-${description}`);
      } catch (screenshotError) {
        shot = `(no screenshot: ${screenshotError instanceof Error ? screenshotError.message.split('\n')[0] : screenshotError})`;
      }
      throw new Error(`Could not ${description}: ${cause}\n  screenshot: ${shot}`, { cause: error });
    }
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(artifactsDir, { recursive: true });
    const path = join(artifactsDir, `${slug(name)}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  // ----- quick input (palette, quick open, go to line) -----------------------------------------------

  private quickInput() {
    return this.page.locator('.quick-input-widget');
  }

  private async modalDialogText(): Promise<string | undefined> {
    const dialog = this.page.locator('.monaco-dialog-box');
    if (!(await dialog.isVisible())) return undefined;
    return (await dialog.innerText()).replace(/\s+/g, ' ').trim();
  }

  /** Opens the quick input with `prefix` + text typed in. */
  private async openQuickInput(keys: string, value: string): Promise<void> {
    const dialog = await this.modalDialogText();
    if (dialog !== undefined) throw new Error(`a modal dialog is open ("${dialog}"); close it with dismissDialog() first`);
    const input = this.quickInput().locator('input.input').first();
    // The quick input can open while the workbench is still settling from what came before (a modal editor
    // closing makes the page inert for a moment, then hands the focus back, which closes the quick input).
    // A try that loses the widget that way opens it again; a widget still open after the last try is the error.
    const attempts = 3;
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press(keys);
      try {
        await input.waitFor({ state: 'visible', timeout: attempt < attempts ? QUICK_INPUT_TRY_MS : STEP_TIMEOUT_MS });
        await input.fill(value, { timeout: attempt < attempts ? QUICK_INPUT_TRY_MS : STEP_TIMEOUT_MS });
        if ((await input.inputValue()) === value && (await input.isVisible())) return;
      } catch (error) {
        if (attempt >= attempts) throw error;
      }
      if (attempt >= attempts) throw new Error(`the quick input did not keep "${value}" (${attempts} tries)`);
      if (await this.quickInput().isVisible()) await this.page.keyboard.press('Escape');
      await this.quickInput()
        .waitFor({ state: 'hidden', timeout: QUICK_INPUT_TRY_MS })
        .catch(() => undefined);
    }
  }

  /** The rows the quick input shows, once they stop changing. */
  private async settledQuickInputLabels(): Promise<string[]> {
    const rows = this.quickInput().locator('.quick-input-list .monaco-list-row');
    let previous = '';
    return poll(
      async () => {
        const labels = await rows.evaluateAll((elements) => elements.map((row) => (row.querySelector('.label-name')?.textContent ?? '').trim()));
        const key = JSON.stringify(labels);
        const stable = labels.length > 0 && key === previous;
        previous = key;
        return stable ? labels : undefined;
      },
      STEP_TIMEOUT_MS,
      250,
    );
  }

  private async closeQuickInput(): Promise<void> {
    if (await this.quickInput().isVisible()) {
      await this.page.keyboard.press('Escape');
      await this.quickInput().waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
    }
  }

  async runCommand(title: string): Promise<void> {
    await this.step(`run the command "${title}"`, async () => {
      await this.openQuickInput('F1', `>${title}`);
      let labels = await this.settledQuickInputLabels();
      // The palette can settle on its recently-used list for a moment before the typed filter applies (seen
      // when earlier sessions of the run left a history): give the filtered list a few seconds to arrive.
      for (let waited = 0; !labels.includes(title) && waited < 10_000; waited += 500) {
        await this.page.waitForTimeout(500);
        labels = await this.quickInput()
          .locator('.quick-input-list .monaco-list-row')
          .evaluateAll((elements) => elements.map((row) => (row.querySelector('.label-name')?.textContent ?? '').trim()));
      }
      const index = labels.indexOf(title);
      if (index < 0) {
        await this.closeQuickInput();
        throw new Error(`the palette has no command titled "${title}" (it lists: ${labels.join(' | ') || 'nothing'})`);
      }
      await this.quickInput().locator('.quick-input-list .monaco-list-row').nth(index).click();
      // The palette closes, or the command opens a quick input of its own (a picker, an input box), or the
      // page goes away (Developer: Reload Window).
      await poll(async () => {
        try {
          return await this.page.evaluate((typed) => {
            const widget = document.querySelector('.quick-input-widget');
            const input = widget?.querySelector<HTMLInputElement>('input.input');
            return !widget || widget.getClientRects().length === 0 || !input || input.value !== typed ? true : undefined;
          }, `>${title}`);
        } catch {
          return true; // the page navigated
        }
      }, STEP_TIMEOUT_MS);
    });
  }

  async clickStatusBarItem(text: string | RegExp): Promise<string> {
    return this.step(`click the status bar item ${typeof text === 'string' ? `"${text}"` : text}`, async () => {
      const item = this.page.locator('.statusbar-item', { hasText: text }).first();
      await item.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
      const shown = (await item.innerText()).trim();
      await item.locator('a, .statusbar-item-label').first().click();
      return shown;
    });
  }

  async pickQuickItem(label: string): Promise<string> {
    return this.step(`pick "${label}" in the quick pick`, async () => {
      const input = this.quickInput().locator('input.input').first();
      await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
      const title = (
        (await this.quickInput()
          .locator('.quick-input-title')
          .first()
          .innerText()
          .catch(() => '')) ?? ''
      ).trim();
      const rows = this.quickInput().locator('.quick-input-list .monaco-list-row');
      // The rows render a moment after the widget; their label-name is the label without its $(icon).
      const index = await poll(async () => {
        const labels = await rows.evaluateAll((elements) => elements.map((row) => (row.querySelector('.label-name')?.textContent ?? '').trim()));
        const i = labels.indexOf(label);
        return i >= 0 ? i : undefined;
      }, STEP_TIMEOUT_MS).catch(explainTimeout(async () => new Error(`no row is labelled "${label}" (it lists: ${(await rows.allInnerTexts()).join(' | ')})`)));
      const typed = await input.inputValue();
      await rows.nth(index).click();
      // The quick pick closes, or the chosen item opens a quick input of its own.
      await poll(async () => {
        const still = await this.page.evaluate(
          ([t, picked]) => {
            const widget = document.querySelector('.quick-input-widget');
            const el = widget?.querySelector<HTMLInputElement>('input.input');
            if (!widget || widget.getClientRects().length === 0 || !el) return false;
            const names = [...widget.querySelectorAll('.quick-input-list .monaco-list-row .label-name')].map((n) => (n.textContent ?? '').trim());
            return el.value === t && names.includes(picked);
          },
          [typed, label] as const,
        );
        return still ? undefined : true;
      }, STEP_TIMEOUT_MS);
      return title;
    });
  }

  async commandTitles(query: string): Promise<string[]> {
    return this.step(`list the palette's commands for "${query}"`, async () => {
      await this.openQuickInput('F1', `>${query}`);
      const labels = await this.settledQuickInputLabels();
      await this.closeQuickInput();
      return labels.filter((label) => label !== 'No matching commands' && label !== 'No matching results');
    });
  }

  // ----- editors -------------------------------------------------------------------------------------

  async openFile(relativePath: string): Promise<void> {
    const name = relativePath.split('/').pop() ?? relativePath;
    await this.step(`open ${relativePath}`, async () => {
      await this.openQuickInput('Control+P', relativePath);
      const row = this.quickInput().locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
      await row.waitFor({ timeout: STEP_TIMEOUT_MS });
      await row.click();
      const tab = this.page.locator(`.editor-group-container.active .tab.active[data-resource-name="${name.replace(/["\\]/g, '\\$&')}"]`);
      try {
        await tab.waitFor({ timeout: STEP_TIMEOUT_MS / 2 });
      } catch {
        // On a loaded machine the click can be lost while the quick open stays up with the file's row picked (a full
        // run failed so, its screenshot showing the row selected and no editor): Enter opens the picked row.
        if (await this.quickInput().isVisible()) await this.page.keyboard.press('Enter');
        await tab.waitFor({ timeout: STEP_TIMEOUT_MS });
      }
    });
  }

  /** Moves keyboard focus into the active text editor. */
  private async focusEditor(): Promise<void> {
    const editor = this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
    await editor.waitFor({ timeout: STEP_TIMEOUT_MS });
    // The lines' top-left corner is off screen when the editor is scrolled down (a revealed line, scrolling past
    // the last line): then click the top of the visible text area, away from the left where CodeLens links sit.
    const lines = await editor.boundingBox();
    const visible = await this.page.locator('.editor-group-container.active .monaco-editor .overflow-guard').first().boundingBox();
    const click = async () => {
      if (lines && visible && lines.y + 2 < visible.y) await this.page.mouse.click(visible.x + visible.width / 2, visible.y + 8);
      else await editor.click({ position: { x: 2, y: 2 } });
    };
    await click();
    // A view focused just before ("Problems: Focus on Problems View" moves the focus into its filter box a moment
    // later) can take the focus back after the click: click again until the editor holds it.
    await poll(async () => {
      const inEditor = await this.page.evaluate(() => document.activeElement?.closest('.editor-group-container.active .monaco-editor') != null);
      if (inEditor) return true;
      await click();
      return undefined;
    }, STEP_TIMEOUT_MS).catch(explainTimeout(() => new Error('the active editor did not keep the keyboard focus')));
  }

  async selection(): Promise<EditorSelection> {
    const label = (await this.page.locator('[id="status.editor.selection"]').getAttribute('aria-label', { timeout: STEP_TIMEOUT_MS })) ?? '';
    const match = /Ln (\d+), Col (\d+)(?: \((\d+) selected\))?/.exec(label);
    if (match === null) throw new Error(`the status bar's selection item says "${label}", expected "Ln L, Col C (N selected)"`);
    return { line: Number(match[1]), column: Number(match[2]), selected: Number(match[3] ?? 0) };
  }

  /** Waits until the status bar shows a selection that `accept` takes. */
  private async waitForSelection(accept: (selection: EditorSelection) => boolean, expected: string): Promise<void> {
    let last: EditorSelection | undefined;
    await poll(async () => {
      last = await this.selection();
      return accept(last) ? true : undefined;
      // A whole step's time: under load (another code-server, a test tier beside) the status bar follows the
      // cursor seconds late.
    }, STEP_TIMEOUT_MS).catch(explainTimeout(() => new Error(`the status bar shows ${JSON.stringify(last)}, expected ${expected}`)));
  }

  async goTo(line: number, column = 1): Promise<void> {
    await this.step(`go to ${line}:${column}`, async () => {
      await this.focusEditor();
      await this.openQuickInput('Control+G', `:${line}:${column}`);
      await this.page.keyboard.press('Enter');
      await this.quickInput().waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
      await this.waitForSelection((s) => s.line === line && s.column === column && s.selected === 0, `the cursor at ${line}:${column}`);
    });
  }

  async selectLine(line: number): Promise<void> {
    await this.selectLines(line, line);
  }

  async selectLines(from: number, to: number): Promise<void> {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from) {
      throw new Error(`selectLines(from, to) needs whole line numbers 1 <= from <= to, got ${from}, ${to}`);
    }
    await this.goTo(from, 1);
    await this.step(`select lines ${from}..${to}`, async () => {
      // Expand Line Selection (Ctrl+L) once per line leaves the cursor at the start of line to + 1, or at the
      // end of line `to` when it is the last line: states no intermediate key press produces, so the status
      // bar says for sure when all presses have landed.
      for (let line = from; line <= to; line++) await this.page.keyboard.press('Control+L');
      await this.waitForSelection((s) => (s.line === to + 1 && s.column === 1) || (s.line === to && s.column > 1), `the cursor after line ${to}`);
      if ((await this.selection()).line === to + 1) {
        await this.page.keyboard.press('Shift+ArrowLeft'); // leave the line break out
        await this.waitForSelection((s) => s.line === to, `the selection to end on line ${to}`);
      }
    });
  }

  async selectText(text: string, occurrence = 1): Promise<void> {
    if (text.length === 0 || /[\r\n]/.test(text)) {
      throw new Error(`selectText(text) takes non-empty text on one line (got ${JSON.stringify(text)}); use selectLines(from, to) for several lines`);
    }
    await this.step(`select "${text}"${occurrence > 1 ? ` (occurrence ${occurrence})` : ''}`, async () => {
      await this.focusEditor();
      await this.page.keyboard.press('Control+Home');
      // Wait for the cursor at 1:1 first: the last wait below accepts any selection of the text's length, which an
      // earlier selection of the same text already is while the status bar lags behind (seen under load).
      await this.waitForSelection((s) => s.line === 1 && s.column === 1 && s.selected === 0, 'the cursor at 1:1');
      await this.page.keyboard.press('Control+F');
      const widget = this.page.locator('.editor-group-container.active .find-widget.visible');
      const input = widget.locator('textarea, input').first();
      if (
        !(await input.waitFor({ timeout: 5000 }).then(
          () => true,
          () => false,
        ))
      ) {
        // Ctrl+F went to the view that had the focus a moment before (the Problems view's "focus filter" takes
        // Ctrl+F while the workbench still counts it as the focused view): focus the editor and press it once more.
        await this.focusEditor();
        await this.page.keyboard.press('Control+F');
        await input.waitFor({ timeout: STEP_TIMEOUT_MS });
      }
      // Exact, case-sensitive, literal text: Match Case on; whole word, regex and find-in-selection off.
      const toggles: Array<[string, boolean]> = [
        ['Match Case', true],
        ['Match Whole Word', false],
        ['Use Regular Expression', false],
        ['Find in Selection', false],
      ];
      for (const [label, wanted] of toggles) {
        const toggle = widget.locator(`.monaco-custom-toggle[aria-label^="${label}"]`).first();
        if ((await toggle.count()) > 0 && ((await toggle.getAttribute('aria-checked')) === 'true') !== wanted) await toggle.click();
      }
      // Cleared first: the widget keeps the last search, and filling in the same text again fires no change, so the
      // widget never moves to a match ("? of 1") when a test selects what an earlier one selected.
      await input.fill('');
      await input.fill(text);
      const count = widget.locator('.matchesCount');
      const total = await poll(async () => {
        const shown = (await count.innerText()).trim();
        if (/^No results/i.test(shown)) return 0;
        const match = /^(\d+) of (\d+)/.exec(shown);
        return match ? Number(match[2]) : undefined;
      }, STEP_TIMEOUT_MS);
      if (total < occurrence) {
        await this.page.keyboard.press('Escape');
        throw new Error(`the active editor has ${total} occurrence(s) of "${text}", wanted occurrence ${occurrence}`);
      }
      // Each Enter moves to the next match: wait for the status bar to leave the last one before the next press, so the
      // last wait below cannot take a lagging earlier match (same length) for the wanted one (seen under load).
      await this.waitForSelection((s) => s.selected === text.length, 'the first match selected');
      for (let i = 1; i < occurrence; i++) {
        const last = await this.selection();
        await this.page.keyboard.press('Enter');
        await this.waitForSelection(
          (s) => s.selected === text.length && (s.line !== last.line || s.column !== last.column),
          `match ${i + 1} selected, not the one at ${last.line}:${last.column}`,
        );
      }
      await poll(async () => ((await count.innerText()).trim().startsWith(`${occurrence} of`) ? true : undefined), STEP_TIMEOUT_MS);
      // Close the find widget; the match stays selected. Escape sometimes does not reach the widget (seen with
      // a webview in the same editor group), so fall back to its close button.
      await this.page.keyboard.press('Escape');
      const closedByEscape = await widget.waitFor({ state: 'hidden', timeout: 2000 }).then(
        () => true,
        () => false,
      );
      if (!closedByEscape) {
        await widget.locator('.codicon-widget-close, [aria-label^="Close"]').first().click();
        await widget.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
      }
      await this.waitForSelection((s) => s.selected === text.length, `${text.length} characters selected`);
    });
  }

  // ----- file dialogs -------------------------------------------------------------------------------

  async answerFileDialog(path: string): Promise<void> {
    await this.step(`answer the file dialog with ${path}`, async () => {
      // code-server shows VS Code's simple file dialog: a quick input that fills in its starting folder
      // (or default file name) asynchronously, sometimes in more than one go: type the answer once that
      // value has settled, and again if the dialog overwrote it.
      const input = this.quickInput().locator('input.input').first();
      await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
      let previous = '';
      await poll(
        async () => {
          const value = await input.inputValue();
          const settled = value !== '' && value === previous;
          previous = value;
          return settled ? true : undefined;
        },
        STEP_TIMEOUT_MS,
        300,
      ).catch(explainTimeout(() => new Error(`the dialog's input did not settle (it shows "${previous}")`)));
      let kept = false;
      for (let attempt = 0; attempt < 5 && !kept; attempt++) {
        await input.fill(path);
        await new Promise((r) => setTimeout(r, 300));
        kept = (await input.inputValue()) === path;
      }
      if (!kept) throw new Error(`the dialog kept replacing the typed path (it shows "${await input.inputValue()}")`);
      await this.page.keyboard.press('Enter');
      // Closed: accepted. Still open with a validation message (e.g. "Please enter a path that exists."): refused.
      const message = this.quickInput().locator('.quick-input-message');
      const refusal = await poll(async () => {
        if (await this.quickInput().isHidden()) return '';
        const shown = (await message.isVisible()) ? (await message.innerText()).trim() : '';
        return shown !== '' ? shown : undefined;
      }, STEP_TIMEOUT_MS).catch(explainTimeout(() => new Error(`the dialog stayed open without saying why`)));
      if (refusal !== '') throw new Error(`the dialog stayed open, saying "${refusal}"`);
    });
  }

  // ----- hovers and problems -------------------------------------------------------------------------

  async hover(at: string | { line: number; column: number }): Promise<string> {
    return (await this.hoverContent(at)).text;
  }

  async hoverContent(at?: string | { line: number; column: number }, options: { screenshot?: string } = {}): Promise<HoverContent> {
    await this.placeCursorForHover(at);
    return this.step(`read the hover at ${at === undefined ? 'the cursor' : JSON.stringify(at)}`, async () => {
      const { hover, text } = await this.showSettledHover();
      const links = await hover
        .locator('a')
        .evaluateAll((anchors) =>
          anchors
            .map((a) => ({ text: (a.textContent ?? '').trim(), href: a.getAttribute('data-href') || a.getAttribute('href') || '' }))
            .filter((link) => link.href !== ''),
        );
      if (options.screenshot !== undefined) await this.screenshot(options.screenshot);
      await this.page.keyboard.press('Escape');
      return { text, links };
    });
  }

  async clickHoverLink(at: string | { line: number; column: number } | undefined, text: string): Promise<void> {
    await this.placeCursorForHover(at);
    await this.step(`click "${text}" in the hover at ${at === undefined ? 'the cursor' : JSON.stringify(at)}`, async () => {
      const { hover } = await this.showSettledHover();
      const link = hover.locator('a', { hasText: text }).first();
      await link.waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
      await link.click();
      // As a person's pointer leaves the hover after the click: a hover under the pointer stays open.
      await this.page.mouse.move(0, 0);
      await hover.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS }).catch(() => this.page.keyboard.press('Escape'));
    });
  }

  private async placeCursorForHover(at: string | { line: number; column: number } | undefined): Promise<void> {
    if (typeof at === 'string') {
      await this.selectText(at);
      await this.page.keyboard.press('ArrowLeft'); // collapse to the start of the match
      await this.page.keyboard.press('ArrowRight'); // and step inside it
    } else if (at !== undefined) {
      await this.goTo(at.line, at.column);
    }
  }

  /** Shows the hover at the cursor (editor.action.showHover) and waits until its text stops changing. */
  private async showSettledHover(): Promise<{ hover: Locator; text: string }> {
    const hover = this.page.locator('.monaco-editor .monaco-hover:not(.hidden)').first();
    // The hover stays hidden while the cursor's line is scrolled out of view: a notebook cell revealed by the
    // Problems view can show its first lines only, the cursor's line under the panel (seen in the full e2e run).
    // The second try moves the cursor away and back (a selection collapsed to its start), which reveals it.
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+K');
      await this.page.keyboard.press('Control+I'); // editor.action.showHover
      const shown = await hover
        .waitFor({ state: 'visible', timeout: attempt === 1 ? HOVER_FIRST_TRY_MS : STEP_TIMEOUT_MS })
        .then(() => true)
        .catch((e: unknown) => {
          if (attempt > 1) throw e;
          return false;
        });
      if (shown) break;
      await this.page.keyboard.press('Escape');
      await this.page.keyboard.press('Shift+ArrowRight');
      await this.page.keyboard.press('ArrowLeft');
    }
    // The diagnostic's part shows at once, providers' parts when they answer: wait until the text settles.
    let previous = '';
    const text = await poll(
      async () => {
        const shown = (await hover.innerText()).trim();
        const settled = shown.length > 0 && !/^Loading/m.test(shown) && shown === previous;
        previous = shown;
        return settled ? shown : undefined;
      },
      STEP_TIMEOUT_MS,
      250,
    );
    return { hover, text };
  }

  /** Reads the rendered rows of the Problems view, scrolling through the whole list. */
  private async readProblemRows(): Promise<ProblemRow[]> {
    return (await this.readIndexedProblemRows()).map((entry) => entry.row);
  }

  /** The Problems view's rows with their list index (`data-index`), scrolling through the whole list. */
  private async readIndexedProblemRows(): Promise<Array<{ index: number; row: ProblemRow }>> {
    const list = this.page.locator('.markers-panel .monaco-list').first();
    if (!(await list.isVisible())) return []; // "No problems have been detected"
    const rows = new Map<number, ProblemRow | { resource: string } | { relatedLocation: RelatedRow }>();
    for (let page = 0; page < 200; page++) {
      const visible = await list.locator('.monaco-list-row').evaluateAll((elements) =>
        elements.map((row) => ({
          index: Number(row.getAttribute('data-index')),
          // The tree's levels: 1 a file, 2 a problem, 3 a problem's related information (not a problem).
          level: Number(row.getAttribute('aria-level') ?? '0'),
          last: row.getAttribute('data-last-element') === 'true',
          resource: row.querySelector('.marker-message') === null ? (row.querySelector('.label-name')?.textContent ?? '').trim() : undefined,
          label: (row.querySelector('.label-name')?.textContent ?? '').trim(),
          icon: row.querySelector('.marker-icon')?.className ?? '',
          message: (row.querySelector('.marker-message')?.textContent ?? '').trim(),
          source: (row.querySelector('.marker-source')?.textContent ?? '').trim(),
          code: (row.querySelector('.marker-code')?.textContent ?? '').trim(),
          codeLink: row.querySelector('.marker-code')?.closest('a')?.getAttribute('href') ?? '',
          position: (row.querySelector('.marker-line')?.textContent ?? '').trim(),
          relatedFile: (row.querySelector('.related-info-resource')?.textContent ?? '').trim(),
          relatedMessage: (row.querySelector('.marker-description')?.textContent ?? '').trim(),
        })),
      );
      for (const row of visible) {
        if (row.level >= 3) {
          const at = /Ln (\d+), Col (\d+)/.exec(row.position);
          const related = {
            file: row.relatedFile,
            line: Number(at?.[1] ?? 0),
            column: Number(at?.[2] ?? 0),
            message: row.relatedMessage,
          };
          rows.set(row.index, { relatedLocation: related });
          continue;
        }
        if (row.level === 1 || (row.level === 0 && row.resource !== undefined)) {
          rows.set(row.index, { resource: row.resource ?? row.label ?? '' });
          continue;
        }
        const position = /Ln (\d+), Col (\d+)/.exec(row.position);
        rows.set(row.index, {
          file: '',
          severity: severityOf(row.icon),
          message: row.message,
          ...(row.code ? { code: row.code.replace(/^\(|\)$/g, '') } : {}),
          ...(row.source ? { source: row.source } : {}),
          line: Number(position?.[1] ?? 0),
          column: Number(position?.[2] ?? 0),
          ...(row.codeLink ? { codeLink: row.codeLink } : {}),
        });
      }
      if (visible.length === 0 || visible.some((row) => row.last)) break;
      await list.hover();
      await this.page.mouse.wheel(0, 400);
    }
    let file = '';
    const problems: Array<{ index: number; row: ProblemRow }> = [];
    for (const index of [...rows.keys()].sort((a, b) => a - b)) {
      const row = rows.get(index)!;
      if ('relatedLocation' in row) {
        // A related location's row follows its problem's (and the problem's earlier related rows).
        const owner = problems.at(-1)?.row;
        if (owner) owner.related = [...(owner.related ?? []), row.relatedLocation];
        continue;
      }
      if ('resource' in row) file = row.resource;
      else problems.push({ index, row: { ...row, file } });
    }
    return problems;
  }

  private async showProblemsView(): Promise<void> {
    if (!(await this.page.locator('.markers-panel').isVisible())) {
      await this.runCommand('Problems: Focus on Problems View');
      // The command moves the focus into the view (its filter box) a moment after the view shows; wait for that,
      // so that it cannot take the focus from an editor the test clicks next.
      await poll(
        async () => ((await this.page.evaluate(() => document.activeElement?.closest('.part.panel') != null)) ? true : undefined),
        STEP_TIMEOUT_MS,
      ).catch(() => undefined); // a view that never takes the focus is still readable
    }
    await this.page.locator('.markers-panel').waitFor({ timeout: STEP_TIMEOUT_MS });
  }

  async problems(): Promise<ProblemRow[]> {
    await this.showProblemsView();
    return this.step('read the Problems view', () => this.readProblemRows());
  }

  async waitForProblems(accept: (rows: ProblemRow[]) => boolean, description: string, timeoutMs = STEP_TIMEOUT_MS): Promise<ProblemRow[]> {
    await this.showProblemsView();
    let last: ProblemRow[] = [];
    return this.step(`see ${description} in the Problems view`, () =>
      poll(
        async () => {
          last = await this.readProblemRows();
          return accept(last) ? last : undefined;
        },
        timeoutMs,
        300,
      ).catch(explainTimeout(() => new Error(`after ${timeoutMs} ms it shows ${JSON.stringify(last)}`))),
    );
  }

  async openProblem(accept: (row: ProblemRow) => boolean, description: string): Promise<ProblemRow> {
    await this.showProblemsView();
    return this.step(`open the problem ${description}`, async () => {
      const rows = await this.readIndexedProblemRows();
      const found = rows.find((entry) => accept(entry.row));
      if (found === undefined) throw new Error(`no row of the Problems view is ${description} (it shows ${JSON.stringify(rows.map((entry) => entry.row))})`);
      // The list renders only the rows in view: scroll from the top until this one is rendered.
      const list = this.page.locator('.markers-panel .monaco-list').first();
      const element = list.locator(`.monaco-list-row[data-index="${found.index}"]`);
      await list.hover();
      await this.page.mouse.wheel(0, -100_000);
      for (let page = 0; page < 200 && !(await element.isVisible()); page++) await this.page.mouse.wheel(0, 200);
      await element.click();
      await this.page.keyboard.press('Enter'); // opens the problem with the focus in its editor
      const { file, line, column } = found.row;
      const tab = this.page.locator(`.editor-group-container.active .tab.active[data-resource-name="${file.replace(/["\\]/g, '\\$&')}"]`);
      await tab.waitFor({ timeout: STEP_TIMEOUT_MS });
      await poll(async () => {
        const focusedEditor = await this.page.evaluate(() => document.activeElement?.closest('.monaco-editor') != null);
        if (!focusedEditor) return undefined;
        if (await this.notebookCell()) return true; // a cell editor: the status bar names the cell, not the line
        const at = await this.selection().catch(() => undefined);
        return at !== undefined && at.line === line && at.column === column ? true : undefined;
      }, STEP_TIMEOUT_MS).catch(explainTimeout(() => new Error(`its editor did not take the focus at ${line}:${column}`)));
      return found.row;
    });
  }

  // ----- quick fixes -------------------------------------------------------------------------------

  /** The Quick Fix menu's enabled entries. */
  private quickFixRows() {
    return this.page.locator('.action-widget .monaco-list-row.action:not(.option-disabled)');
  }

  /** Opens the Quick Fix menu (Ctrl+.) at a position or at the cursor; returns its titles once they settle, [] for none. */
  private async openQuickFixMenu(at: { line: number; column: number } | undefined): Promise<string[]> {
    if (at !== undefined) await this.goTo(at.line, at.column);
    await this.page.keyboard.press('Control+.');
    const none = this.page.locator('.monaco-editor-overlaymessage', { hasText: /No code actions|No quick fixes/i });
    let previous = '';
    return poll(
      async () => {
        if (await none.isVisible()) return [];
        const titles = await this.quickFixRows().evaluateAll((rows) =>
          rows.filter((row) => (row as HTMLElement).offsetParent !== null).map((row) => (row.querySelector('.title')?.textContent ?? '').trim()),
        );
        const key = JSON.stringify(titles);
        const settled = titles.length > 0 && key === previous;
        previous = key;
        return settled ? titles : undefined;
      },
      STEP_TIMEOUT_MS,
      250,
    ).catch(explainTimeout(() => new Error('neither the Quick Fix menu nor "No code actions available" showed')));
  }

  private async closeQuickFixMenu(): Promise<void> {
    if ((await this.quickFixRows().count()) === 0) return;
    await this.page.keyboard.press('Escape');
    await this.quickFixRows().first().waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
  }

  async quickFixes(at?: { line: number; column: number }): Promise<string[]> {
    return this.step(`list the quick fixes at ${at === undefined ? 'the cursor' : `${at.line}:${at.column}`}`, async () => {
      const titles = await this.openQuickFixMenu(at);
      await this.closeQuickFixMenu();
      return titles;
    });
  }

  async quickFix(at: { line: number; column: number } | undefined, title: string | RegExp, options: { screenshot?: string } = {}): Promise<string[]> {
    return this.step(
      `apply the quick fix ${typeof title === 'string' ? `"${title}"` : title} at ${at === undefined ? 'the cursor' : `${at.line}:${at.column}`}`,
      async () => {
        const wanted = (t: string) => (typeof title === 'string' ? t === title : title.test(t));
        // Under load (another code-server, a test tier beside) the menu can come up without the entry (the
        // extension's actions not in yet: other entries, or "No code actions available") or not at all (Ctrl+.
        // lost while the editor was busy). Open it again until the entry is there, within three steps' time;
        // fail with what it listed last.
        const deadline = Date.now() + 3 * STEP_TIMEOUT_MS;
        const open = async (): Promise<string[]> => {
          try {
            return await this.openQuickFixMenu(at);
          } catch (error) {
            if (Date.now() >= deadline) throw error;
            return [];
          }
        };
        let titles = await open();
        while (!titles.some(wanted) && Date.now() < deadline) {
          await this.closeQuickFixMenu();
          await this.page.keyboard.press('Escape'); // the "No code actions available" message, if shown
          await this.page.waitForTimeout(1000);
          titles = await open();
        }
        if (options.screenshot !== undefined) await this.screenshot(options.screenshot);
        const index = titles.findIndex(wanted);
        if (index < 0) {
          await this.closeQuickFixMenu();
          throw new Error(`the Quick Fix menu offers no such entry (it lists: ${titles.join(' | ') || 'nothing'})`);
        }
        await this.quickFixRows().nth(index).click();
        await this.quickFixRows().first().waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
        return titles;
      },
    );
  }

  // ----- typing, saving, notebooks ---------------------------------------------------------------------

  /** Closes the suggestion widget if it is open (Enter would accept a suggestion instead of breaking the line). */
  private async closeSuggestions(): Promise<void> {
    const suggest = this.page.locator('.editor-widget.suggest-widget.visible');
    if (await suggest.isVisible()) {
      await this.page.keyboard.press('Escape');
      await suggest.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
    }
  }

  async typeText(text: string): Promise<void> {
    await this.step(`type ${JSON.stringify(text)}`, async () => {
      const focused = await this.page.evaluate(() => document.activeElement?.closest('.monaco-editor') != null);
      if (!focused) throw new Error('no editor has the keyboard focus; put the cursor there with goTo(line, column) first');
      const start = await this.selection();
      const lines = text.split('\n');
      for (const [i, line] of lines.entries()) {
        if (i > 0) {
          await this.closeSuggestions();
          await this.page.keyboard.press('Enter');
        }
        if (line.length > 0) await this.page.keyboard.type(line);
      }
      await this.closeSuggestions();
      const last = lines[lines.length - 1];
      const endLine = start.line + lines.length - 1;
      // On one line the cursor moves by exactly the typed length (auto-closed brackets are typed over);
      // after a line break, auto-indentation may come before the typed text.
      await this.waitForSelection(
        (s) => s.line === endLine && s.selected === 0 && (lines.length === 1 ? s.column === start.column + last.length : s.column >= last.length + 1),
        `the cursor on line ${endLine} after the typed text`,
      );
    });
  }

  async dirty(): Promise<boolean> {
    const tab = this.page.locator('.editor-group-container.active .tab.active').first();
    await tab.waitFor({ timeout: STEP_TIMEOUT_MS });
    return /\bdirty\b/.test((await tab.getAttribute('class')) ?? '');
  }

  async save(): Promise<void> {
    await this.runCommand('File: Save');
    await this.step('see the active editor saved', () =>
      poll(async () => ((await this.dirty()) ? undefined : true), STEP_TIMEOUT_MS).catch(
        explainTimeout(() => new Error('its tab still shows unsaved changes')),
      ),
    );
  }

  async notebookCell(): Promise<NotebookCellPosition | undefined> {
    const item = this.page.locator('[id="notebook.activeCellStatus"]');
    if (!(await item.isVisible())) return undefined;
    const match = /Cell (\d+) of (\d+)/.exec((await item.getAttribute('aria-label')) ?? (await item.innerText()));
    return match ? { cell: Number(match[1]), cells: Number(match[2]) } : undefined;
  }

  // ----- settings --------------------------------------------------------------------------------------

  /** The user settings.json of this workbench's profile. */
  private get userSettingsFile(): string {
    return join(this.profile.userDataDir, 'User', 'settings.json');
  }

  /** The editor of the user settings.json (its URI is vscode-remote: or vscode-userdata:, so match the end). */
  private settingsEditor() {
    return this.page.locator('.monaco-editor[data-uri$="/User/settings.json"]');
  }

  private readUserSettings(): Record<string, unknown> {
    const text = readFileSync(this.userSettingsFile, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`${this.userSettingsFile} is not plain JSON (${error instanceof Error ? error.message : error}); setSetting edits JSON without comments`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${this.userSettingsFile} does not hold a JSON object`);
    return parsed as Record<string, unknown>;
  }

  /**
   * Replaces the content of the open settings.json editor with `settings` as one pasted line (a paste is one
   * edit, and one line is not re-indented; typing it would take seconds), saves it, and waits until the file
   * on disk holds exactly that and `applied()` holds.
   */
  private async saveUserSettings(settings: Record<string, unknown>, applied: () => Promise<boolean>): Promise<void> {
    const text = JSON.stringify(settings);
    const editor = this.settingsEditor().first();
    await editor.waitFor({ timeout: STEP_TIMEOUT_MS });
    await editor.locator('.view-lines').click();
    await this.page.keyboard.press('Control+A');
    const pasted = await editor.evaluate((element, content) => {
      const target = document.activeElement;
      if (target === null || !element.contains(target)) return false;
      const data = new DataTransfer();
      data.setData('text/plain', content);
      target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      return true;
    }, text);
    if (!pasted) throw new Error('the settings.json editor did not take the keyboard focus');
    await this.page.keyboard.press('Control+S');
    await poll(
      async () => {
        const dialog = await this.modalDialogText();
        if (dialog !== undefined) throw new Error(`the workbench asks: "${dialog}" (close it with dismissDialog())`);
        return readFileSync(this.userSettingsFile, 'utf8') === text && (await applied()) ? true : undefined;
      },
      STEP_TIMEOUT_MS,
      100,
    ).catch(
      explainTimeout(
        () =>
          new Error(`the saved settings were not applied (settings.json holds ${JSON.stringify(readFileSync(this.userSettingsFile, 'utf8').slice(0, 300))})`),
      ),
    );
  }

  async setSetting(key: string, value: unknown): Promise<void> {
    if (key === SETTINGS_PROBE_KEY)
      throw new Error(`setSetting(key) cannot set ${SETTINGS_PROBE_KEY}: the driver uses it to see when saved settings are applied`);
    await this.step(`set the setting ${key} to ${JSON.stringify(value)}`, async () => {
      const settings = this.readUserSettings();
      if (value === undefined) delete settings[key];
      else settings[key] = value;
      await this.runCommand('Preferences: Open User Settings (JSON)');
      // code-server does not notice settings.json changed on disk behind its back, so the file is edited in
      // the workbench. It applies a saved settings.json asynchronously; a window title saved along with the
      // change shows when it has (the page's title follows window.title), and saving again without it
      // leaves the file as asked. The title is not in the screenshots.
      const probe = `attention-inspector-e2e settings ${++settingsSaves}`;
      await this.saveUserSettings({ ...settings, [SETTINGS_PROBE_KEY]: probe }, async () => (await this.page.title()) === probe);
      await this.saveUserSettings(settings, async () => (await this.page.title()) !== probe);
      // Close the settings editor: a modal editor closes with Escape, a tab with View: Close Editor.
      const editor = this.settingsEditor();
      await this.page.keyboard.press('Escape');
      const closed = await editor
        .first()
        .waitFor({ state: 'detached', timeout: 2000 })
        .then(
          () => true,
          () => false,
        );
      if (!closed) {
        await this.runCommand('View: Close Editor');
        await editor.first().waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
      }
      // A modal editor leaves the rest of the page inert while it closes; the next step waits for the page.
      await this.page.waitForFunction(() => document.querySelector('[inert]') === null, undefined, { timeout: 5_000 }).catch(() => undefined);
    });
  }

  // ----- notifications and dialogs -------------------------------------------------------------------

  /** The toasts on screen (or the center's items when it is open), without changing anything. */
  private async visibleNotifications(): Promise<Notification[]> {
    const dialog = this.page.locator('.monaco-dialog-box');
    const found: Notification[] = [];
    if (await dialog.isVisible()) {
      const icon = (await dialog.locator('.dialog-icon').getAttribute('class')) ?? '';
      const parts = await dialog.locator('.dialog-message-text, .dialog-message-detail').allInnerTexts();
      found.push({
        severity: severityOf(icon.replace('codicon-dialog-', '')),
        message: parts
          .map((p) => p.trim())
          .filter(Boolean)
          .join('\n'),
        source: '',
        buttons: (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((b) => b.trim()),
        modal: true,
      });
    }
    const items = await this.page
      .locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item')
      .evaluateAll((elements) =>
        elements
          .filter((item) => (item as HTMLElement).offsetParent !== null)
          .map((item) => ({
            icon: item.querySelector('.notification-list-item-icon')?.className ?? '',
            message: (item.querySelector('.notification-list-item-message')?.textContent ?? '').trim(),
            source: (item.querySelector('.notification-list-item-source')?.textContent ?? '').trim(),
            buttons: [...item.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map((b) => (b.textContent ?? '').trim()),
          })),
      );
    for (const item of items) {
      found.push({
        severity: severityOf(item.icon.replace('codicon-', '')),
        message: item.message,
        source: item.source.replace(/^Source: /, ''),
        buttons: item.buttons,
        modal: false,
      });
    }
    return found;
  }

  async notifications(): Promise<Notification[]> {
    if (await this.page.locator('.monaco-dialog-box').isVisible()) return this.visibleNotifications();
    return this.step('read the notification center', async () => {
      const center = this.page.locator('.notifications-center');
      const wasOpen = await center.isVisible();
      if (!wasOpen) await this.runCommand('Notifications: Show Notifications');
      await center.waitFor({ timeout: STEP_TIMEOUT_MS });
      const found = await this.visibleNotifications();
      if (!wasOpen) await this.runCommand('Notifications: Hide Notifications');
      return found;
    });
  }

  async waitForNotification(message: string | RegExp, timeoutMs = STEP_TIMEOUT_MS): Promise<Notification> {
    const matches = (n: Notification) => (typeof message === 'string' ? n.message.includes(message) : message.test(n.message));
    // A toast without buttons is hidden by the workbench after 15-20 s (its purge timer); on a loaded machine the
    // step before this one can outlast that, so a message no toast shows any more is looked for in the notification
    // center, where the workbench keeps every notification it showed.
    return this.step(`see a notification ${typeof message === 'string' ? `"${message}"` : message}`, () =>
      poll(async () => (await this.visibleNotifications()).find(matches), timeoutMs, 200).catch(async (error: unknown) => {
        if (!(error instanceof PollTimeout)) throw error;
        const seen = await this.notifications();
        const kept = seen.find(matches);
        if (kept) return kept;
        throw new Error(`not within ${timeoutMs} ms; the workbench shows ${JSON.stringify(seen.map((n) => n.message))}`);
      }),
    );
  }

  async expandNotification(message: string | RegExp): Promise<void> {
    await this.step(`expand the notification ${typeof message === 'string' ? `"${message}"` : message}`, async () => {
      const toast = this.page
        .locator('.notifications-toasts .notification-list-item')
        .filter({ has: this.page.locator('.notification-list-item-message', { hasText: message }) })
        .first();
      await toast.waitFor({ timeout: STEP_TIMEOUT_MS });
      const toggle = toast.locator('.notification-list-item-toolbar-container .codicon-notifications-expand');
      // The toggle (a chevron) is drawn only while the pointer is over the toast, and only for a message cut short;
      // the toast re-renders as others arrive. So: hover, click the toggle through its DOM event (the action bar's
      // click listener runs the action whether or not the chevron is drawn yet), until the toast says it expanded.
      await poll(
        async () => {
          const expanded = await toast.evaluate((item) => item.classList.contains('expanded'), undefined, { timeout: 2000 }).catch(() => false);
          if (expanded) return true;
          if ((await toggle.count()) === 0) return true; // nothing cut short
          await toast.hover({ timeout: 2000 }).catch(() => undefined);
          await toggle
            .first()
            .dispatchEvent('click', undefined, { timeout: 2000 })
            .catch(() => undefined);
          return undefined;
        },
        STEP_TIMEOUT_MS,
        300,
      );
    });
  }

  async dismissDialog(button?: string): Promise<void> {
    await this.step(`dismiss the dialog${button ? ` with "${button}"` : ''}`, async () => {
      const dialog = this.page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: STEP_TIMEOUT_MS });
      if (button === undefined) await this.page.keyboard.press('Escape');
      else await dialog.locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^${escapeRegExp(button)}$`) }).click();
      await dialog.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
    });
  }

  // ----- webviews ------------------------------------------------------------------------------------

  /** The inner frame (the webview's own document) of the visible webview. */
  private async webviewDocument(): Promise<Frame> {
    const outer = await this.page.locator(`${WEBVIEW_IFRAME}:visible`).first().elementHandle({ timeout: STEP_TIMEOUT_MS });
    const outerFrame = await outer.contentFrame();
    if (outerFrame === null) throw new Error('the webview iframe has no document');
    const inner = await (await outerFrame.waitForSelector('#active-frame', { timeout: STEP_TIMEOUT_MS })).contentFrame();
    if (inner === null) throw new Error("the webview's #active-frame has no document");
    return inner;
  }

  async webviewFrame(timeoutMs = STEP_TIMEOUT_MS): Promise<Webview> {
    const frameLocator = this.page.locator(`${WEBVIEW_IFRAME}:visible`).first().contentFrame().locator('#active-frame').contentFrame();
    await this.step('find the visible webview', async () => {
      await frameLocator.locator('body').waitFor({ timeout: timeoutMs });
    });
    const webview: Webview = {
      locator: (selector) => frameLocator.locator(selector),
      text: () => frameLocator.locator('body').innerText(),
      waitForText: (text, waitMs = STEP_TIMEOUT_MS) =>
        this.step(`see ${typeof text === 'string' ? `"${text}"` : text} in the webview`, async () => {
          let last = '';
          await poll(
            async () => {
              last = await frameLocator.locator('body').innerText();
              return (typeof text === 'string' ? last.includes(text) : text.test(last)) ? true : undefined;
            },
            waitMs,
            200,
          ).catch(explainTimeout(() => new Error(`after ${waitMs} ms the webview shows ${JSON.stringify(last.slice(0, 300))}`)));
        }),
      evaluate: async <R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> =>
        // Playwright serialises arg into the page; the cast drops its Unboxed<A> bookkeeping.
        (await this.webviewDocument()).evaluate(fn as (arg: unknown) => R | Promise<R>, arg as unknown),
      screenshot: async (name) => {
        mkdirSync(artifactsDir, { recursive: true });
        const path = join(artifactsDir, `${slug(name)}.png`);
        await this.page.locator(`${WEBVIEW_IFRAME}:visible`).first().screenshot({ path });
        return path;
      },
    };
    return webview;
  }

  // ----- the extension host --------------------------------------------------------------------------

  async installedExtensions(): Promise<InstalledExtension[]> {
    return this.step('list the installed extensions', async () => {
      await this.runCommand('Extensions: Show Installed Extensions');
      const rows = this.page.locator('.extensions-viewlet .monaco-list-row');
      await rows.locator('.extension-list-item').first().waitFor({ timeout: STEP_TIMEOUT_MS });
      // aria-label: "<display name>, <version>, Publisher <publisher>, <description>"
      const read = (): Promise<InstalledExtension[]> =>
        rows.evaluateAll((elements) =>
          elements.map((row) => ({
            displayName: (row.querySelector('.extension-list-item .name')?.textContent ?? '').trim(),
            publisher: (row.querySelector('.extension-list-item .publisher-name')?.textContent ?? '').trim(),
            version: (row.getAttribute('aria-label') ?? '').split(', ')[1] ?? '',
          })),
        );
      // The view re-renders its list while the extension scan settles (a first row can be replaced by an empty
      // list for a moment): the answer is the first non-empty listing that two reads 300 ms apart agree on.
      let previous = '';
      return poll(
        async () => {
          const listed = await read();
          const key = JSON.stringify(listed);
          const settled = listed.length > 0 && listed.every((e) => e.displayName !== '') && key === previous;
          previous = key;
          return settled ? listed : undefined;
        },
        STEP_TIMEOUT_MS,
        300,
      ).catch(explainTimeout(async () => new Error(`the Extensions view did not settle on a list of installed extensions; last read: ${previous}`)));
    });
  }

  async activation(extensionId = this.extensionId): Promise<Activation | undefined> {
    const pattern = new RegExp(`ExtensionService#_doActivateExtension ${escapeRegExp(extensionId)}, startup: \\w+, activationEvent: '([^']*)'`, 'i');
    const match = pattern.exec(this.server.extensionHostLog());
    return match ? { extensionId, activationEvent: match[1] } : undefined;
  }

  async extensionHostErrors(extensionId = this.extensionId): Promise<string[]> {
    const lines = this.server.extensionHostLog().split('\n');
    const id = extensionId.toLowerCase();
    const errors: string[] = [];
    lines.forEach((line, i) => {
      if (/\[error\]/.test(line) && line.toLowerCase().includes(id))
        errors.push([line, ...lines.slice(i + 1, i + 4).filter((l) => !/^\d{4}-\d\d-\d\d /.test(l))].join('\n'));
    });
    return errors;
  }

  async extensionHostConsole(): Promise<ConsoleMessage[]> {
    return [...this.hostConsole];
  }

  async waitForActivation(extensionId = this.extensionId, timeoutMs = STEP_TIMEOUT_MS): Promise<Activation> {
    return this.step(`see ${extensionId} activate`, async () => {
      return poll(
        async () => {
          const failed = (await this.extensionHostErrors(extensionId)).find((line) => /Activating extension .* failed/i.test(line));
          if (failed) throw new Error(`its activation failed: ${failed}`);
          return this.activation(extensionId);
        },
        timeoutMs,
        250,
      ).catch(explainTimeout(() => new Error(`it did not activate within ${timeoutMs} ms`)));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await Promise.race([this.browser.close(), new Promise((r) => setTimeout(r, 10_000))]);
    } finally {
      await this.server.stop();
      await this.cleanup?.();
    }
  }
}
