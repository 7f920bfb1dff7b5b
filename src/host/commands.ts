// The inspector's commands: Inspect Selection, Open Debugger, Load Weights. They gather input in the
// editor, ask the engine (in its worker) for the numbers, and hand the results to the panel.
import * as vscode from 'vscode';
import type { ModelInfo, ModelSource, RunRequest, RunResult } from '../protocol/engine';
import { STALE_RUN, TOO_MANY_TOKENS } from '../protocol/engine';
import { isCancelledError } from '../protocol/rpc';
import { EngineHost } from './engine-host';
import { InspectorPanel, type PanelDataSource } from './panel/panel';
import { readSettings } from './settings';
import { withDeferredProgress } from './progress';

/** The sentence Open Debugger starts with. */
export const DEFAULT_EXAMPLE = 'The cat sat on the mat because it was tired.';
/**
 * The most tokens "Run anyway" allows (the maxTokens setting's own maximum). Memory stays bounded for long
 * runs (the engine keeps q, k, v and computes weights on demand), so the seeded model and bare attention
 * layers go this far; a checkpoint stops at its position table.
 */
const HARD_TOKEN_LIMIT = 16384;
/** A run past the maxTokens setting may take minutes: only after this long is the worker treated as hung. */
const LONG_RUN_TIMEOUT_MS = 30 * 60_000;
/** The small trained model shipped in the .vsix (scripts/tiny-model/train.py, docs/tiny-model.md). */
export const TINY_MODEL_PATH = ['media', 'models', 'tiny-bilingual', 'model.safetensors'] as const;
const TINY_MODEL_NAME = 'tiny-bilingual/model.safetensors';
const WEIGHT_FILTERS = { 'Model weights': ['safetensors', 'pt', 'pth', 'bin', 'npz', 'npy', 'json'] };

/** Where an inspected text came from, to point back at it. */
interface Origin {
  uri: vscode.Uri;
  version: number;
  offset: number;
}

interface Inspection {
  text: string;
  origin?: Origin;
  mode: 'grid' | 'debugger';
}

