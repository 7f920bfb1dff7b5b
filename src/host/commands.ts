// The inspector's commands: Inspect Selection, Open Debugger, Load Weights. They gather input in the
// editor, ask the engine (in its worker) for the numbers, and hand the results to the panel.
import * as vscode from 'vscode';
import type { ModelInfo, ModelSource, RunRequest, RunResult } from '../protocol/engine';
import { NOT_IN_VOCABULARY, STALE_RUN, TOO_MANY_TOKENS } from '../protocol/engine';
import { isCancelledError } from '../protocol/rpc';
import type { InspectedText } from '../protocol/webview';
import { EngineHost } from './engine-host';
import { localisedError, localisedParts, problemLoading, refusedTokenCount } from './engine-errors';
import { localisedModelText } from './model-text';
import { errorWithoutHint, headChoices, idsFromText } from './inspect-input';
import { InspectorPanel, type PanelDataSource, type RerunOutcome } from './panel/panel';
import type { PanelRestoreState } from './panel/restore';
import { readSettings } from './settings';
import { localisedProgress, withDeferredProgress } from './progress';
import { JSON_SIZE_ERRORS, jsonTooLarge, MAX_CONFIG_JSON_BYTES, MAX_TOKENIZER_JSON_BYTES } from '../weights/options';
import { MessageError, messagePartsOf, msg } from '../protocol/message';
import { MODEL_ERRORS } from '../models/errors';

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
const WEIGHT_EXTENSIONS = ['safetensors', 'pt', 'pth', 'bin', 'npz', 'npy', 'json'];
/** globalState: the number of heads the user chose for a bare attention file, by file URI. */
const HEADS_BY_FILE = 'attentionInspector.headsByFile';
/** workspaceState: the weight file loaded last (a URI), so that a reloaded window shows the same model. */
const LOADED_MODEL = 'attentionInspector.loadedModel';
/** The small trained model shipped in the .vsix (scripts/tiny-model/train.py, docs/tiny-model.md). */
export const TINY_MODEL_PATH = ['media', 'models', 'tiny-bilingual', 'model.safetensors'] as const;
const TINY_MODEL_NAME = 'tiny-bilingual/model.safetensors';

