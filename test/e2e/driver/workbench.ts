// The interface e2e tests talk to. Tests use only this, never Playwright or code-server directly, so that
// another driver (for example one on @vscode/test-electron, where VS Code can be downloaded) can be slotted
// in without touching the tests. See test/e2e/README.md.
import type { Locator } from 'playwright-core';

export type Severity = 'error' | 'warning' | 'info';

/** One row of the Problems view. */
export interface ProblemRow {
  /** The file's name as the Problems view shows it (e.g. `attention_bug.py`). */
  file: string;
  severity: Severity;
  message: string;
  /** e.g. `ATT001`, when the diagnostic has a code. */
  code?: string;
  /** e.g. `attention-inspector`, when the diagnostic has a source. */
  source?: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** Where the code links to (e.g. a rule page's URI), when the diagnostic's code has a target. */
  codeLink?: string;
  /** The related locations shown under the problem (its expanded children), in order; absent when none show. */
  related?: RelatedRow[];
}

/** A related location as the Problems view shows it under its problem: `model.py [Ln 22, Col 28]: message`. */
export interface RelatedRow {
  /** The file's name as the row shows it (e.g. `train.py`; its folder shows only in the row's hover). */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  message: string;
}

/** A link in a hover: its text and where it points. */
export interface HoverLink {
  text: string;
  /** The link target as the workbench holds it (e.g. `vscode-remote://…/docs/rules/ATT001-softmax-dim.md`). */
  href: string;
}

/** What a hover shows. */
export interface HoverContent {
  /** Its visible text (all sections: the diagnostic, the providers' Markdown, the status bar). */
  text: string;
  /** Its links, in order. */
  links: HoverLink[];
}

/** The notebook cell that has the focus, as the status bar says ("Cell 3 of 4"). */
export interface NotebookCellPosition {
  /** 1-based index of the active cell. */
  cell: number;
  /** Number of cells in the notebook. */
  cells: number;
}

/** A notification toast, an item of the notification center, or a modal dialog. */
export interface Notification {
  severity: Severity;
  message: string;
  /** The extension that showed it ('' when the workbench shows none). */
  source: string;
  buttons: string[];
  /** A modal dialog (blocks the workbench until dismissed with dismissDialog). */
  modal: boolean;
}

/** Where the editor's cursor is and how much is selected, as the status bar says. */
export interface EditorSelection {
  /** 1-based line of the cursor (the active end of the selection). */
  line: number;
  /** 1-based column of the cursor. */
  column: number;
  /** Number of selected characters (0: just a cursor). */
  selected: number;
}

/** An installed extension, as its manifest names it. */
export interface InstalledExtension {
  /** `displayName` from its package.json. */
  displayName: string;
  publisher: string;
  version: string;
}

/** An extension's activation as the extension host recorded it. */
export interface Activation {
  extensionId: string;
  /** e.g. `onLanguage:python`. */
  activationEvent: string;
}

/** A line an extension wrote to the extension host's console (console.log, .warn, .error, ...). */
export interface ConsoleMessage {
  /** The console method: 'log', 'info', 'warning', 'error', 'debug', ... */
  type: string;
  text: string;
}

/** The visible webview panel (UI-level: a driver without DOM access cannot offer it). */
export interface Webview {
  /** A Playwright locator inside the webview's document. */
  locator(selector: string): Locator;
  /** The document's visible text. */
  text(): Promise<string>;
  /** Waits until the document's text contains `text` (or matches it). */
  waitForText(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Runs `fn(arg)` in the webview's document (e.g. to read canvas pixels). */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** A screenshot of the panel alone, saved as test-artifacts/e2e/<name>.png; returns the path. */
  screenshot(name: string): Promise<string>;
}

/** A running VS Code with one folder open. Every method waits for its effect; none sleeps blindly. */
export interface Workbench {
  /** The folder the workbench has open (absolute). */
  readonly folder: string;

  /** Opens a file of the folder (path relative to it) and waits until its tab is active. */
  openFile(relativePath: string): Promise<void>;
  /** Selects the `occurrence`-th (1-based) exact, case-sensitive match of one-line `text` in the active editor. */
  selectText(text: string, occurrence?: number): Promise<void>;
  /** Selects line `line` (1-based) of the active editor, from its first column to its end. */
  selectLine(line: number): Promise<void>;
  /** Selects lines `from`..`to` (1-based, inclusive) of the active editor. */
  selectLines(from: number, to: number): Promise<void>;
  /** Puts the cursor at `line`:`column` (1-based) of the active editor. */
  goTo(line: number, column?: number): Promise<void>;
  /** The active editor's cursor and selection size. */
  selection(): Promise<EditorSelection>;

  /** Runs a command by its palette title, e.g. "Attention Inspector: Inspect Selection". */
  runCommand(title: string): Promise<void>;
  /** The titles the command palette lists for `query`. */
  commandTitles(query: string): Promise<string[]>;

