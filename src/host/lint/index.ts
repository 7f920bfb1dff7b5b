// Editor integration of the attention linter: diagnostics on Python files and notebook cells (updated as
// the user types, debounced), code links to the rule pages, hovers, quick fixes (each labelled with its
// safety; none is offered to source.fixAll), `# noqa` actions, settings, and the Lint Workspace command.
//
// The linting itself runs in a worker thread (dist/lint-worker.js), so a long lint never blocks the
// extension host. Activation only registers listeners; the worker (tree-sitter in WebAssembly, from the
// grammar files shipped in media/) starts on the first lint. At most one lint per document is in flight;
// an answer for a document that changed meanwhile is dropped (the next lint publishes). A worker that
// crashes or hangs is replaced on the next lint and the failure logged once.
import * as vscode from 'vscode';
// Rules, docs and types only: the parser (web-tree-sitter) lives in the lint worker's bundle, not the host's.
import { rulePageFileName } from '../../lint/docs';
import { notAnalysedFinding } from '../../lint/engine';
import type { NotebookCell } from '../../lint/notebook';
import { RULES, ruleByCode } from '../../lint/rules';
import { isRuleCode, type Finding, type RuleCode } from '../../lint/types';
import { isLinterStartError, LintClientDisposedError, LintWorkerClient, LintWorkerRestartedError } from '../../worker/lint-client';
import type { LintAnswer, LintRequests, LintRequestType, LintWorkspaceRef } from '../../protocol/lint';
import { DependentIndex } from './dependents';
import { localised, localisedHover, localisedSummary } from './l10n';
import { judgeFinding, runtimeEvidence, type Judgement } from './runtime-evidence';
import {
  debounceMs,
  editorSeverity,
  isLintableDocument,
  relatedTargets,
  LatestPerKey,
  MAX_WORKSPACE_FILE_BYTES,
  noqaEdit,
  readLintSettings,
  WORKSPACE_EXCLUDE,
  WORKSPACE_INCLUDE,
  type LintSettings,
} from './pure';
import { localisedRuntime } from '../record/runtime-l10n';

const SOURCE = 'attention-inspector';
const SEVERITY: Record<string, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/** A diagnostic with the finding it came from (for quick fixes and hovers). */
interface Published {
  diagnostic: vscode.Diagnostic;
  finding: Finding;
}

class LintController implements vscode.Disposable {
  private client: LintWorkerClient | undefined;
  /** Set when the parser could not start (bad or missing grammar files): linting stays off. */
  private startFailed = false;
  private restartLogged = false;
  private disposed = false;
  private readonly runs = new LatestPerKey((e) => console.error('[attention-inspector] lint failed', e));
  private readonly diagnostics = vscode.languages.createDiagnosticCollection(SOURCE);
  private readonly published = new Map<string, Published[]>();
  /** What is shown of `published`: without findings a recorded run withdrew, confirmed ones marked. */
  private readonly shown = new Map<string, Published[]>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private settings: LintSettings = readLintSettings({});
  private readonly disposables: vscode.Disposable[] = [];
  /** Open documents and the workspace files their imports read (a change to one re-lints them). */
  private readonly dependents = new DependentIndex();
  private readonly watcher = vscode.workspace.createFileSystemWatcher('**/*.py');
  /** The version of each document whose dependents were last scheduled (a re-lint per change, not per lint). */
  private readonly dependentsScheduledAt = new Map<string, number>();