/** Where an inspected text came from, to point back at it. */
interface Origin {
  uri: vscode.Uri;
  /** The document's version when inspected; absent after a reload (then the text itself is compared). */
  version?: number;
  offset: number;
  text: string;
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
      InspectorPanel.registerSerializer(context.extensionUri, (restored) => this.repeatLastInspection(restored)),
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
  /** The engine worker's host side, shared with the recorder (started on first use). */
  engineHost(): EngineHost {
    return this.getEngine();
  }

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
    await this.inspect({ text, origin: { uri: document.uri, version: document.version, offset: document.offsetAt(range.start), text }, mode: 'grid' });
  }

  async openDebugger(): Promise<void> {
    const panel = InspectorPanel.current;
    if (panel?.lastRun && this.lastInspection) {
      await this.inspect({ ...this.lastInspection, mode: 'debugger' });
      return;
    }
    await this.inspect({ text: DEFAULT_EXAMPLE, mode: 'debugger' });
  }

  /**
   * `fileName` names the model in messages and the status bar (default: the file's own name). Returns the error
   * message shown when the weights could not be loaded (undefined when they loaded or the user cancelled).
   */
  async loadWeights(uri?: vscode.Uri, fileName?: string): Promise<string | undefined> {
    if (!uri) {
      // One dialog: native dialogs on Windows and Linux pick files or folders, never both, so a model folder
      // is picked there through its config.json (or its shard index, or a shard); macOS picks the folder itself.
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        canSelectFiles: true,
        canSelectFolders: process.platform === 'darwin',
        filters: { [vscode.l10n.t('Model weights')]: WEIGHT_EXTENSIONS },
        title: vscode.l10n.t("Load attention weights: a weight file, or a model folder's config.json"),
        openLabel: vscode.l10n.t('Load Weights'),
      });
      if (!picked?.[0]) return undefined;
      uri = picked[0];
    }
    // config.json, the shard index or one shard stands for the model folder it is in.
    if (
      /\/(config\.json|model\.safetensors\.index\.json|pytorch_model\.bin\.index\.json|model-\d+-of-\d+\.safetensors|pytorch_model-\d+-of-\d+\.bin)$/.test(
        uri.path,
      )
    ) {
      uri = vscode.Uri.joinPath(uri, '..');
    }
    fileName ??= uri.path.replace(/\/+$/, '').split('/').pop() ?? uri.toString();
    const engine = this.getEngine();
    const previous = engine.modelSource;
    try {
      let info = await this.loadFile(uri, this.rememberedHeads(uri), fileName);
      if (info.headsAssumed) {
        const heads = await this.askHeads(fileName, info);
        if (heads !== undefined && heads !== info.nHead) info = await this.loadFile(uri, heads, fileName);
        if (heads !== undefined) await this.rememberHeads(uri, heads);
      }
      await this.context.workspaceState.update(LOADED_MODEL, uri.toString());
      void vscode.window.showInformationMessage(vscode.l10n.t('Loaded {0}: {1}', fileName, localisedModelText(info.detailParts)));
      await this.refreshPanelForModel(info);
      return undefined;
    } catch (e) {
      engine.setModelSource(previous);
      if (isCancelledError(e)) return undefined;
      const message = vscode.l10n.t('Could not load {0}: {1}', fileName, problemLoading(fileName, e));
      void vscode.window.showErrorMessage(message);
      return message;
    }
  }

  /** Configures the engine with a weight file (its config.json and tokenizer.json beside it) and loads it. */
  /** `name` names the model in messages and the status bar (default: the file or folder's own name). */
  private async loadFile(uri: vscode.Uri, heads: number | undefined, name?: string): Promise<ModelInfo> {
    const fileName = name ?? uri.path.replace(/\/+$/, '').split('/').pop() ?? uri.toString();
    const isFolder = await vscode.workspace.fs.stat(uri).then(
      (st) => (st.type & vscode.FileType.Directory) !== 0,
      () => false,
    );
    let source: ModelSource;
    if (isFolder) {
      if (uri.scheme !== 'file') throw new Error(vscode.l10n.t('model folders are read from the local disk; open a weight file instead'));
      source = { kind: 'folder', fileName, path: uri.fsPath, seed: readSettings().seed };
    } else {
      // Sized before reading: JSON.parse of a few hundred MB would end the extension host.
      const [configJson, tokenizerJson] = await Promise.all([
        readSibling(uri, 'config.json', MAX_CONFIG_JSON_BYTES),
        readSibling(uri, 'tokenizer.json', MAX_TOKENIZER_JSON_BYTES),
      ]);
      const common = { kind: 'file' as const, fileName, configJson, tokenizerJson, seed: readSettings().seed, ...(heads !== undefined ? { heads } : {}) };
      source = uri.scheme === 'file' ? { ...common, path: uri.fsPath } : { ...common, bytes: await vscode.workspace.fs.readFile(uri) };
    }
    const engine = this.getEngine();
    engine.setModelSource(source);
    return withDeferredProgress(vscode.l10n.t('Loading {0}…', fileName), 0, (token, report) =>
      engine.ensureModel({ signal: token, onProgress: (f, m, parts) => report(f, localisedProgress(m, parts)) }),
    );
  }

  private rememberedHeads(uri: vscode.Uri): number | undefined {
    const map = this.context.globalState.get<Record<string, number>>(HEADS_BY_FILE, {});
    const n = map[uri.toString()];
    return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
  }

  private async rememberHeads(uri: vscode.Uri, heads: number): Promise<void> {
    const map = { ...this.context.globalState.get<Record<string, number>>(HEADS_BY_FILE, {}) };
    map[uri.toString()] = heads;
    await this.context.globalState.update(HEADS_BY_FILE, map);
  }

  /** A bare attention layer whose file does not say how many heads it has: the user picks (Escape keeps the guess). */
  private async askHeads(fileName: string, info: ModelInfo): Promise<number | undefined> {
    const width = info.nHead * info.headDim;
    const items = headChoices(width).map((c) => ({
      label: c.heads === 1 ? vscode.l10n.t('1 head') : vscode.l10n.t('{0} heads', c.heads),
      description: c.headDim === 1 ? vscode.l10n.t('1 dimension each') : vscode.l10n.t('{0} dimensions each', c.headDim),
      detail: c.heads === info.nHead ? vscode.l10n.t('the default guess (width / 64, at least 1)') : undefined,
      heads: c.heads,
      picked: c.heads === info.nHead,
    }));
    const pick = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('How many heads does {0} have?', fileName),
      placeHolder: vscode.l10n.t(
        'The file has no config.json, and its shapes fit any number of heads that divides the width {0}: choose the num_heads the layer was built with.',
        width,
      ),
      ignoreFocusOut: true,
    });
    return pick?.heads;
  }

  /** Lets the user change the number of heads of the loaded bare attention file (remembered for that file). */
  async setHeads(): Promise<void> {
    const engine = this.getEngine();
    const info = engine.modelInfo;
    const stored = this.context.workspaceState.get<string>(LOADED_MODEL);
    if (!info || info.family !== 'attention-layer' || !stored) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Load a bare attention layer first (Load Weights): only its number of heads can be set.'));
      return;
    }
    const uri = vscode.Uri.parse(stored);
    const fileName = uri.path.split('/').pop() ?? stored;
    const heads = await this.askHeads(fileName, info);
    if (heads === undefined) return;
    try {
      const loaded = await this.loadFile(uri, heads);
      await this.rememberHeads(uri, heads);
      await this.refreshPanelForModel(loaded);
    } catch (e) {
      if (!isCancelledError(e)) void vscode.window.showErrorMessage(vscode.l10n.t('Could not load {0}: {1}', fileName, problemLoading(fileName, e)));
    }
  }

  /**
   * After the model changed: the panel shows the last inspection again with the new model, or, when that
   * cannot run, says so instead of keeping the previous model's results.
   */
  private async refreshPanelForModel(info: ModelInfo): Promise<void> {
    const panel = InspectorPanel.current;
    if (!panel) return;
    const name = info.family === 'seeded' ? vscode.l10n.t('seeded weights') : localisedModelText(info.nameParts);
    if (!this.lastInspection) {
      panel.clear(vscode.l10n.t('Now using {0}. Select some text and run “Attention Inspector: Inspect Selection”.', name));
      return;
    }
    const error = await this.inspect(this.lastInspection);
    if (error) panel.clear(vscode.l10n.t('Now using {0}; the last inspection could not run with it: {1}', name, error));
  }

  async useSeededWeights(): Promise<void> {
    this.getEngine().setModelSource(seededSource());
    await this.context.workspaceState.update(LOADED_MODEL, undefined);
    try {
      const info = await this.getEngine().ensureModel();
      await this.refreshPanelForModel(info);
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Attention Inspector: {0}', localisedError(e)));
    }
  }

  private async chooseModel(): Promise<void> {
    const info = this.engine?.modelInfo;
    const items: (vscode.QuickPickItem & { run: () => Promise<unknown> })[] = [
      { label: '$(folder-opened) ' + vscode.l10n.t('Load Weights…'), run: () => this.loadWeights() },
      { label: '$(symbol-numeric) ' + vscode.l10n.t('Use Seeded Weights'), description: seededDescription(), run: () => this.useSeededWeights() },
      ...(info?.family === 'attention-layer'
        ? [
            {
              label: '$(list-ordered) ' + vscode.l10n.t('Set the Number of Heads…'),
              description: vscode.l10n.t('{0} heads now', info.nHead),
              run: () => this.setHeads(),
            },
          ]
        : []),
      {
        label: '$(mortar-board) ' + vscode.l10n.t('Use the Tiny Trained Model'),
        description: vscode.l10n.t('English + Chinese, ships with the extension'),
        run: () => this.loadWeights(vscode.Uri.joinPath(this.context.extensionUri, ...TINY_MODEL_PATH), TINY_MODEL_NAME),
      },
      { label: '$(eye) ' + vscode.l10n.t('Inspect Selection'), run: () => this.inspectSelection() },
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: info ? localisedModelText(info.nameParts) : vscode.l10n.t('Attention Inspector'),
      placeHolder: info ? localisedModelText(info.detailParts) : undefined,
    });
    await pick?.run();
  }

  /** The run request for a text: a checkpoint with a vocabulary reads a selection of numbers only as token ids. */
  private runRequest(text: string, maxTokens: number): RunRequest {
    const settings = readSettings();
    const family = this.engine?.modelInfo?.family;
    const ids = family !== undefined && family !== 'seeded' && family !== 'attention-layer' ? idsFromText(text) : undefined;
    return { text, maxTokens, causal: settings.causal, ...(ids ? { ids } : {}) };
  }

  /** Runs an inspection and shows it; returns the error message shown when it could not run (undefined when it ran or was cancelled). */
  private async inspect(inspection: Inspection, maxTokens = readSettings().maxTokens): Promise<string | undefined> {
    const engine = this.getEngine();
    const settings = readSettings();
    await engine.ensureModel().catch(() => undefined); // the model's family decides how the text is read; errors surface in the run
    const request = this.runRequest(inspection.text, maxTokens);
    const long = maxTokens > settings.maxTokens;
    // Closing the panel the run is for cancels it.
    const closed = new vscode.CancellationTokenSource();
    const panelAtStart = InspectorPanel.current;
    const watch = panelAtStart?.onDidDispose(() => closed.cancel());
    let run: RunResult;
    try {
      run = await withDeferredProgress(
        vscode.l10n.t('Computing attention…'),
        400,
        (token, report) =>
          engine.request('run', request, {
            signal: token,
            onProgress: (f, m, parts) => report(f, localisedProgress(m, parts)),
            ...(long ? { timeoutMs: LONG_RUN_TIMEOUT_MS } : {}),
          }),
        closed.token,
      );
    } catch (e) {
      const err = e as Error;
      if (isCancelledError(err) || closed.token.isCancellationRequested) return undefined;
      const hardLimit = Math.min(HARD_TOKEN_LIMIT, engine.modelInfo?.maxPositions ?? HARD_TOKEN_LIMIT);
      if (err.name === TOO_MANY_TOKENS && maxTokens < hardLimit) {
        const runAnyway = vscode.l10n.t('Run Anyway');
        const openSettings = vscode.l10n.t('Open Settings');
        const answer = await vscode.window.showWarningMessage(
          longSelectionQuestion(inspection.text, refusedTokenCount(err), maxTokens, hardLimit),
          runAnyway,
          openSettings,
        );
        if (answer === runAnyway) return await this.inspect(inspection, hardLimit);
        if (answer === openSettings) void vscode.commands.executeCommand('workbench.action.openSettings', 'attentionInspector.maxTokens');
        return undefined;
      }
      const message = err.name === NOT_IN_VOCABULARY ? this.vocabularyMessage(err) : localisedError(err);
      void vscode.window.showErrorMessage(vscode.l10n.t('Attention Inspector: {0}', message));
      return message;
    } finally {
      watch?.dispose();
      closed.dispose();
    }
    this.lastInspection = inspection;
    InspectorPanel.show(this.context.extensionUri, run, this.dataSource(inspection.origin), { mode: inspection.mode, inspected: inspectedOf(inspection) });
    return undefined;
  }

  /** A checkpoint's vocabulary cannot hold the text's tokens: what to do about it in the editor. */
  private vocabularyMessage(err: Error): string {
    const info = this.engine?.modelInfo;
    const name = info ? localisedModelText(info.nameParts) : vscode.l10n.t('The model');
    return vscode.l10n.t(
      '{0} cannot read this text ({1}). Put the tokenizer.json that belongs to this checkpoint beside its weights and load them again, or select the token ids themselves (numbers only, for example 464, 3797, 3332) and run Inspect Selection on them.',
      name,
      vocabularyProblem(err),
    );
  }

  /**
   * After a window reload: repeat the inspection the panel showed (the engine's results do not survive a
   * reload), with the text kept in the panel's saved state and the weight file loaded last; when there is
   * nothing to repeat, or it cannot run, the panel says so instead of showing other text.
   */
  private async repeatLastInspection(restored: PanelRestoreState): Promise<RerunOutcome> {
    const inspection = this.lastInspection ?? inspectionFrom(restored);
    if (!inspection) {
      return {
        error: vscode.l10n.t(
          'The panel could not restore what it showed before the window was reloaded (the text was not kept). Select the text and run “Attention Inspector: Inspect Selection” again.',
        ),
      };
    }
    await this.restoreLoadedModel();
    try {
      const run = await this.getEngine().request('run', this.runRequest(inspection.text, Math.max(readSettings().maxTokens, HARD_TOKEN_LIMIT)), {
        timeoutMs: LONG_RUN_TIMEOUT_MS,
      });
      this.lastInspection = inspection;
      return { run, source: this.dataSource(inspection.origin), inspected: inspectedOf(inspection) };
    } catch (e) {
      const err = e as Error;
      const message = err.name === NOT_IN_VOCABULARY ? this.vocabularyMessage(err) : localisedError(err);
      return { error: vscode.l10n.t('The panel could not show “{0}” again after the reload: {1}', preview(inspection.text), message) };
    }
  }

  /** The weight file loaded before a reload, loaded again (silently seeded weights when it is gone). */
  private async restoreLoadedModel(): Promise<void> {
    const stored = this.context.workspaceState.get<string>(LOADED_MODEL);
    if (!stored || this.getEngine().modelSource.kind === 'file') return;
    const uri = vscode.Uri.parse(stored);
    try {
      await this.loadFile(uri, this.rememberedHeads(uri));
    } catch {
      this.getEngine().setModelSource(seededSource());
      await this.context.workspaceState.update(LOADED_MODEL, undefined);
    }
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
    this.status.text = `$(eye) ${info.family === 'seeded' ? vscode.l10n.t('Seeded') : localisedModelText(info.nameParts)}`;
    this.status.tooltip = new vscode.MarkdownString(
      `**${vscode.l10n.t('Attention Inspector model')}**\n\n${localisedModelText(info.detailParts)}\n\n${vscode.l10n.t('Click to load weights or go back to seeded weights.')}`,
    );
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

/** A JSON file beside the weights, if any; one over `maxBytes` is refused by its size, before it is read. */
async function readSibling(uri: vscode.Uri, name: string, maxBytes: number): Promise<string | undefined> {
  const sibling = vscode.Uri.joinPath(uri, '..', name);
  let size: number;
  try {
    ({ size } = await vscode.workspace.fs.stat(sibling));
  } catch {
    return undefined;
  }
  if (size > maxBytes) throw new MessageError(jsonTooLarge(msg(JSON_SIZE_ERRORS.beside, name), size, maxBytes));
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(sibling));
  } catch {
    return undefined;
  }
}