  /**
   * Clicks the status bar entry whose text contains `text` (or matches it), e.g. an extension's item that opens
   * a menu; returns the entry's text.
   */
  clickStatusBarItem(text: string | RegExp): Promise<string>;
  /**
   * Picks the row whose label is exactly `label` in the quick pick a command (or status bar item) opened, and
   * waits until the quick pick has closed or moved on; returns the quick pick's title.
   */
  pickQuickItem(label: string): Promise<string>;

  /** Answers the open/save file dialog a command has opened with an absolute path; waits until it closes. */
  answerFileDialog(path: string): Promise<void>;

  /** The visible webview panel, once it has a document. */
  webviewFrame(timeoutMs?: number): Promise<Webview>;
  /** Saves a screenshot of the whole window as test-artifacts/e2e/<name>.png; returns the path. */
  screenshot(name: string): Promise<string>;

  /** The rows of the Problems view (opens it). */
  problems(): Promise<ProblemRow[]>;
  /** Waits until the Problems view's rows satisfy `accept`; returns them. */
  waitForProblems(accept: (rows: ProblemRow[]) => boolean, description: string, timeoutMs?: number): Promise<ProblemRow[]>;
  /** The hover text at the first occurrence of `text` (or at a 1-based position) in the active editor. */
  hover(at: string | { line: number; column: number }): Promise<string>;
  /**
   * The hover's text and links at `at` (as for hover), or at the cursor of the focused editor when `at` is
   * undefined; `screenshot` names a screenshot taken while the hover shows.
   */
  hoverContent(at?: string | { line: number; column: number }, options?: { screenshot?: string }): Promise<HoverContent>;
  /** Shows the hover at `at` (as for hover; the cursor when undefined) and clicks its first link whose text contains `text`. */
  clickHoverLink(at: string | { line: number; column: number } | undefined, text: string): Promise<void>;
  /**
   * Clicks the first Problems row that `accept` takes, as a person does to reveal it, and waits until its
   * editor is active (and, in a text editor, the cursor is at the row's position); returns the row.
   */
  openProblem(accept: (row: ProblemRow) => boolean, description: string): Promise<ProblemRow>;

  /** The titles the Quick Fix menu (Ctrl+.) offers at a 1-based position, or at the cursor; [] when none. */
  quickFixes(at?: { line: number; column: number }): Promise<string[]>;
  /**
   * Opens the Quick Fix menu at a position (or at the cursor) and applies the entry whose title is `title`
   * (or matches it); fails listing what the menu offers when none does. Returns the offered titles.
   * Waits until the menu has closed: the edit lands asynchronously, so wait for its effect (e.g. the Problems
   * view). `screenshot` names a screenshot taken while the menu shows.
   */
  quickFix(at: { line: number; column: number } | undefined, title: string | RegExp, options?: { screenshot?: string }): Promise<string[]>;

  /** Types `text` at the cursor of the focused editor, key by key (`\n` presses Enter); waits for the cursor. */
  typeText(text: string): Promise<void>;
  /** Whether the active editor has unsaved changes (its tab says so). */
  dirty(): Promise<boolean>;
  /** File: Save on the active editor; waits until it has no unsaved changes. */
  save(): Promise<void>;
  /** The active notebook cell ("Cell N of M" in the status bar), or undefined when no notebook cell is active. */
  notebookCell(): Promise<NotebookCellPosition | undefined>;

  /**
   * Sets a user setting the way a person edits settings.json (Preferences: Open User Settings (JSON), edit,
   * save), keeping the other settings; `undefined` removes it. Waits until the workbench has applied the
   * saved file, and fails with its message if the change asks for a reload.
   */
  setSetting(key: string, value: unknown): Promise<void>;

  /** Notifications: the toasts and the notification center's items, or the modal dialog if one is open. */
  notifications(): Promise<Notification[]>;
  /** Waits for a notification (toast or dialog) whose message contains `message` (or matches it). */
  waitForNotification(message: string | RegExp, timeoutMs?: number): Promise<Notification>;
  /** Shows the whole message of the toast whose message contains `message` (its expand toggle), when it is cut short. */
  expandNotification(message: string | RegExp): Promise<void>;
  /** Closes the modal dialog by clicking `button`, or with Escape when no button is named. */
  dismissDialog(button?: string): Promise<void>;

  /** The installed extensions that are not built in, as the Extensions view lists them. */
  installedExtensions(): Promise<InstalledExtension[]>;
  /** The extension's activation, or undefined while it is not active. Default: this extension. */
  activation(extensionId?: string): Promise<Activation | undefined>;
  /** Waits until the extension is active; throws with the host's error if its activation failed. */
  waitForActivation(extensionId?: string, timeoutMs?: number): Promise<Activation>;
  /** Error lines the extension host logged about the extension (activation failures, uncaught errors). */
  extensionHostErrors(extensionId?: string): Promise<string[]>;
  /** What extensions wrote to the extension host's console since the window opened (all extensions, in order). */
  extensionHostConsole(): Promise<ConsoleMessage[]>;

  /** Developer: Reload Window; waits for the new workbench and its new extension host. */
  reloadWindow(): Promise<void>;

  /** Stops the browser and the server (their whole process groups). Safe to call twice. */
  close(): Promise<void>;
}
