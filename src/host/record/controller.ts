// Recording attention from the user's own program: the commands, the run (interpreter, output channel,
// progress with Cancel), the runtime diagnostics, the Recorded Attention view, CodeLens and opening a recorded
// call in the panel. Recording executes the user's code: only on an explicit command, never in an untrusted
// workspace.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { recordedSoFar, runRecorder, type RecordRun } from '../../cli/record-runner';
import type { RecordedSourceLine } from '../../protocol/engine';
import type { RuntimeFinding, TraceCall, TraceIndex } from '../../record';
import { TraceDiagnosis, type TraceAnalysis } from '../../record/trace-diagnosis';
import type { EngineHost } from '../engine-host';
import { localisedError } from '../engine-errors';
import { InspectorPanel } from '../panel/panel';
import { findTargets } from '../../record/targets';
import { runtimeEvidence } from '../lint/runtime-evidence';
import { RecordCodeLensProvider } from './codelens';
import { pickInterpreter, resolveInterpreter, torchVersion } from './interpreter';
import { RecordedCallsTree } from './tree';
import { localisedRuntime } from './runtime-l10n';

export const RUNTIME_SOURCE = 'attention-inspector (runtime)';
const RUN_ID_BASE = 1_000_000_000; // recorded runs never collide with the engine's run ids
/** The engine worker's time per part of a recording's diagnosis (a call opened meanwhile waits for one part). */
const DIAGNOSE_PART_MS = 150;

interface Recording {
  trace: TraceIndex;
  dir: string;
  findings: RuntimeFinding[];
}