/** A vocabulary error without its hint (the hint speaks of the CLI: "…; pass --ids"), in the display language. */
function vocabularyProblem(err: Error): string {
  const parts = messagePartsOf(err);
  const [problem] = parts?.template === MODEL_ERRORS.withHint ? parts.args : [];
  if (typeof problem === 'object') return localisedParts(problem);
  return parts ? localisedParts(parts) : errorWithoutHint(err.message);
}

function inspectedOf(inspection: Inspection): InspectedText {
  const o = inspection.origin;
  return o ? { text: inspection.text, uri: o.uri.toString(), offset: o.offset } : { text: inspection.text };
}

function inspectionFrom(restored: PanelRestoreState): Inspection | undefined {
  const kept = restored.inspected;
  if (!kept) return undefined;
  let origin: Origin | undefined;
  if (kept.uri !== undefined && kept.offset !== undefined) {
    try {
      origin = { uri: vscode.Uri.parse(kept.uri, true), offset: kept.offset, text: kept.text };
    } catch {
      origin = undefined;
    }
  }
  return { text: kept.text, origin, mode: restored.mode };
}

/** The start of a text, for a message. */
function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 40 ? `${oneLine.slice(0, 40)}…` : oneLine;
}

async function revealToken(origin: Origin | undefined, run: RunResult, index: number): Promise<void> {
  const token = run.tokens[index];
  if (!origin || !token || token.start === token.end) return;
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === origin.uri.toString());
  if (!document) return;
  const unchanged =
    origin.version !== undefined
      ? document.version === origin.version
      : document.getText(new vscode.Range(document.positionAt(origin.offset), document.positionAt(origin.offset + origin.text.length))) === origin.text;
  if (!unchanged) {
    void vscode.window.setStatusBarMessage(vscode.l10n.t('The text changed since it was inspected.'), 3000);
    return;
  }
  const range = new vscode.Range(document.positionAt(origin.offset + token.start), document.positionAt(origin.offset + token.end));
  const editor = await vscode.window.showTextDocument(document, { preserveFocus: true, selection: range, viewColumn: vscode.ViewColumn.One });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** Run a selection longer than the maxTokens setting? Its size in tokens (as the engine counted them), characters and lines. */
