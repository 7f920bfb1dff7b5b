// The inspector panel on the host side: owns the webview, its locked-down HTML, and the routing of the
// webview's (validated) messages to the engine. One panel at a time; a new inspection updates it.
import * as vscode from 'vscode';
import type { AttentionTrace } from '../../engine/trace';
import type { AttentionRequest, AttentionResult, RecordedSourceLine, RunResult, TraceRequest } from '../../protocol/engine';
import {
  parseFromWebview,
  type ExportFormat,
  type FromWebviewMessage,
  type InspectedText,
  type PanelMode,
  type ToWebviewMessage,
} from '../../protocol/webview';
import { makeNonce } from './nonce';
import { type PanelRestoreState, restoreState } from './restore';
import { panelStrings } from './strings';
import { localisedError } from '../engine-errors';
import { displayedModel, localisedModelText } from '../model-text';

export const PANEL_VIEW_TYPE = 'attentionInspector.panel';

/** Where the panel's data comes from (the engine, through the host). */
export interface PanelDataSource {
  attention(req: AttentionRequest, token?: vscode.CancellationToken): Promise<AttentionResult>;
  trace(req: TraceRequest, token?: vscode.CancellationToken): Promise<AttentionTrace>;
  /** Selects the source range of token `index` of `run` in the editor it came from. */
  revealToken?(run: RunResult, index: number): void;
  /** Highlights (and with `reveal`, opens at) the user's source lines of a recorded call's debugger step. */
  showSource?(lines: RecordedSourceLine[], reveal: boolean): void;
  /** A recorded call's run for another batch element (the panel then shows it, in the same mode and head). */
  recordedBatch?(run: RunResult, batch: number): Promise<RunResult>;
}

export interface ShowOptions {
  mode?: PanelMode;
  focus?: { layer: number; head: number };
  /** The inspected text, kept with the webview's state for a reload. */
  inspected?: InspectedText;
}

/** What a reload's repeat of the inspection gave: a run, or why there is none. */
export type RerunOutcome = { run: RunResult; source: PanelDataSource; inspected: InspectedText } | { error: string };

function exportFilters(format: ExportFormat): Record<string, string[]> {
  switch (format) {
    case 'png':
      return { [vscode.l10n.t('PNG image')]: ['png'] };
    case 'svg':
      return { [vscode.l10n.t('SVG image')]: ['svg'] };
    case 'csv':
      return { [vscode.l10n.t('CSV table')]: ['csv'] };
    case 'json':
      return { JSON: ['json'] };
  }
}

export class InspectorPanel implements vscode.Disposable {
  private static currentPanel: InspectorPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private run: RunResult | undefined;
  private viewState: PanelRestoreState = { mode: 'grid' };
  private inspected: InspectedText | undefined;
  /** Shown instead of the usual hint when there is no run (e.g. a reload that could not repeat the inspection). */
  private emptyMessage: string | undefined;
  private readonly inflight = new Map<number, vscode.CancellationTokenSource>();
  private readonly disposed = new vscode.EventEmitter<void>();
  /** Fires when the panel is closed. */
  readonly onDidDispose = this.disposed.event;

  static get current(): InspectorPanel | undefined {
    return InspectorPanel.currentPanel;
  }

  /** Shows (or updates and reveals) the panel with a run. */
  static show(extensionUri: vscode.Uri, run: RunResult, source: PanelDataSource, opts: ShowOptions = {}): InspectorPanel {
    let panel = InspectorPanel.currentPanel;
    if (!panel) {
      const webviewPanel = vscode.window.createWebviewPanel(PANEL_VIEW_TYPE, panelTitle(run), vscode.ViewColumn.Beside, webviewOptions(extensionUri));
      panel = new InspectorPanel(webviewPanel, extensionUri, source);
    } else {
      panel.source = source;
      panel.panel.reveal(undefined, true);
    }
    panel.update(run, opts);
    return panel;
  }