export class RecordingController implements vscode.Disposable {
  private readonly output = vscode.window.createOutputChannel('Attention Inspector: Recording');
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('attention-inspector-runtime');
  private readonly tree = new RecordedCallsTree();
  private readonly lenses = new RecordCodeLensProvider((uri) => this.callsAt(uri));
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    isWholeLine: true,
  });
  /** The line(s) of the debugger's current step of a recorded hand-written chain. */
  private readonly stepHighlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('attentionInspector.recordedStepBackground'),
    borderColor: new vscode.ThemeColor('attentionInspector.recordedStepBorder'),
    borderStyle: 'solid',
    borderWidth: '0 0 0 3px',
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor('attentionInspector.recordedStepBorder'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private readonly disposables: vscode.Disposable[] = [];
  private recording: Recording | undefined;
  private running: AbortController | undefined;
  private runCounter = 0;
  /** Files edited since the last recording ran: its findings and evidence no longer describe them. */
  private readonly editedSinceRecording = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    /** The engine worker, which reads the captured tensors and computes the panel's numbers (never this thread). */
    private readonly engine: () => EngineHost,
  ) {}

  register(): vscode.Disposable[] {
    return [
      this.output,
      this.diagnostics,
      this.highlight,
      this.stepHighlight,
      vscode.window.registerTreeDataProvider('attentionInspector.recordedCalls', this.tree),
      vscode.languages.registerCodeLensProvider({ language: 'python', scheme: 'file' }, this.lenses),
      vscode.commands.registerCommand('attentionInspector.recordFile', (uri?: vscode.Uri) => this.recordFile(uri)),
      vscode.commands.registerCommand('attentionInspector.recordTest', (uri?: vscode.Uri, test?: string) => this.recordTest(uri, test)),
      vscode.commands.registerCommand('attentionInspector.openRecordedCall', (arg?: number | { call?: TraceCall }) =>
        this.openCall(typeof arg === 'number' ? arg : arg?.call?.id),
      ),
      vscode.commands.registerCommand('attentionInspector.goToRecordedSource', (a?: string | { call?: TraceCall }, line?: number) => this.goToSource(a, line)),
      // Runtime findings describe the file as it ran: an edit makes them stale.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        this.editedSinceRecording.add(e.document.uri.toString()); // later parts of the diagnosis skip it too
        if (this.diagnostics.has(e.document.uri)) this.diagnostics.delete(e.document.uri);
        runtimeEvidence.drop(e.document.uri.toString()); // the static findings show as the linter gives them again
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.lenses.refresh()),
      { dispose: () => this.running?.abort() },
    ];
  }

  dispose(): void {
    this.running?.abort();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }

  private trusted(): boolean {
    if (vscode.workspace.isTrusted) return true;
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Recording attention runs your program, which Restricted Mode does not allow. Trust this workspace to record.'),
    );
    return false;
  }

  private targetUri(uri: vscode.Uri | undefined): vscode.Uri | undefined {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target || target.scheme !== 'file' || !target.fsPath.endsWith('.py')) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Open a Python file (.py) to record attention from it.'));
      return undefined;
    }
    return target;
  }

  async recordFile(uri?: vscode.Uri): Promise<void> {
    if (!this.trusted()) return;
    const target = this.targetUri(uri);
    if (!target) return;
    await this.record(target, { script: target.fsPath, pytest: null }, vscode.l10n.t('Recording attention: {0}', target.fsPath.split(/[\\/]/).pop() ?? ''));
  }

  async recordTest(uri?: vscode.Uri, test?: string): Promise<void> {
    if (!this.trusted()) return;
    const target = this.targetUri(uri);
    if (!target) return;
    let name = test;
    if (!name) {
      // The test around the cursor, else the whole file.
      const editor = vscode.window.activeTextEditor;
      if (editor && editor.document.uri.toString() === target.toString()) {
        const tests = findTargets(editor.document.getText()).tests.filter((t) => t.line <= editor.selection.active.line);
        name = tests.pop()?.name;
      }
    }
    const nodeId = name ? `${target.fsPath}::${name}` : target.fsPath;
    await this.record(target, { script: null, pytest: nodeId }, vscode.l10n.t('Recording attention: {0}', name ?? target.fsPath.split(/[\\/]/).pop() ?? ''));
  }

  private async record(target: vscode.Uri, what: { script: string | null; pytest: string | null }, title: string): Promise<void> {
    if (this.running) {
      void vscode.window.showWarningMessage(vscode.l10n.t('A recording is already running.'));
      return;
    }
    await vscode.workspace.saveAll(false);
    const folder = vscode.workspace.getWorkspaceFolder(target);
    const cwd = folder?.uri.fsPath ?? dirname(target.fsPath);
    let python = await resolveInterpreter(target);
    const version = await torchVersion(python.path);
    if (version instanceof Error) {
      const pick = vscode.l10n.t('Pick Interpreter…');
      const answer = await vscode.window.showErrorMessage(
        vscode.l10n.t('PyTorch is not importable with {0} ({1}): {2}', python.path, python.from, version.message),
        pick,
      );
      if (answer !== pick) return;
      const picked = await pickInterpreter();
      if (!picked) return;
      python = { path: picked, from: vscode.l10n.t('the setting attentionInspector.python') };
    }
    const config = vscode.workspace.getConfiguration('attentionInspector', target);
    const maxCalls = config.get<number>('record.maxCallsPerSite', 4);
    const maxBytes = config.get<number>('record.maxMegabytes', 256) * 1024 * 1024;
    const storage = this.context.storageUri?.fsPath ?? this.context.globalStorageUri.fsPath;
    const out = join(storage, 'recordings', `run-${Date.now()}`);
    mkdirSync(out, { recursive: true });

    // A new recording replaces the last one: its findings, its evidence on static findings, its calls and its folder.
    this.diagnostics.clear();
    runtimeEvidence.replace([], () => '');
    if (this.recording) rmSync(this.recording.dir, { recursive: true, force: true });
    this.recording = undefined;
    this.tree.set(undefined, []);
    this.lenses.refresh();

    this.output.clear();
    this.output.show(true);
    this.output.appendLine(`$ ${python.path} -m attention_recorder … ${what.script ?? `--pytest ${what.pytest}`}   (${python.from})`);
    const abort = new AbortController();
    this.running = abort;
    let run: RecordRun | undefined;
    try {
      run = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
        token.onCancellationRequested(() => abort.abort());
        const timer = setInterval(() => {
          const n = recordedSoFar(out);
          progress.report({ message: n === 1 ? vscode.l10n.t('1 call captured') : vscode.l10n.t('{0} calls captured', n) });
        }, 500);
        try {
          return await runRecorder(
            {
              python: python.path,
              out,
              maxCalls,
              maxBytes,
              script: what.script,
              pytest: what.pytest,
              programArgs: [],
              cwd,
              workspace: folder ? [cwd] : [dirname(target.fsPath)],
              signal: abort.signal,
            },
            (_stream, text) => this.output.append(text),
          );
        } finally {
          clearInterval(timer);
        }
      });
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Recording failed: {0}', localisedError(e)));
      return;
    } finally {
      this.running = undefined;
    }
    if (abort.signal.aborted && !run.trace) {
      this.output.appendLine(vscode.l10n.t('Cancelled.'));
      return;
    }
    if (!run.trace) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('The recorder wrote no trace (exit code {0}); see the output for why.', String(run.processExitCode ?? run.signal)),
      );
      return;
    }
    // The calls are listed (and can be opened) at once; the diagnosis follows in parts in the engine worker,
    // its findings shown as they come.
    const rec: Recording = { trace: run.trace, dir: out, findings: [] };
    this.recording = rec;
    this.editedSinceRecording.clear();
    this.tree.set(run.trace, []);
    void vscode.commands.executeCommand('setContext', 'attentionInspector.hasRecording', run.trace.calls.length > 0);
    this.lenses.refresh();
    void vscode.commands.executeCommand('attentionInspector.recordedCalls.focus');
    let analysis;
    try {
      analysis = await this.diagnose(rec);
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Recording failed: {0}', localisedError(e)));
      return;
    }
    if (!analysis) return; // another recording replaced this one
    for (const p of analysis.problems) this.output.appendLine(p);
    // The findings are the point: bring the Problems view back in front of the program's output.
    if (analysis.findings.length > 0) void vscode.commands.executeCommand('workbench.actions.view.problems', { preserveFocus: true });
    const n = run.trace.calls.length;
    const exit = run.trace.program.exitCode;
    if (n === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'No attention calls were recorded: the program never called F.scaled_dot_product_attention, nn.MultiheadAttention or a softmax over q·kᵀ followed by a matmul with v.',
        ),
      );
    } else {
      const summary = vscode.l10n.t('Recorded {0} attention call(s); {1} runtime finding(s).', n, analysis.findings.length);
      void vscode.window.showInformationMessage(
        exit === 0 ? summary : `${summary} ${vscode.l10n.t('The program failed (exit code {0}); what ran before is recorded.', exit)}`,
      );
    }
  }

  /**
   * Diagnoses the recording's calls part by part in the engine worker (about DIAGNOSE_PART_MS each, so that
   * opening a call waits for one part at most), publishing the findings and the evidence on static findings
   * after each part. Undefined when another recording replaced this one before the end.
   */
  private async diagnose(rec: Recording): Promise<TraceAnalysis | undefined> {
    const all = new TraceDiagnosis(rec.trace);
    while (!all.complete) {
      const part = await this.engine().request('recordingDiagnose', { dir: rec.dir, trace: rec.trace, from: all.done, budgetMs: DIAGNOSE_PART_MS });
      if (this.recording !== rec) return undefined;
      all.add(part);
      const analysis = all.analysis();
      if (part.findings.length > 0 || part.evidence.length > 0 || all.complete) {
        rec.findings = analysis.findings;
        this.publish(analysis.findings);
        runtimeEvidence.replace(
          analysis.evidence.filter((e) => !this.editedSinceRecording.has(vscode.Uri.file(e.path).toString())),
          (e) => vscode.Uri.file(e.path).toString(),
        );
        this.tree.set(rec.trace, analysis.findings);
      }
    }
    return all.analysis();
  }

  private publish(findings: RuntimeFinding[]): void {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const f of findings) {
      if (this.editedSinceRecording.has(vscode.Uri.file(f.path).toString())) continue; // stale: the file changed
      const line = Math.max(0, f.line - 1);
      const range = new vscode.Range(line, Math.max(0, f.column - 1), line, Number.MAX_SAFE_INTEGER);
      const d = new vscode.Diagnostic(
        range,
        localisedRuntime(f.messageParts, f.message),
        f.severity === 'error'
          ? vscode.DiagnosticSeverity.Error
          : f.severity === 'warning'
            ? vscode.DiagnosticSeverity.Warning
            : vscode.DiagnosticSeverity.Information,
      );
      d.source = RUNTIME_SOURCE;
      d.code = {
        value: `${f.code} (call #${f.callId})`,
        target: vscode.Uri.parse(`command:attentionInspector.openRecordedCall?${encodeURIComponent(JSON.stringify([f.callId]))}`),
      };
      const list = byFile.get(f.path) ?? [];
      list.push(d);
      byFile.set(f.path, list);
    }
    for (const [path, list] of byFile) this.diagnostics.set(vscode.Uri.file(path), list);
  }

  /** Calls of the last recording per 1-based user line of a file. */
  private callsAt(uri: vscode.Uri): Map<number, number[]> {
    const out = new Map<number, number[]>();
    for (const c of this.recording?.trace.calls ?? []) {
      const f = c.site.user;
      if (f && vscode.Uri.file(f.path).toString() === uri.toString()) out.set(f.line, [...(out.get(f.line) ?? []), c.id]);
    }
    return out;
  }

  private async goToSource(a: string | { call?: TraceCall } | undefined, line?: number): Promise<void> {
    let path: string | undefined;
    let at = line;
    if (typeof a === 'string') path = a;
    else if (a?.call) {
      const f = a.call.site.user ?? a.call.site.library;
      path = f?.path;
      at = f?.line;
    }
    if (!path || !at) return;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const pos = new vscode.Position(Math.max(0, at - 1), 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preserveFocus: false });
  }

  /** Opens a recorded call (with the other layers of its forward pass) in the panel, and shows its source lines. */
  async openCall(id: number | undefined): Promise<void> {
    const rec = this.recording;
    if (rec && id === undefined && rec.trace.calls.length > 0) {
      // From the palette: the only call, or the one the user picks.
      if (rec.trace.calls.length === 1) id = 0;
      else {
        const items = rec.trace.calls.map((c) => ({
          label: `#${c.id} ${c.kind}`,
          description: [c.site.user ? `${c.site.user.path.split(/[\\/]/).pop()}:${c.site.user.line}` : '', c.module ?? ''].filter(Boolean).join('  '),
          id: c.id,
        }));
        id = (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Recorded call to open') }))?.id;
        if (id === undefined) return;
      }
    }
    const call = rec && id !== undefined ? rec.trace.calls[id] : undefined;
    if (!rec || id === undefined || !call) {
      void vscode.window.showErrorMessage(vscode.l10n.t('That recorded call is no longer available: record again.'));
      return;
    }
    try {
      const engine = this.engine();
      const callId = id;
      const opened = await engine.request('recordingOpen', { dir: rec.dir, trace: rec.trace, callId, runId: RUN_ID_BASE + ++this.runCounter, batch: 0 });
      InspectorPanel.show(
        this.context.extensionUri,
        opened.run,
        {
          attention: (req, token) => engine.request('recordedAttention', req, { signal: token }),
          trace: (req, token) => engine.request('recordedTrace', req, { signal: token }),
          // Another batch element of the same call: the same layers, heads and mode in the panel.
          showSource: (lines, reveal) => void this.showStepSource(lines, reveal),
          recordedBatch: async (_run, batch) => {
            if (this.recording !== rec) throw new Error(vscode.l10n.t('That recorded call is no longer available: record again.'));
            return (await engine.request('recordingOpen', { dir: rec.dir, trace: rec.trace, callId, runId: RUN_ID_BASE + ++this.runCounter, batch })).run;
          },
        },
        { mode: 'debugger', focus: { layer: opened.layer, head: 0 } },
      );
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Cannot show call #{0}: {1}', id, localisedError(e)));
    }
    await this.showSourceLines(call);
  }

  /**
   * Highlights the user's line(s) of the debugger's current step (the first file's, when a step spans files) and
   * scrolls to them; with `reveal` (the step's link was clicked) the editor takes the focus with the cursor there.
   */
  private async showStepSource(lines: RecordedSourceLine[], reveal: boolean): Promise<void> {
    const [step] = lines; // the panel sends one line or more
    if (!step) return;
    const uri = vscode.Uri.file(step.path);
    let editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    try {
      if (!editor || reveal) {
        const doc = editor?.document ?? (await vscode.workspace.openTextDocument(uri));
        const first = new vscode.Position(Math.max(0, step.line - 1), Math.max(0, step.column - 1));
        editor = await vscode.window.showTextDocument(doc, {
          viewColumn: editor?.viewColumn ?? vscode.ViewColumn.One,
          preserveFocus: !reveal,
          ...(reveal ? { selection: new vscode.Range(first, first) } : {}),
        });
      }
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Cannot open {0}: {1}', uri.fsPath, localisedError(e)));
      return;
    }
    const doc = editor.document;
    const ranges = lines.filter((l) => l.path === step.path && l.line >= 1 && l.line <= doc.lineCount).map((l) => doc.lineAt(l.line - 1).range);
    editor.setDecorations(this.stepHighlight, ranges);
    const top = ranges[0];
    if (top) editor.revealRange(top, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  /** Reveals the call's line and highlights the line of each op of a hand-written call. */
  private async showSourceLines(call: TraceCall): Promise<void> {
    const f = call.site.user;
    if (!f) return;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(f.path));
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preserveFocus: true });
    const lines = new Set<number>([f.line]);
    for (const op of [...call.ops, ...call.afterSoftmax]) if (op.path === f.path && op.line) lines.add(op.line);
    const ranges = [...lines].filter((l) => l >= 1 && l <= doc.lineCount).map((l) => doc.lineAt(l - 1).range);
    editor.setDecorations(this.highlight, ranges);
    editor.setDecorations(this.stepHighlight, []);
    editor.revealRange(new vscode.Range(f.line - 1, 0, f.line - 1, 0), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}