function longSelectionQuestion(text: string, count: { tokens: number; atLeast: boolean } | undefined, maxTokens: number, hardLimit: number): string {
  const n = (x: number) => x.toLocaleString(vscode.env.language);
  const chars = n(text.length);
  const lines = n(text.split('\n').length);
  if (!count)
    return vscode.l10n.t(
      'The selection is long: {0} characters on {1} lines, more than {2} tokens (the attentionInspector.maxTokens setting). Inspecting up to {3} tokens may take a while; the heads of a long run are shown as block averages.',
      chars,
      lines,
      maxTokens,
      hardLimit,
    );
  return count.atLeast
    ? vscode.l10n.t(
        'The selection is long: more than {0} tokens ({1} characters on {2} lines), over the limit of {3} tokens (the attentionInspector.maxTokens setting). Inspecting up to {4} tokens may take a while; the heads of a long run are shown as block averages.',
        n(count.tokens),
        chars,
        lines,
        maxTokens,
        hardLimit,
      )
    : vscode.l10n.t(
        'The selection is long: {0} tokens ({1} characters on {2} lines), over the limit of {3} tokens (the attentionInspector.maxTokens setting). Inspecting up to {4} tokens may take a while; the heads of a long run are shown as block averages.',
        n(count.tokens),
        chars,
        lines,
        maxTokens,
        hardLimit,
      );
}