  /**
   * Restores the panel after a window reload. `rerun` repeats the inspection the panel showed (the
   * engine's results do not survive a reload); when it cannot, the panel says so.
   */
  static registerSerializer(extensionUri: vscode.Uri, rerun: (restored: PanelRestoreState) => Promise<RerunOutcome>): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, {
      async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, state: unknown) {
        webviewPanel.webview.options = webviewOptions(extensionUri);
        const restored = restoreState(state);
        let result: RerunOutcome;
        try {
          result = await rerun(restored);
        } catch (e) {
          result = { error: localisedError(e) };
        }
        const noSource: PanelDataSource = {
          attention: () => Promise.reject(new Error(vscode.l10n.t('Nothing is inspected yet.'))),
          trace: () => Promise.reject(new Error(vscode.l10n.t('Nothing is inspected yet.'))),
        };
        const panel = new InspectorPanel(webviewPanel, extensionUri, 'run' in result ? result.source : noSource);
        panel.viewState = { mode: restored.mode, focus: restored.focus };
        if ('run' in result) panel.update(result.run, { ...restored, inspected: result.inspected });
        else {
          panel.emptyMessage = result.error;
          panel.sendRun();
        }
      },
    });
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private source: PanelDataSource,
  ) {
    InspectorPanel.currentPanel = this;
    panel.iconPath = { light: vscode.Uri.joinPath(extensionUri, 'media', 'icon-light.svg'), dark: vscode.Uri.joinPath(extensionUri, 'media', 'icon-dark.svg') };
    panel.webview.html = renderHtml(panel.webview, extensionUri);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw) => this.onMessage(raw)),
    );
  }

  get lastRun(): RunResult | undefined {
    return this.run;
  }

  /** Replaces what the panel shows. */
  update(run: RunResult, opts: ShowOptions = {}): void {
    this.run = run;
    if (opts.mode) this.viewState = { mode: opts.mode, focus: opts.focus };
    if (opts.inspected) this.inspected = opts.inspected;
    this.emptyMessage = undefined;
    this.panel.title = panelTitle(run);
    this.sendRun();
  }

  /** Shows `message` instead of a run (the run shown no longer matches the model, e.g.). */
  clear(message: string): void {
    this.run = undefined;
    this.inspected = undefined;
    this.emptyMessage = message;
    for (const cts of this.inflight.values()) cts.cancel();
    this.panel.title = vscode.l10n.t('Attention Inspector');
    this.sendRun();
  }

  dispose(): void {
    if (InspectorPanel.currentPanel === this) InspectorPanel.currentPanel = undefined;
    this.disposed.fire();
    this.disposed.dispose();
    for (const cts of this.inflight.values()) cts.cancel();
    this.inflight.clear();
    this.panel.dispose();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }

  private post(message: ToWebviewMessage): void {
    void this.panel.webview.postMessage(message);
  }

  private sendRun(): void {
    if (!this.run) {
      this.post({
        type: 'empty',
        message: this.emptyMessage ?? vscode.l10n.t('Select some text and run “Attention Inspector: Inspect Selection”.'),
        l10n: panelStrings(),
      });
      return;
    }
    // The run's typed arrays are sent as they are (webview messages serialise ArrayBuffers efficiently).
    this.post({
      type: 'run',
      run: { ...this.run, model: displayedModel(this.run.model) },
      mode: this.viewState.mode,
      focus: this.viewState.focus,
      l10n: panelStrings(),
      ...(this.inspected ? { inspected: this.inspected } : {}),
    });
  }

  private onMessage(raw: unknown): void {
    const msg = parseFromWebview(raw);
    if (msg instanceof Error) {
      console.warn(`[attention-inspector] ${msg.message}`);
      return;
    }
    void this.handle(msg);
  }

  private async handle(msg: FromWebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        this.sendRun();
        return;
      case 'viewState':
        this.viewState = { mode: msg.mode, focus: msg.focus };
        return;
      case 'revealToken':
        if (this.run && msg.index < this.run.tokens.length) this.source.revealToken?.(this.run, msg.index);
        return;
      case 'recordedBatch':
        await this.showRecordedBatch(msg.batch);
        return;
      case 'recordedStep': {
        const lines = this.run?.recorded?.stepSources?.[msg.layer]?.[msg.step];
        if (lines && lines.length > 0) this.source.showSource?.(lines, msg.reveal);
        return;
      }
      case 'export':
        await this.saveExport(msg.format, msg.suggestedName, msg.content);
        return;
      case 'copyText':
        await vscode.env.clipboard.writeText(msg.text);
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied the Python to the clipboard.'), 3000);
        return;
      case 'request':
        await this.answer(msg.messageId, msg.request);
        return;
      case 'cancel':
        this.inflight.get(msg.messageId)?.cancel();
        return;
    }
  }

  private async answer(messageId: number, request: Extract<FromWebviewMessage, { type: 'request' }>['request']): Promise<void> {
    const run = this.run;
    if (!run) {
      this.post({ type: 'reply', inReplyTo: messageId, ok: false, error: vscode.l10n.t('Nothing is inspected yet.') });
      return;
    }
    // The webview cancels a request it no longer needs (a newer one superseded it) with a 'cancel' message.
    const cts = new vscode.CancellationTokenSource();
    this.inflight.set(messageId, cts);
    try {
      const result =
        request.kind === 'attention'
          ? await this.source.attention(
              {
                runId: run.runId,
                layer: request.layer,
                head: request.head,
                rowStart: request.rowStart,
                rowEnd: request.rowEnd,
                downsample: request.downsample,
              },
              cts.token,
            )
          : await this.source.trace({ runId: run.runId, layer: request.layer, head: request.head, options: request.options }, cts.token);
      if (!cts.token.isCancellationRequested) this.post({ type: 'reply', inReplyTo: messageId, ok: true, result });
    } catch (e) {
      if (!cts.token.isCancellationRequested) this.post({ type: 'reply', inReplyTo: messageId, ok: false, error: localisedError(e) });
    } finally {
      this.inflight.delete(messageId);
      cts.dispose();
    }
  }

  private async showRecordedBatch(batch: number): Promise<void> {
    const run = this.run;
    if (!run?.recorded || !this.source.recordedBatch) return;
    try {
      const next = await this.source.recordedBatch(run, batch);
      if (this.run === run) this.update(next);
    } catch (e) {
      void vscode.window.showErrorMessage(localisedError(e));
      if (this.run === run) this.sendRun(); // the picker shows the element still shown
    }
  }

  /** Nothing is written unless the user picks a file in the save dialog. */
  private async saveExport(format: ExportFormat, suggestedName: string, content: string): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, suggestedName) : undefined,
      filters: exportFilters(format),
      title: vscode.l10n.t('Export attention as {0}', format.toUpperCase()),
    });
    if (!target) return;
    const bytes = format === 'png' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
    try {
      await vscode.workspace.fs.writeFile(target, bytes);
      void vscode.window.showInformationMessage(vscode.l10n.t('Saved {0}', vscode.workspace.asRelativePath(target)));
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not save {0}: {1}', target.fsPath, (e as Error).message));
    }
  }
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

function panelTitle(run: RunResult): string {
  return vscode.l10n.t(
    'Attention: {0} ({1} tokens)',
    run.model.family === 'seeded' ? vscode.l10n.t('seeded') : localisedModelText(run.model.nameParts),
    run.seqLen,
  );
}

/** The page: no inline script or style; one nonce'd script; resources only from dist/ and media/. */
function renderHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const n = makeNonce();
  const uri = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const csp = [
    `default-src 'none'`,
    `img-src ${webview.cspSource} data: blob:`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${n}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${vscode.env.language}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${uri('media', 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${uri('media', 'panel.css')}">
<title>Attention Inspector</title>
</head>
<body>
<div id="app"></div>
<script nonce="${n}" src="${uri('dist', 'webview.js')}"></script>
</body>
</html>`;
}