  constructor(private readonly context: vscode.ExtensionContext) {
    this.readSettings();
    this.disposables.push(
      this.diagnostics,
      this.watcher,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.forget(d.uri);
        this.dependents.forget(d.uri.toString());
        this.dependentsScheduledAt.delete(d.uri.toString());
        this.closeInWorker(d);
      }),
      // Files changed on disk (saved elsewhere, a checkout): the open documents importing them lint again.
      this.watcher.onDidChange((uri) => this.scheduleDependents(uri)),
      this.watcher.onDidCreate((uri) => this.scheduleDependents(uri)),
      this.watcher.onDidDelete((uri) => this.scheduleDependents(uri)),
      vscode.workspace.onDidOpenNotebookDocument((nb) => this.scheduleNotebook(nb, 0)),
      vscode.workspace.onDidChangeNotebookDocument((e) => this.scheduleNotebook(e.notebook)),
      vscode.workspace.onDidCloseNotebookDocument((nb) => nb.getCells().forEach((c) => this.forget(c.document.uri))),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('attentionInspector.lint')) {
          this.readSettings();
          this.relintAll();
        }
      }),
      vscode.languages.registerCodeActionsProvider({ language: 'python' }, new FixProvider(this), {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
      vscode.languages.registerHoverProvider({ language: 'python' }, new HoverProvider(this)),
      vscode.commands.registerCommand('attentionInspector.lintWorkspace', () => this.lintWorkspace()),
      vscode.commands.registerCommand('attentionInspector.showRulePage', (code?: unknown) => this.showRulePage(code)),
      runtimeEvidence.onDidChange((documents) => documents.forEach((key) => this.published.has(key) && this.show(vscode.Uri.parse(key)))),
    );
    // Documents already open when the extension activates.
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  dispose(): void {
    this.disposed = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const d of this.disposables) d.dispose();
    this.client?.dispose();
    this.client = undefined;
  }

  publishedFor(uri: vscode.Uri): readonly Published[] {
    return this.shown.get(uri.toString()) ?? [];
  }

  /** Shows the document's findings as the current recording judges them (see runtime-evidence.ts). */
  private show(uri: vscode.Uri): void {
    const key = uri.toString();
    const evidence = runtimeEvidence.forDocument(key);
    const list = this.published.get(key) ?? [];
    const shown: Published[] = [];
    for (const p of list) {
      const j = evidence.length > 0 ? judgeFinding(p.finding, evidence) : {};
      if (j.withdrawnBy) continue;
      shown.push(j.confirmedBy ? { finding: p.finding, diagnostic: this.confirmed(uri, p.diagnostic, j) } : p);
    }
    this.shown.set(key, shown);
    this.diagnostics.set(
      uri,
      shown.map((p) => p.diagnostic),
    );
  }

  private confirmed(uri: vscode.Uri, d: vscode.Diagnostic, j: Judgement): vscode.Diagnostic {
    const e = j.confirmedBy!;
    const out = new vscode.Diagnostic(d.range, `${d.message} ${vscode.l10n.t('(confirmed by the recorded run, call #{0})', e.callId)}`, d.severity);
    out.source = d.source;
    out.code = d.code;
    const line = Math.max(1, e.at ?? e.lines.find((l) => l - 1 >= d.range.start.line && l - 1 <= d.range.end.line) ?? e.lines[0] ?? 1) - 1; // the runtime finding's line (the call's first, else the file's first)
    out.relatedInformation = [
      new vscode.DiagnosticRelatedInformation(
        new vscode.Location(uri, new vscode.Range(line, 0, line, 0)),
        vscode.l10n.t('At run time: {0}', localisedRuntime(e.messageParts, e.message)),
      ),
      ...(d.relatedInformation ?? []),
    ];
    return out;
  }

  private readSettings(): void {
    const c = vscode.workspace.getConfiguration('attentionInspector.lint');
    this.settings = readLintSettings({ enable: c.get('enable'), select: c.get('select'), ignore: c.get('ignore'), severity: c.get('severity') });
  }

  /** The lint worker's client; the worker itself starts with the first request. */
  private getClient(): LintWorkerClient | undefined {
    if (this.startFailed || this.disposed) return undefined;
    if (!this.client) {
      const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
      this.client = new LintWorkerClient({
        workerPath: vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'lint-worker.js').fsPath,
        workerData: {
          treeSitterPath: vscode.Uri.joinPath(media, 'web-tree-sitter.wasm').fsPath,
          pythonPath: vscode.Uri.joinPath(media, 'tree-sitter-python.wasm').fsPath,
        },
        onRestart: (reason) => {
          if (this.restartLogged) return;
          this.restartLogged = true;
          console.error(`[attention-inspector] ${reason}; a new lint worker starts with the next lint (further failures are not logged)`);
        },
      });
    }
    return this.client;
  }

  /**
   * One request to the worker. Undefined when there is no answer to publish: linting is off (the parser
   * could not start; the user was told once), the worker was replaced while it held the request (logged
   * once), or the controller was disposed. The linter's internal errors are logged as before.
   */
  private async lint<K extends LintRequestType>(
    type: K,
    payload: LintRequests[K][0],
    onWorkerLost?: (reason: string) => void,
    onDependencies?: (files: string[]) => void,
  ): Promise<LintRequests[K][1]['result'] | undefined> {
    let answer: LintAnswer<unknown> | undefined;
    // A worker that crashed or hung may have done so on another document's request: this one is tried once
    // more on a fresh worker, and only a second loss is this input's own (reported as ATT000 by the caller).
    for (let attempt = 1; !answer; attempt++) {
      const client = this.getClient();
      if (!client) return undefined;
      try {
        answer = await client.request(type, payload);
      } catch (e) {
        if (e instanceof LintWorkerRestartedError && attempt < 2) continue;
        if (e instanceof LintWorkerRestartedError) {
          onWorkerLost?.(e.message);
          return undefined;
        }
        if (e instanceof LintClientDisposedError) return undefined;
        if (isLinterStartError(e)) {
          this.startFailed = true;
          this.client?.dispose();
          this.client = undefined;
          void vscode.window.showErrorMessage(vscode.l10n.t('Attention Inspector: the Python linter could not start ({0}).', (e as Error).message));
          return undefined;
        }
        throw e;
      }
    }
    for (const err of answer.internalErrors) console.error('[attention-inspector] lint internal error', err);
    onDependencies?.(answer.dependencies ?? []);
    return answer.result as LintRequests[K][1]['result'];
  }

  private notebookOf(doc: vscode.TextDocument): vscode.NotebookDocument | undefined {
    if (doc.uri.scheme !== 'vscode-notebook-cell') return undefined;
    return vscode.workspace.notebookDocuments.find((nb) => nb.getCells().some((c) => c.document === doc));
  }

  schedule(doc: vscode.TextDocument, delay?: number): void {
    if (!isLintableDocument(doc.languageId, doc.uri.scheme)) return;
    const nb = this.notebookOf(doc);
    if (nb) return this.scheduleNotebook(nb, delay);
    this.debounce(doc.uri.toString(), delay ?? debounceMs(doc.lineCount), () => this.lintDocument(doc));
  }

  private scheduleNotebook(nb: vscode.NotebookDocument, delay?: number): void {
    if (!nb.getCells().some((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === 'python')) return;
    const lines = nb.getCells().reduce((n, c) => n + c.document.lineCount, 0);
    this.debounce(nb.uri.toString(), delay ?? debounceMs(lines), () => this.lintNotebook(nb));
  }

  private debounce(key: string, delay: number, run: () => Promise<void>): void {
    const old = this.timers.get(key);
    if (old) clearTimeout(old);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.runs.run(key, run);
      }, delay),
    );
  }

  private async lintDocument(doc: vscode.TextDocument): Promise<void> {
    if (doc.isClosed) return;
    if (!this.settings.enable) return this.forget(doc.uri);
    const version = doc.version;
    let lost: string | undefined;
    const workspace = this.workspaceRef(doc.uri, doc.version);
    const findings = await this.lint(
      'lintPython',
      { source: doc.getText(), options: this.settings.options, ...(workspace ? { workspace } : {}) },
      (reason) => (lost = reason),
      (files) => (workspace ? this.dependents.record(doc.uri.toString(), workspace.root, files) : undefined),
    );
    if (doc.isClosed || this.disposed || doc.version !== version) return; // edited meanwhile: the next run publishes
    if (findings) this.publish(doc.uri, findings);
    // The worker now has this text: documents importing it lint again (once per version, so imports in a cycle settle).
    if (workspace && this.dependentsScheduledAt.get(doc.uri.toString()) !== version) {
      this.dependentsScheduledAt.set(doc.uri.toString(), version);
      this.scheduleDependents(doc.uri);
    } else if (lost !== undefined) this.publish(doc.uri, this.workerLostFinding(lost));
  }

  private async lintNotebook(nb: vscode.NotebookDocument): Promise<void> {
    if (nb.isClosed) return;
    const cells = nb.getCells();
    if (!this.settings.enable) {
      for (const c of cells) this.forget(c.document.uri);
      return;
    }
    const code = cells.filter((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === 'python');
    const versions = code.map((c) => c.document.version);
    const input: NotebookCell[] = code.map((c) => ({ index: c.index, source: c.document.getText() }));
    let lost: string | undefined;
    const workspace = this.workspaceRef(nb.uri);
    const results = await this.lint(
      'lintCells',
      { cells: input, options: this.settings.options, ...(workspace ? { workspace } : {}) },
      (reason) => (lost = reason),
    );
    const first = code[0];
    if (!results && lost !== undefined && first && !nb.isClosed && !this.disposed && code.every((c, i) => c.document.version === versions[i])) {
      this.publish(first.document.uri, this.workerLostFinding(lost));
      return;
    }
    if (!results || nb.isClosed || this.disposed) return;
    if (code.some((c, i) => c.document.version !== versions[i])) return;
    // Cells added, removed or moved meanwhile: the next run publishes.
    if (nb.cellCount !== cells.length || cells.some((c, i) => nb.cellAt(i).document.uri.toString() !== c.document.uri.toString())) return;
    for (const c of cells) {
      const r = results.find((x) => x.cellIndex === c.index);
      this.publish(c.document.uri, r ? r.findings : [], '', { nb, cell: c.index });
    }
    // Findings a workspace run attached to the .ipynb file are superseded by the cells'.
    this.forget(nb.uri);
  }

  /**
   * The workspace folder a file belongs to, as the lint worker reads it (its imports of other files there are
   * followed). With a version, the text sent is that open document's, which wins over the file on disk.
   */
  private workspaceRef(uri: vscode.Uri, version?: number): LintWorkspaceRef | undefined {
    if (uri.scheme !== 'file') return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || folder.uri.scheme !== 'file') return undefined;
    const path = vscode.workspace.asRelativePath(uri, false).split('\\').join('/');
    if (path.startsWith('/') || path.startsWith('..') || path === uri.fsPath) return undefined;
    return { root: folder.uri.fsPath, path, ...(version !== undefined ? { version } : {}) };
  }

  /** Re-lints (after the usual pause) the open documents whose imports read the file at `uri`. */
  private scheduleDependents(uri: vscode.Uri): void {
    const ref = this.workspaceRef(uri);
    if (!ref) return;
    for (const key of this.dependents.dependentsOf(ref.root, ref.path)) {
      if (key === uri.toString()) continue;
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
      if (doc) this.schedule(doc);
    }
  }

  /** A closed document's file is read from disk again by other files' imports. */
  private closeInWorker(doc: vscode.TextDocument): void {
    const workspace = this.workspaceRef(doc.uri);
    if (!workspace || !this.client || !isLintableDocument(doc.languageId, doc.uri.scheme)) return;
    void this.lint('closeDocument', { workspace }).then(
      () => this.scheduleDependents(doc.uri),
      () => undefined,
    );
  }

  /** ATT000 for an input the lint worker crashed or hung on twice (the rest of the editor keeps linting). */
  private workerLostFinding(reason: string): Finding[] {
    return notAnalysedFinding(vscode.l10n.t('the lint worker stopped twice while analysing it ({0})', reason), this.settings.options);
  }

  private publish(uri: vscode.Uri, findings: readonly Finding[], messagePrefix = '', notebook?: { nb: vscode.NotebookDocument; cell: number }): void {
    const list: Published[] = findings.map((f) => ({ finding: f, diagnostic: this.toDiagnostic(f, messagePrefix, uri, notebook) }));
    this.published.set(uri.toString(), list);
    this.show(uri);
  }

  /**
   * `uri` is the document the diagnostic is shown on; `notebook` the notebook and cell it belongs to (open in
   * the editor), where evidence in another cell points at that cell. A finding of a closed notebook (shown on
   * the file's first line) names its evidence by cell and line in the message instead.
   */
  private toDiagnostic(f: Finding, messagePrefix: string, uri?: vscode.Uri, notebook?: { nb: vscode.NotebookDocument; cell: number }): vscode.Diagnostic {
    const range = new vscode.Range(f.line - 1, f.column - 1, f.endLine - 1, f.endColumn - 1);
    const d = new vscode.Diagnostic(range, messagePrefix + localised(f.messageParts, f.message), SEVERITY[editorSeverity(f, this.settings)]);
    d.source = SOURCE;
    const related: vscode.DiagnosticRelatedInformation[] = [];
    for (const t of relatedTargets(f, notebook?.cell)) {
      let target: vscode.Uri | undefined;
      if (t.where === 'uri' && t.uri !== undefined) target = vscode.Uri.parse(t.uri);
      else if (t.where === 'cell' && t.cell !== undefined)
        target = notebook && t.cell < notebook.nb.cellCount ? notebook.nb.cellAt(t.cell).document.uri : undefined;
      else target = uri;
      if (!target) continue;
      related.push(
        new vscode.DiagnosticRelatedInformation(
          new vscode.Location(target, new vscode.Range(t.line, t.character, t.endLine, t.endCharacter)),
          localised(t.messageParts, t.message),
        ),
      );
    }
    if (related.length > 0) d.relatedInformation = related;
    // ATT000 (not analysed) is no rule: it has no page.
    d.code = isRuleCode(f.code) ? { value: f.code, target: this.rulePage(f.code) } : f.code;
    return d;
  }

  rulePage(code: RuleCode): vscode.Uri {
    return vscode.Uri.joinPath(this.context.extensionUri, 'docs', 'rules', rulePageFileName(ruleByCode(code)));
  }

  /**
   * Opens a rule's page rendered (Markdown preview, beside the code), or as text where no Markdown preview is
   * installed. Without a rule code (from the palette) the user picks the rule first.
   */
  async showRulePage(code?: unknown): Promise<void> {
    let rule: RuleCode | undefined = typeof code === 'string' && isRuleCode(code) ? code : undefined;
    if (rule === undefined) {
      const picked = await vscode.window.showQuickPick(
        RULES.map((r) => ({ label: `${r.meta.code} ${r.meta.name}`, detail: localisedSummary(r), code: r.meta.code })),
        { title: vscode.l10n.t('Attention Inspector: lint rule pages'), placeHolder: vscode.l10n.t('Choose a rule to read its page'), matchOnDetail: true },
      );
      if (!picked) return;
      rule = picked.code;
    }
    const page = this.rulePage(rule);
    try {
      await vscode.commands.executeCommand('markdown.showPreviewToSide', page);
    } catch {
      await vscode.commands.executeCommand('vscode.open', page, { viewColumn: vscode.ViewColumn.Beside });
    }
  }

  private forget(uri: vscode.Uri): void {
    this.published.delete(uri.toString());
    this.shown.delete(uri.toString());
    this.diagnostics.delete(uri);
  }

  private relintAll(): void {
    if (!this.settings.enable) {
      this.diagnostics.clear();
      this.published.clear();
      this.shown.clear();
      return;
    }
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
    for (const nb of vscode.workspace.notebookDocuments) this.scheduleNotebook(nb, 0);
  }

  /** Attention Inspector: Lint Workspace — every .py/.ipynb file, with progress and cancellation. */
  private async lintWorkspace(): Promise<void> {
    if (!this.getClient()) {
      if (this.startFailed)
        void vscode.window.showErrorMessage(vscode.l10n.t('Attention Inspector: the Python linter could not start; see the first error message.'));
      return;
    }
    // The summary is shown once the progress notification has closed, so the two never stand side by side.
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Attention Inspector: linting the workspace'), cancellable: true },
      async (progress, token) => {
        const files = await vscode.workspace.findFiles(WORKSPACE_INCLUDE, WORKSPACE_EXCLUDE, undefined, token);
        let problems = 0;
        let done = 0;
        const unreadable: string[] = [];
        for (const uri of files) {
          if (token.isCancellationRequested) break;
          progress.report({ message: `${done}/${files.length} ${vscode.workspace.asRelativePath(uri)}`, increment: 100 / Math.max(1, files.length) });
          done++;
          const open = uri.path.endsWith('.ipynb')
            ? vscode.workspace.notebookDocuments.find((nb) => nb.uri.toString() === uri.toString())
            : vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
          try {
            if (open && 'getCells' in open) {
              await this.runs.run(open.uri.toString(), () => this.lintNotebook(open));
            } else if (open) {
              await this.runs.run(open.uri.toString(), () => this.lintDocument(open));
            } else {
              // Sized before it is read: a data dump named .py must not be loaded whole into the host.
              const { size } = await vscode.workspace.fs.stat(uri);
              if (size > MAX_WORKSPACE_FILE_BYTES) {
                unreadable.push(
                  vscode.l10n.t(
                    '{0}: skipped, {1} MB is over the limit of {2} MB',
                    vscode.workspace.asRelativePath(uri),
                    (size / 2 ** 20).toFixed(1),
                    MAX_WORKSPACE_FILE_BYTES / 2 ** 20,
                  ),
                );
                continue;
              }
              const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
              if (uri.path.endsWith('.ipynb')) {
                let lost: string | undefined;
                const r = await this.lint('lintNotebookFile', { json: text, options: this.settings.options }, (reason) => (lost = reason));
                if (!r && lost !== undefined) this.publish(uri, this.workerLostFinding(lost));
                if (!r) continue;
                if (r.error) unreadable.push(`${vscode.workspace.asRelativePath(uri)}: ${r.error}`);
                // A closed notebook: findings go on the file, each message naming its cell.
                const flat: Finding[] = [];
                const prefixes: string[] = [];
                for (const cell of r.cells)
                  for (const f of cell.findings) {
                    // Cells of a closed notebook have no documents: the evidence is named by cell and line, on the file.
                    const related = f.related?.map((x) => ({
                      ...x,
                      line: 1,
                      column: 1,
                      endLine: 1,
                      endColumn: 1,
                      cell: undefined,
                      message: vscode.l10n.t('cell {0}, line {1}: ', (x.cell ?? cell.cellIndex) + 1, x.line) + localised(x.messageParts, x.message),
                      messageParts: undefined, // translated already, with its cell and line
                    }));
                    flat.push({ ...f, line: 1, column: 1, endLine: 1, endColumn: 1, ...(related ? { related } : {}) });
                    prefixes.push(vscode.l10n.t('cell {0}, line {1}: ', cell.cellIndex + 1, f.line));
                  }
                const list = flat.map((f, i) => ({ finding: f, diagnostic: this.toDiagnostic(f, prefixes[i] ?? '', uri) })); // a prefix per finding
                this.published.set(uri.toString(), list);
                this.show(uri);
              } else {
                let lost: string | undefined;
                const workspace = this.workspaceRef(uri);
                const findings = await this.lint(
                  'lintPython',
                  { source: text, options: this.settings.options, ...(workspace ? { workspace } : {}) },
                  (reason) => (lost = reason),
                );
                if (findings) this.publish(uri, findings);
                else if (lost !== undefined) this.publish(uri, this.workerLostFinding(lost));
              }
            }
          } catch (e) {
            unreadable.push(`${vscode.workspace.asRelativePath(uri)}: ${e instanceof Error ? e.message : String(e)}`);
          }
          // An open notebook's findings sit on its cells (as the Problems view shows them), not on the file.
          problems +=
            open && 'getCells' in open ? open.getCells().reduce((n, c) => n + this.publishedFor(c.document.uri).length, 0) : this.publishedFor(uri).length;
        }
        return { summary: workspaceSummary(problems, done, token.isCancellationRequested), problems, unreadable };
      },
    );
    const { summary, problems, unreadable } = outcome;
    if (unreadable.length > 0)
      void vscode.window.showWarningMessage(
        vscode.l10n.t('{0} Could not lint: {1}', summary, `${unreadable.slice(0, 3).join('; ')}${unreadable.length > 3 ? '…' : ''}`),
      );
    else void vscode.window.showInformationMessage(summary);
    if (problems > 0) void vscode.commands.executeCommand('workbench.actions.view.problems');
  }
}