export class InspectorCommands implements vscode.Disposable {
  private engine: EngineHost | undefined;
  private lastInspection: Inspection | undefined;
  private readonly status: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly context: vscode.ExtensionContext) {
    this.status = vscode.window.createStatusBarItem('attentionInspector.model', vscode.StatusBarAlignment.Right, 100);
    this.status.name = vscode.l10n.t('Attention Inspector model');
    this.status.command = 'attentionInspector.chooseModel';
    this.disposables.push(
      this.status,
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
      InspectorPanel.registerSerializer(context.extensionUri, () => this.repeatLastInspection()),
    );
  }

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('attentionInspector.inspectSelection', () => this.inspectSelection()),
      vscode.commands.registerCommand('attentionInspector.openDebugger', () => this.openDebugger()),
      vscode.commands.registerCommand('attentionInspector.loadWeights', (uri?: vscode.Uri) => this.loadWeights(uri)),
      vscode.commands.registerCommand('attentionInspector.useSeededWeights', () => this.useSeededWeights()),
      vscode.commands.registerCommand('attentionInspector.chooseModel', () => this.chooseModel()),
    ];
  }

  dispose(): void {
    this.engine?.dispose();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }

  /** The engine starts on first use, never at activation. */
  private getEngine(): EngineHost {
    if (!this.engine) {
      const s = readSettings();
      this.engine = new EngineHost(this.context.extensionUri, seededSource(), s.kernel);
      this.disposables.push(this.engine.onDidChangeModel((info) => this.showModel(info)));
    }
    return this.engine;
  }

  async inspectSelection(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Open a file and select the text to inspect.'));
      return;
    }
    const { document, selection } = editor;
    const range = selection.isEmpty ? document.lineAt(selection.active.line).range : new vscode.Range(selection.start, selection.end);
    const text = document.getText(range);
    if (!text.trim()) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The selection is empty: select a sentence (or put the cursor on a line with text).'));
      return;
    }
    await this.inspect({ text, origin: { uri: document.uri, version: document.version, offset: document.offsetAt(range.start) }, mode: 'grid' });
  }

  async openDebugger(): Promise<void> {
    const panel = InspectorPanel.current;
    if (panel?.lastRun && this.lastInspection) {
      await this.inspect({ ...this.lastInspection, mode: 'debugger' });
      return;
    }
    await this.inspect({ text: DEFAULT_EXAMPLE, mode: 'debugger' });
  }

  /** `fileName` names the model in messages and the status bar (default: the file's own name). */
  async loadWeights(uri?: vscode.Uri, fileName?: string): Promise<void> {
    if (!uri) {
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: WEIGHT_FILTERS,
        title: vscode.l10n.t('Load attention weights (safetensors, PyTorch .pt/.bin, .npz, .npy, JSON)'),
        openLabel: vscode.l10n.t('Load Weights'),
      });
      if (!picked?.[0]) return;
      uri = picked[0];
    }
    fileName ??= uri.path.split('/').pop() ?? uri.toString();
    const [configJson, tokenizerJson] = await Promise.all([readSibling(uri, 'config.json'), readSibling(uri, 'tokenizer.json')]);
    const source: ModelSource =
      uri.scheme === 'file'
        ? { kind: 'file', fileName, path: uri.fsPath, configJson, tokenizerJson, seed: readSettings().seed }
        : { kind: 'file', fileName, bytes: await vscode.workspace.fs.readFile(uri), configJson, tokenizerJson, seed: readSettings().seed };
    const engine = this.getEngine();
    const previous = engine.modelSource;
    engine.setModelSource(source);
    try {
      const info = await withDeferredProgress(vscode.l10n.t('Loading {0}…', fileName), 0, (token, report) =>
        engine.ensureModel({ signal: token, onProgress: (f, m) => report(f, m) }),
      );
      void vscode.window.showInformationMessage(vscode.l10n.t('Loaded {0}: {1}', fileName, info.detail));
      if (InspectorPanel.current && this.lastInspection) await this.inspect(this.lastInspection);
    } catch (e) {
      engine.setModelSource(previous);
      if (isCancelledError(e)) return;
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not load {0}: {1}', fileName, (e as Error).message));
    }
  }

  async useSeededWeights(): Promise<void> {
    this.getEngine().setModelSource(seededSource());
    await this.getEngine().ensureModel().catch((e: Error) => vscode.window.showErrorMessage(e.message));
    if (InspectorPanel.current && this.lastInspection) await this.inspect(this.lastInspection);
  }

  private async chooseModel(): Promise<void> {
    const info = this.engine?.modelInfo;
    const items: (vscode.QuickPickItem & { run: () => Promise<void> })[] = [
      { label: '$(folder-opened) ' + vscode.l10n.t('Load Weights…'), run: () => this.loadWeights() },
      { label: '$(symbol-numeric) ' + vscode.l10n.t('Use Seeded Weights'), description: seededDescription(), run: () => this.useSeededWeights() },
      {
        label: '$(mortar-board) ' + vscode.l10n.t('Use the Tiny Trained Model'),
        description: vscode.l10n.t('English + Chinese, ships with the extension'),
        run: () => this.loadWeights(vscode.Uri.joinPath(this.context.extensionUri, ...TINY_MODEL_PATH), TINY_MODEL_NAME),
      },
      { label: '$(eye) ' + vscode.l10n.t('Inspect Selection'), run: () => this.inspectSelection() },
    ];
    const pick = await vscode.window.showQuickPick(items, { title: info ? info.name : vscode.l10n.t('Attention Inspector'), placeHolder: info?.detail });
    await pick?.run();
  }

  private async inspect(inspection: Inspection, maxTokens = readSettings().maxTokens): Promise<void> {
    const engine = this.getEngine();
    const settings = readSettings();
    const request: RunRequest = { text: inspection.text, maxTokens, causal: settings.causal };
    const long = maxTokens > settings.maxTokens;
    let run: RunResult;
    try {
      run = await withDeferredProgress(vscode.l10n.t('Computing attention…'), 400, (token, report) =>
        engine.request('run', request, { signal: token, onProgress: (f, m) => report(f, m), ...(long ? { timeoutMs: LONG_RUN_TIMEOUT_MS } : {}) }),
      );
    } catch (e) {
      const err = e as Error;
      if (isCancelledError(err)) return;
      const hardLimit = Math.min(HARD_TOKEN_LIMIT, engine.modelInfo?.maxPositions ?? HARD_TOKEN_LIMIT);
      if (err.name === TOO_MANY_TOKENS && maxTokens < hardLimit) {
        const runAnyway = vscode.l10n.t('Run Anyway');
        const openSettings = vscode.l10n.t('Open Settings');
        const answer = await vscode.window.showWarningMessage(
          vscode.l10n.t('The selection is long: {0}. Inspecting up to {1} tokens may take a while; the heads of a long run are shown as block averages.', err.message, hardLimit),
          runAnyway,
          openSettings,
        );
        if (answer === runAnyway) await this.inspect(inspection, hardLimit);
        else if (answer === openSettings) void vscode.commands.executeCommand('workbench.action.openSettings', 'attentionInspector.maxTokens');
        return;
      }
      void vscode.window.showErrorMessage(vscode.l10n.t('Attention Inspector: {0}', err.message));
      return;
    }
    this.lastInspection = inspection;
    InspectorPanel.show(this.context.extensionUri, run, this.dataSource(inspection.origin), { mode: inspection.mode });
  }

  /** After a window reload: repeat the last inspection (the engine's results do not survive a reload). */
  private async repeatLastInspection(): Promise<{ run: RunResult; source: PanelDataSource } | undefined> {
    const inspection = this.lastInspection ?? { text: DEFAULT_EXAMPLE, mode: 'grid' as const };
    const run = await this.getEngine().request('run', { text: inspection.text, maxTokens: readSettings().maxTokens, causal: readSettings().causal });
    this.lastInspection = inspection;
    return { run, source: this.dataSource(inspection.origin) };
  }

  private dataSource(origin: Origin | undefined): PanelDataSource {
    const engine = this.getEngine();
    const explainStale = (e: Error): never => {
      if (e.name === STALE_RUN) throw new Error(vscode.l10n.t('These results are out of date: run Inspect Selection again.'));
      throw e;
    };
    return {
      attention: (req, token) => engine.request('attention', req, { signal: token }).catch(explainStale),
      trace: (req, token) => engine.request('trace', req, { signal: token }).catch(explainStale),
      revealToken: (run, index) => void revealToken(origin, run, index),
    };
  }

  private showModel(info: ModelInfo | undefined): void {
    if (!info) return;
    this.status.text = `$(eye) ${info.family === 'seeded' ? vscode.l10n.t('Seeded') : info.name}`;
    this.status.tooltip = new vscode.MarkdownString(`**${vscode.l10n.t('Attention Inspector model')}**\n\n${info.detail}\n\n${vscode.l10n.t('Click to load weights or go back to seeded weights.')}`);
    this.status.show();
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!this.engine) return;
    const s = readSettings();
    if (e.affectsConfiguration('attentionInspector.kernel')) this.engine.setKernel(s.kernel);
    const seededChanged = ['seed', 'heads', 'dModel'].some((k) => e.affectsConfiguration(`attentionInspector.${k}`));
    if (seededChanged && this.engine.modelSource.kind === 'seeded') this.engine.setModelSource(seededSource());
  }
}

function seededSource(): ModelSource {
  const s = readSettings();
  return { kind: 'seeded', seed: s.seed, heads: s.heads, dModel: s.dModel };
}

function seededDescription(): string {
  const s = readSettings();
  return vscode.l10n.t('seed {0}, {1} heads, d_model {2}', s.seed, s.heads, s.dModel);
}

async function readSibling(uri: vscode.Uri, name: string): Promise<string | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(uri, '..', name));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

async function revealToken(origin: Origin | undefined, run: RunResult, index: number): Promise<void> {
  const token = run.tokens[index];
  if (!origin || !token || token.start === token.end) return;
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === origin.uri.toString());
  if (!document) return;
  if (document.version !== origin.version) {
    void vscode.window.setStatusBarMessage(vscode.l10n.t('The text changed since it was inspected.'), 3000);
    return;
  }
  const range = new vscode.Range(document.positionAt(origin.offset + token.start), document.positionAt(origin.offset + token.end));
  const editor = await vscode.window.showTextDocument(document, { preserveFocus: true, selection: range, viewColumn: vscode.ViewColumn.One });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