/** Quick fixes from findings (each titled with what it changes) and `# noqa` suppressions. */
class FixProvider implements vscode.CodeActionProvider {
  constructor(private readonly controller: LintController) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    // Quick fixes only: behaviour-changing edits are never part of source.fixAll.
    if (context.only && !vscode.CodeActionKind.QuickFix.contains(context.only)) return [];
    const actions: vscode.CodeAction[] = [];
    for (const p of this.controller.publishedFor(document.uri)) {
      if (!p.diagnostic.range.intersection(range) && !context.diagnostics.includes(p.diagnostic)) continue;
      const f = p.finding;
      if (f.fix && f.line === p.diagnostic.range.start.line + 1) {
        const title = localised(f.fix.titleParts, f.fix.title);
        const action = new vscode.CodeAction(f.fix.safety === 'unsafe' ? vscode.l10n.t('{0} [unsafe]', title) : title, vscode.CodeActionKind.QuickFix);
        const edit = new vscode.WorkspaceEdit();
        for (const e of f.fix.edits) edit.replace(document.uri, new vscode.Range(e.line - 1, e.column - 1, e.endLine - 1, e.endColumn - 1), e.newText);
        action.edit = edit;
        action.diagnostics = [p.diagnostic];
        action.isPreferred = f.fix.safety === 'safe';
        actions.push(action);
      }
      const line = p.diagnostic.range.start.line;
      if (!isRuleCode(f.code)) continue; // ATT000 is not silenced by noqa
      const n = noqaEdit(document.lineAt(line).text, f.code);
      if (n.newText.length > 0) {
        const action = new vscode.CodeAction(vscode.l10n.t('Ignore {0} on this line (# noqa)', f.code), vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(document.uri, new vscode.Range(line, n.column - 1, line, n.endColumn - 1), n.newText);
        action.diagnostics = [p.diagnostic];
        actions.push(action);
      }
    }
    return actions;
  }
}

const SHOW_RULE_PAGE = 'attentionInspector.showRulePage';

/** The rule's explanation when hovering a finding. */
class HoverProvider implements vscode.HoverProvider {
  constructor(private readonly controller: LintController) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const hits = this.controller.publishedFor(document.uri).filter((p) => p.diagnostic.range.contains(position));
    const first = hits[0];
    if (!first) return undefined;
    const md = new vscode.MarkdownString();
    // The rule page link runs our command (the page rendered as a preview); no other command may run from here.
    md.isTrusted = { enabledCommands: [SHOW_RULE_PAGE] };
    for (const h of hits) {
      const rule = RULES.find((r) => r.meta.code === h.finding.code);
      if (!rule) continue;
      md.appendMarkdown(localisedHover(rule));
      const args = encodeURIComponent(JSON.stringify([rule.meta.code]));
      md.appendMarkdown(`\n\n[${vscode.l10n.t('Rule page')}](command:${SHOW_RULE_PAGE}?${args})\n\n`);
    }
    return new vscode.Hover(md, first.diagnostic.range);
  }
}

/** "Attention Inspector: 3 problems in 5 files." — whole sentences per plural form, so each translates whole. */
function workspaceSummary(problems: number, files: number, cancelled: boolean): string {
  const key = `${problems === 1 ? 'one' : 'many'}-${files === 1 ? 'one' : 'many'}`;
  const text =
    key === 'one-one'
      ? vscode.l10n.t('Attention Inspector: {0} problem in {1} file.', problems, files)
      : key === 'one-many'
        ? vscode.l10n.t('Attention Inspector: {0} problem in {1} files.', problems, files)
        : key === 'many-one'
          ? vscode.l10n.t('Attention Inspector: {0} problems in {1} file.', problems, files)
          : vscode.l10n.t('Attention Inspector: {0} problems in {1} files.', problems, files);
  return cancelled ? vscode.l10n.t('{0} (cancelled)', text) : text;
}

/** Registers the linter's listeners, providers and the Lint Workspace command. The parser starts lazily. */
export function registerLinting(context: vscode.ExtensionContext): void {
  context.subscriptions.push(new LintController(context));
}
