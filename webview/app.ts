// The panel's application: receives runs and replies from the host, keeps the view state, and switches
// between the heads grid (with one head opened large, as a heatmap or as lines) and the step-through
// debugger. Exports are built here from the current view and handed to the host, which asks where to save.
import type { AttentionTrace } from '../src/engine/trace';
import type { AttentionResult, RunResult } from '../src/protocol/engine';
import type { ExportFormat, PanelMode, ToWebviewMessage } from '../src/protocol/webview';
import type { VsCodeApi } from './api';
import { scaleFor } from './colour-scale';
import { type HeadMatrix, fullHead, HeadCache, headFromRun, normaliseAttention, normaliseRun, normaliseTrace, queryTokensOf } from './data';
import { CodeView } from './code-view';
import { DebuggerView } from './debugger-view';
import { button, h, select } from './dom';
import { type SvgMatrix, buildSvg, longCsv, matrixCsv, modelSlug, svgColumnLabelsExtent, svgRowLabelsWidth, tensorJson, toJson } from './exports';
import { renderMessage } from '../src/protocol/message';
import { tokenLabel } from './format';
import { GridView } from './grid-view';
import { DEBUGGER_MAX_TOKENS, LINES_MAX_TOKENS, blockNote, cellLabels, describeHeadCell, downsampleFor, rowToken } from './head-view';
import { HeatmapView } from './heatmap-view';
import { t } from './l10n';
import { Legend, weightCaption } from './legend';
import { LinesView } from './lines-view';
import { PanelRpc } from './rpc';
import { type DebuggerSwitches, type GridView as GridSubView, type PanelState, type StepIndex, fitStateToRun, sanitizeState, traceOptionsOf } from './state';
import { stepInfo, stepSourceLines } from './steps';
import { type ThemeColours, readTheme, watchTheme } from './theme';
import { Tooltip } from './tooltip';
import { itemAt } from './checked';

/** The batch picker lists at most this many batch elements. */
const MAX_BATCH_CHOICES = 1024;

/** Long-form CSV of every head is offered up to this many rows. */
const MAX_LONG_CSV_ROWS = 2_000_000;

interface PanelStateWithRun extends PanelState {
  /** Whether the last run looked causal (to re-derive the causal switches when that changes). */
  runCausal?: boolean;
}

export class App {
  private state: PanelStateWithRun;
  private run: RunResult | undefined;
  private theme: ThemeColours;
  private readonly rpc: PanelRpc;
  private readonly cache = new HeadCache<HeadMatrix>(64 * 1024 * 1024, (m) => m.values.byteLength);
  private readonly tooltip = new Tooltip();
  private readonly disposers: (() => void)[] = [];
  // layout
  private readonly root: HTMLElement;
  private readonly title = h('h1', { class: 'title' });
  private readonly subtitle = h('div', { class: 'subtitle' });
  private readonly modeTabs: HTMLButtonElement[];
  private readonly unitToggle: HTMLInputElement;
  private readonly status = h('div', { class: 'status', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly progress = h('div', { class: 'progress', attrs: { role: 'progressbar', 'aria-label': t('Working'), hidden: true } });
  private readonly gridArea = h('section', { class: 'grid-area', attrs: { 'aria-label': t('Heads') } });
  private readonly detail = h('section', { class: 'detail', attrs: { 'aria-label': t('Opened head') } });
  private readonly detailTitle = h('h2', { class: 'detail-title' });
  private readonly detailTabs: HTMLButtonElement[];
  private readonly linesAll: HTMLInputElement;
  private readonly detailBody = h('div', { class: 'detail-body' });
  private readonly detailStatus = h('div', { class: 'detail-status', attrs: { role: 'status' } });
  /** What the opened head shows when it is not every weight (a block-averaged view of a long run). */
  private readonly detailNote = h('div', { class: 'note detail-note' });
  private readonly gridMode: HTMLElement;
  /** Below the heads (grid mode only): the seeded model's Python. */
  private readonly gridExtras: HTMLElement;
  private readonly empty = h('div', { class: 'empty' });
  /** A recorded call with a batch of several sequences: which batch element the panel shows. */
  private readonly batchField = h('div', { class: 'batch-picker' });
  // views
  readonly grid: GridView;
  readonly heatmap: HeatmapView;
  private readonly heatmapLegend = new Legend();
  readonly lines: LinesView;
  readonly debugger: DebuggerView;
  /** The seeded model's Python (shown under the heads). */
  readonly python: CodeView;
  /** The opened head as drawn: every weight, or block means for a long run. */
  private headMatrix: HeadMatrix | undefined;

  constructor(
    private readonly api: VsCodeApi,
    mount: HTMLElement,
  ) {
    this.state = sanitizeState(api.getState());
    this.theme = readTheme();
    this.rpc = new PanelRpc((m) => api.postMessage(m));
    this.grid = new GridView({ tooltip: this.tooltip, onOpen: (l, hd) => this.openHead(l, hd) });
    this.heatmap = new HeatmapView({
      label: t('Attention weights of the opened head'),
      tooltip: this.tooltip,
      describe: (row, col) => this.describeWeight(row, col),
      onActivate: (row) => this.reveal(this.headMatrix ? rowToken(this.headMatrix, row) : row),
      maxHeight: () => Math.max(260, window.innerHeight - 120),
    });
    this.lines = new LinesView(this.tooltip, (i) => this.reveal(i));
    this.debugger = new DebuggerView(this.tooltip, {
      onSwitches: (sw) => this.setSwitches(sw),
      onStep: (step) => this.setStep(step),
      onHead: (l, hd) => this.debugHead(l, hd),
      onReveal: (i) => this.reveal(i),
      onCopy: (text) => this.copy(text),
      onSource: (layer, step) => this.api.postMessage({ type: 'recordedStep', layer, step, reveal: true }),
    });
    this.python = new CodeView(t('Python that draws these tensors'), (text) => this.copy(text), 'run-python');

    this.modeTabs = (['grid', 'debugger'] as const).map((mode) => {
      const b = h(
        'button',
        { class: 'mode-tab', attrs: { type: 'button', role: 'tab', 'data-mode': mode, id: `mode-${mode}` } },
        h('span', { class: `codicon codicon-${mode === 'grid' ? 'table' : 'debug-alt'}`, attrs: { 'aria-hidden': 'true' } }),
        h('span', { text: mode === 'grid' ? t('Heads') : t('Debugger') }),
      );
      b.addEventListener('click', () => this.setMode(mode));
      b.addEventListener('keydown', (e) => {
        if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
          e.preventDefault();
          const other = mode === 'grid' ? 'debugger' : 'grid';
          this.setMode(other);
          this.modeTabs[other === 'grid' ? 0 : 1]?.focus();
        }
      });
      return b;
    });
    this.unitToggle = h('input', { attrs: { type: 'checkbox', id: 'unit-scale' } });
    this.unitToggle.checked = this.unitScaleShown();
    this.unitToggle.addEventListener('change', () => {
      if (this.state.mode === 'debugger') this.state.debuggerUnitScale = this.unitToggle.checked;
      else this.state.unitScale = this.unitToggle.checked;
      this.save();
      this.applyUnitScale();
    });
    const exportButtons = (['png', 'svg', 'csv', 'json'] as const).map((f) => {
      const b = button({
        icon: f === 'png' || f === 'svg' ? 'file-media' : 'file-code',
        label: f.toUpperCase(),
        class: 'button export',
        onClick: () => this.export(f),
      });
      b.setAttribute('aria-label', t('Export the current view as {0}', f.toUpperCase()));
      return b;
    });
    const toolbar = h(
      'div',
      { class: 'toolbar' },
      h('div', { class: 'mode-tabs', attrs: { role: 'tablist', 'aria-label': t('View') } }, ...this.modeTabs),
      h(
        'label',
        { class: 'checkbox', attrs: { for: 'unit-scale', title: t('Colour weights from 0 to 1 instead of 0 to the largest weight shown') } },
        this.unitToggle,
        t('Scale 0–1'),
      ),
      h(
        'div',
        { class: 'exports', attrs: { role: 'group', 'aria-label': t('Export') } },
        h('span', { class: 'exports-label', text: t('Export') }),
        ...exportButtons,
      ),
    );

    this.detailTabs = (['heatmap', 'lines'] as const).map((v) => {
      const b = h('button', { class: 'sub-tab', attrs: { type: 'button', role: 'tab', 'data-view': v } }, v === 'heatmap' ? t('Heatmap') : t('Lines'));
      b.addEventListener('click', () => this.setGridView(v));
      return b;
    });
    this.linesAll = h('input', { attrs: { type: 'checkbox', id: 'lines-all' } });
    this.linesAll.checked = this.state.linesAllHeads;
    this.linesAll.addEventListener('change', () => {
      this.state.linesAllHeads = this.linesAll.checked;
      this.save();
      void this.showDetail();
    });
    const closeDetail = button({ icon: 'close', label: t('Close head'), showLabel: false, class: 'icon-button', onClick: () => this.closeHead() });
    const debugThis = button({ icon: 'debug-alt', label: t('Step through this head'), class: 'button secondary', onClick: () => this.setMode('debugger') });
    this.detail.append(
      h(
        'div',
        { class: 'detail-head' },
        this.detailTitle,
        h('div', { class: 'sub-tabs', attrs: { role: 'tablist', 'aria-label': t('Head view') } }, ...this.detailTabs),
        h('label', { class: 'checkbox lines-all', attrs: { for: 'lines-all' } }, this.linesAll, t('All heads of the layer')),
        debugThis,
        closeDetail,
      ),
      this.detailStatus,
      this.detailNote,
      this.detailBody,
    );
    this.gridMode = h('div', { class: 'grid-mode' }, this.gridArea, this.detail);
    this.gridExtras = h('div', { class: 'grid-extras' }, this.python.el);
    this.gridArea.append(this.grid.el);
    this.root = h(
      'main',
      { class: 'app' },
      h('header', { class: 'header' }, h('div', { class: 'titles' }, this.title, this.subtitle, this.batchField), toolbar),
      this.progress,
      this.status,
      this.empty,
      this.gridMode,
      this.gridExtras,
      this.debugger.el,
    );
    mount.replaceChildren(this.root);
    this.empty.textContent = t('Select some text and run “Attention Inspector: Inspect Selection”.');
    this.grid.setUnitScale(this.state.unitScale);
    this.debugger.setUnitScale(this.state.debuggerUnitScale);
    this.applyTheme();
    const unwatch = watchTheme(() => this.applyTheme());
    const resize = new ResizeObserver(() => this.onResize());
    resize.observe(this.root);
    this.disposers.push(
      unwatch,
      () => resize.disconnect(),
      () => this.tooltip.el.remove(),
      () => this.rpc.cancelAll(),
    );
    this.render();
  }

  /** Stops observing and removes what the app added outside its mount point (a new app replaces it). */
  dispose(): void {
    while (this.disposers.length) this.disposers.pop()!();
  }

  // ----- messages ------------------------------------------------------------------------------------

  onMessage(msg: ToWebviewMessage): void {
    switch (msg.type) {
      case 'run':
        this.setRun(msg.run, msg.mode, msg.focus);
        if (msg.inspected) {
          this.state.inspected = msg.inspected;
          this.save();
        }
        return;
      case 'reply':
        this.rpc.handleReply(msg);
        this.updateProgress();
        return;
      case 'busy':
        this.showStatus(msg.message ?? '');
        return;
      case 'empty':
        this.run = undefined;
        this.rpc.cancelAll();
        this.empty.textContent = msg.message;
        this.render();
        return;
    }
  }

  private setRun(raw: RunResult, mode: PanelMode, focus?: { layer: number; head: number }): void {
    let run: RunResult;
    try {
      run = normaliseRun(raw);
    } catch (e) {
      this.showStatus(t('The panel could not read the results: {0}', (e as Error).message), true);
      return;
    }
    const sameRun = this.run?.runId === run.runId && this.run?.seqLen === run.seqLen && queryTokensOf(this.run).length === queryTokensOf(run).length;
    if (!sameRun) {
      this.rpc.cancelAll();
      this.cache.clear();
      this.headMatrix = undefined;
    }
    this.run = run;
    let s: PanelStateWithRun = { ...fitStateToRun(this.state, run.nLayer, run.nHead, run.seqLen, queryTokensOf(run).length), runCausal: this.state.runCausal };
    s.mode = mode;
    if (focus && focus.layer < run.nLayer && focus.head < run.nHead) s.focus = { ...focus };
    const causal = run.causal;
    if (s.runCausal !== causal) {
      s = { ...s, runCausal: causal, switches: { ...s.switches, causal: causal ? 'top-left' : 'none', causalIntent: causal ? 'top-left' : 'auto' } };
    }
    if (s.mode === 'debugger' && !s.focus) s.focus = { layer: 0, head: 0 };
    this.state = s;
    this.debugger.initialCausal = causal ? 'top-left' : 'none';
    this.save();
    this.showStatus('');
    this.grid.setRun(run, s.focus);
    this.python.setText(run.model.pythonSnippet);
    this.renderBatchPicker(run);
    this.render();
  }

  /** The batch element picker of a recorded call with several sequences; the host answers with that element's run. */
  private renderBatchPicker(run: RunResult): void {
    const rec = run.recorded;
    if (!rec || rec.batchSize < 2) {
      this.batchField.replaceChildren();
      this.batchField.hidden = true;
      return;
    }
    const n = Math.min(rec.batchSize, MAX_BATCH_CHOICES);
    const options = Array.from({ length: n }, (_, i) => ({ value: String(i), label: t('{0} of {1}', i, rec.batchSize) }));
    const picker = select('recorded-batch', t('Batch element'), options, String(rec.batch), (v) => {
      picker.select.disabled = true;
      this.showStatus(t('Working'));
      this.api.postMessage({ type: 'recordedBatch', batch: Number(v) });
    });
    this.batchField.replaceChildren(picker.wrap);
    this.batchField.hidden = false;
  }

  private copy(text: string): void {
    this.api.postMessage({ type: 'copyText', text });
  }

  // ----- state ---------------------------------------------------------------------------------------

  private save(): void {
    this.api.setState(this.state);
  }

  private tellHost(): void {
    this.api.postMessage({ type: 'viewState', mode: this.state.mode, ...(this.state.focus ? { focus: this.state.focus } : {}) });
  }

  setMode(mode: PanelMode): void {
    if (mode === this.state.mode) return;
    this.state.mode = mode;
    if (mode === 'debugger' && !this.state.focus) this.state.focus = { layer: 0, head: 0 };
    this.save();
    this.tellHost();
    this.render();
  }

  private setGridView(view: GridSubView): void {
    this.state.view = view;
    this.save();
    this.render();
  }

  openHead(layer: number, head: number): void {
    this.state.focus = { layer, head };
    if (this.state.view === 'heads') this.state.view = 'heatmap';
    this.save();
    this.tellHost();
    this.render();
  }

  private closeHead(): void {
    this.state.view = 'heads';
    this.save();
    this.render();
    this.grid.el.querySelector<HTMLButtonElement>('button.thumb[tabindex="0"]')?.focus();
  }

  /** The debugger's head picker changed: fetch that head's trace (the form stays as it is, focus included). */
  private debugHead(layer: number, head: number): void {
    this.state.focus = { layer, head };
    this.save();
    this.tellHost();
    this.debugger.showStatus(t('Computing…'));
    void this.loadTrace();
  }

  private setSwitches(sw: DebuggerSwitches): void {
    this.state.switches = { ...sw };
    this.save();
    this.debugger.showStatus(t('Computing…'));
    void this.loadTrace();
  }

  private setStep(step: StepIndex): void {
    this.state.step = step;
    this.save();
    // A recorded call: the editor highlights the line of this step (without taking the focus).
    const layer = this.state.focus?.layer ?? 0;
    if (this.run && stepSourceLines(this.run, layer, step).length > 0) this.api.postMessage({ type: 'recordedStep', layer, step, reveal: false });
  }

  /** The debugger keeps its own 0–1 choice (on by default), the heads view its own (off). */
  private unitScaleShown(): boolean {
    return this.state.mode === 'debugger' ? this.state.debuggerUnitScale : this.state.unitScale;
  }

  private applyUnitScale(): void {
    this.grid.setUnitScale(this.state.unitScale);
    this.debugger.setUnitScale(this.state.debuggerUnitScale);
    if (this.state.mode === 'grid' && this.state.view !== 'heads') void this.showDetail();
  }

  private applyTheme(): void {
    this.theme = readTheme();
    this.grid.setTheme(this.theme);
    this.heatmap.setTheme(this.theme);
    this.lines.setTheme(this.theme);
    this.debugger.setTheme(this.theme);
    if (this.headMatrix && this.state.view === 'heatmap') this.updateHeatmapLegend(this.headMatrix.values);
  }

  private onResize(): void {
    const w = this.root.clientWidth;
    const detailW = this.detail.clientWidth || w;
    this.grid.setWidth(this.state.view === 'heads' ? w - 16 : Math.min(w - 16, Math.max(260, w * 0.45)));
    this.heatmap.setWidth(Math.max(200, detailW - 16));
    this.lines.setWidth(Math.max(200, detailW - 16));
    this.debugger.setWidth(w - 24);
  }

  // ----- rendering -----------------------------------------------------------------------------------

  private render(): void {
    const run = this.run;
    const s = this.state;
    this.root.classList.toggle('has-run', !!run);
    this.empty.hidden = !!run;
    this.gridMode.hidden = !run || s.mode !== 'grid';
    this.gridExtras.hidden = this.gridMode.hidden;
    this.debugger.el.hidden = !run || s.mode !== 'debugger';
    this.unitToggle.checked = this.unitScaleShown();
    this.modeTabs.forEach((b) => {
      const on = b.dataset.mode === s.mode;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
      b.classList.toggle('active', on);
    });
    if (!run) {
      this.title.textContent = t('Attention Inspector');
      this.subtitle.textContent = '';
      return;
    }
    this.title.textContent = run.model.name;
    const queries = queryTokensOf(run).length;
    this.subtitle.textContent = run.queryTokens
      ? t('{0} queries × {1} keys · {2} layers × {3} heads · {4} ms', queries, run.seqLen, run.nLayer, run.nHead, Math.round(run.elapsedMs))
      : t('{0} tokens · {1} layers × {2} heads · {3} ms', run.seqLen, run.nLayer, run.nHead, Math.round(run.elapsedMs));
    this.title.title = run.model.detail;
    if (s.mode === 'grid') {
      const open = s.view !== 'heads' && !!s.focus;
      this.detail.hidden = !open;
      this.gridMode.classList.toggle('with-detail', open);
      this.grid.setSelected(open ? s.focus : undefined);
      this.onResize();
      if (open) void this.showDetail();
    } else {
      const focus = s.focus ?? { layer: 0, head: 0 };
      this.debugger.setRun(run, focus, s.switches, s.step);
      this.onResize();
      void this.loadTrace();
    }
  }

  /** Shows the opened head as a heatmap or as lines. */
  private async showDetail(): Promise<void> {
    const run = this.run;
    const focus = this.state.focus;
    if (!run || !focus) return;
    const { layer, head } = focus;
    this.detailTitle.textContent = t('Layer {0} · head {1}', layer, head);
    this.detailTabs.forEach((b) => {
      const on = b.dataset.view === this.state.view;
      b.setAttribute('aria-selected', String(on));
      b.classList.toggle('active', on);
    });
    (this.linesAll.parentElement as HTMLElement).hidden = this.state.view !== 'lines';
    const tokens = run.tokens.map((tk) => tk.display);
    const queries = queryTokensOf(run).map((tk) => tk.display);
    this.detailNote.textContent = '';
    if (this.state.view === 'lines') {
      if (run.queryTokens) {
        this.detailBody.replaceChildren(
          h('p', {
            class: 'note too-long',
            text: t('The lines view joins each token to itself: this call has {0} queries and {1} keys. Use the heatmap.', queries.length, run.seqLen),
          }),
        );
        return;
      }
      if (run.seqLen > LINES_MAX_TOKENS) {
        this.detailBody.replaceChildren(
          h('p', {
            class: 'note too-long',
            text: t(
              'The lines view draws a line for every weight: {0} tokens are too many for it (at most {1}). Use the heatmap.',
              run.seqLen,
              LINES_MAX_TOKENS,
            ),
          }),
        );
        return;
      }
      const heads = this.state.linesAllHeads ? Array.from({ length: run.nHead }, (_, i) => i) : [head];
      const loaded: { head: number; weights: Float32Array }[] = [];
      for (const hd of heads) {
        const m = await this.headWeights(layer, hd);
        if (!m || this.state.focus !== focus || this.state.view !== 'lines') return;
        loaded.push({ head: hd, weights: m.values });
      }
      this.detailBody.replaceChildren(this.lines.el);
      this.lines.setData({ tokens, heads: loaded, overlay: this.state.linesAllHeads });
      return;
    }
    const m = await this.headWeights(layer, head, downsampleFor(Math.max(run.seqLen, queries.length)));
    if (!m || this.state.focus !== focus || this.state.view !== 'heatmap') return;
    this.headMatrix = m;
    this.detailNote.textContent = blockNote(m, run.seqLen);
    this.detailBody.replaceChildren(this.heatmap.el, this.heatmapLegend.el);
    const scale = scaleFor(m.values, { unit: this.state.unitScale });
    this.heatmap.setData(
      { values: m.values, rows: m.rows, cols: m.cols, scale, rowLabels: cellLabels(m, queries, 'rows'), colLabels: cellLabels(m, tokens, 'cols') },
      t('Attention weights of layer {0}, head {1}: queries down, keys across', layer, head),
    );
    this.updateHeatmapLegend(m.values);
  }

  private updateHeatmapLegend(values: Float32Array): void {
    this.heatmapLegend.update(scaleFor(values, { unit: this.state.unitScale }), this.theme.palette, weightCaption(this.state.unitScale, values), false);
  }

  /**
   * One head's weights: every weight (from the run, the cache, or the host), or with `downsample` the
   * host's block-averaged view of a long run.
   */
  private async headWeights(layer: number, head: number, downsample?: number): Promise<HeadMatrix | undefined> {
    const run = this.run!;
    if (downsample === undefined) {
      const inline = headFromRun(run, layer, head);
      if (inline) return fullHead(inline, queryTokensOf(run).length, run.seqLen);
    }
    const key = `${run.runId}:${layer}:${head}:${downsample ?? 'all'}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    this.detailStatus.textContent = t('Loading layer {0}, head {1}…', layer, head);
    this.updateProgress(true);
    const outcome = await this.rpc.request<AttentionResult>({ kind: 'attention', layer, head, ...(downsample !== undefined ? { downsample } : {}) }, 'head');
    this.updateProgress();
    if (!outcome.ok) {
      if (!('superseded' in outcome)) this.detailStatus.textContent = t('Could not load the head: {0}', outcome.error);
      return undefined;
    }
    if (this.run !== run) return undefined;
    try {
      const data = normaliseAttention(outcome.result, queryTokensOf(run).length, run.seqLen);
      this.cache.set(key, data);
      this.detailStatus.textContent = '';
      return data;
    } catch (e) {
      this.detailStatus.textContent = t('Could not load the head: {0}', (e as Error).message);
      return undefined;
    }
  }

  private async loadTrace(): Promise<void> {
    const run = this.run;
    const focus = this.state.focus;
    if (!run || !focus || this.state.mode !== 'debugger') return;
    if (Math.max(run.seqLen, queryTokensOf(run).length) > DEBUGGER_MAX_TOKENS) {
      this.debugger.showUnavailable(
        t(
          'The step-through debugger shows at most {0} tokens; this run has {1}. Inspect a shorter selection to step through it.',
          DEBUGGER_MAX_TOKENS,
          Math.max(run.seqLen, queryTokensOf(run).length),
        ),
      );
      return;
    }
    this.updateProgress(true);
    const outcome = await this.rpc.request<AttentionTrace>(
      { kind: 'trace', layer: focus.layer, head: focus.head, options: traceOptionsOf(this.state.switches, this.run?.model.layerWindows?.[focus.layer]) },
      'trace',
    );
    this.updateProgress();
    if (!outcome.ok) {
      if (!('superseded' in outcome)) this.debugger.showStatus(t('Could not compute the trace: {0}', outcome.error), true);
      return;
    }
    if (this.run !== run) return;
    try {
      this.debugger.setTrace(normaliseTrace(outcome.result));
    } catch (e) {
      this.debugger.showStatus(t('Could not compute the trace: {0}', (e as Error).message), true);
    }
  }

  private updateProgress(busy = false): void {
    this.progress.hidden = !busy && this.rpc.inFlight === 0;
  }

  private showStatus(message: string, error = false): void {
    this.status.textContent = message;
    this.status.classList.toggle('error', error);
    this.status.setAttribute('role', error ? 'alert' : 'status');
  }

  private describeWeight(row: number, col: number): string[] {
    const run = this.run;
    const m = this.headMatrix;
    if (!run || !m) return [];
    return describeHeadCell(
      m,
      run.tokens.map((tk) => tk.display),
      row,
      col,
      queryTokensOf(run).map((tk) => tk.display),
    );
  }

  private reveal(index: number): void {
    if (this.run && index >= 0 && index < this.run.seqLen) this.api.postMessage({ type: 'revealToken', index });
  }

  // ----- exports -------------------------------------------------------------------------------------

  /** Builds the current view's export; undefined (with a message shown) when there is nothing to export. */
  buildExport(format: ExportFormat): { suggestedName: string; content: string } | undefined {
    const run = this.run;
    if (!run) return undefined;
    const s = this.state;
    // The file name from the English name (the parts), whatever the display language.
    const model = modelSlug({ family: run.model.family, name: renderMessage(run.model.nameParts) });
    const tokens = run.tokens.map((tk) => tk.display);
    const queries = queryTokensOf(run).map((tk) => tk.display);
    const record = (tk: RunResult['tokens'][number]) => ({
      text: tk.text,
      display: tk.display,
      start: tk.start,
      end: tk.end,
      ...(tk.id !== undefined ? { id: tk.id } : {}),
    });
    const tokenRecords = run.tokens.map(record);
    // Exports of a run whose queries are not its keys name both (tokens = the keys).
    const queryRecords = run.queryTokens ? { queryTokens: run.queryTokens.map(record) } : {};
    const axisLabels = tokens.map((d, i) => `${i}:${d}`);
    const queryLabels = queries.map((d, i) => `${i}:${d}`);
    const T = queries.length;
    const S = run.seqLen;
    const palette = this.theme.palette;

    if (s.mode === 'debugger') {
      const m = this.debugger.exportModel();
      if (!m) return this.nothing();
      const { trace, step } = m;
      const info = stepInfo(trace, step);
      const focus = s.focus ?? { layer: 0, head: 0 };
      const base = `${model}-L${focus.layer}H${focus.head}-step${step + 1}`;
      const { rows, cols } = info;
      const colLabels = info.columnsAreKeys ? axisLabels : Array.from({ length: cols }, (_, j) => `d${j}`);
      switch (format) {
        case 'png':
          return { suggestedName: `${base}.png`, content: this.debugger.heatmap.pngBase64() };
        case 'csv':
          return {
            suggestedName: `${base}.csv`,
            content: matrixCsv({
              rows,
              cols,
              values: info.tensor.data,
              rowLabels: queryLabels,
              colLabels,
              corner: info.columnsAreKeys ? 'query\\key' : 'query\\dim',
            }),
          };
        case 'json':
          return {
            suggestedName: `${model}-L${focus.layer}H${focus.head}-trace.json`,
            content: toJson({
              format: 'attention-inspector/trace@1',
              model: run.model.name,
              layer: focus.layer,
              head: focus.head,
              tokens: tokenRecords,
              ...queryRecords,
              options: traceOptionsOf(s.switches, run.model.layerWindows?.[focus.layer]),
              L: trace.L,
              S: trace.S,
              dk: trace.dk,
              dv: trace.dv,
              scale: trace.scale,
              temperature: trace.temperature,
              effectiveScale: trace.effectiveScale,
              softmaxDim: trace.softmaxDim,
              steps: {
                scores: tensorJson(trace.scores.data, trace.scores.shape),
                scaled: tensorJson(trace.scaled.data, trace.scaled.shape),
                mask: tensorJson(trace.bias.data, trace.bias.shape),
                masked: tensorJson(trace.masked.data, trace.masked.shape),
                weights: tensorJson(trace.probs.data, trace.probs.shape),
                output: tensorJson(trace.output.data, trace.output.shape),
              },
              stats: trace.stats,
              warnings: trace.warnings.map((w) => ({ id: w.id, rows: w.rows, message: w.message })),
            }),
          };
        case 'svg': {
          const cell = Math.max(3, Math.min(24, Math.floor(720 / Math.max(rows, cols))));
          const rowLabels = queries.map((d) => tokenLabel(d, 16));
          const svgCols = info.columnsAreKeys ? tokens.map((d) => tokenLabel(d, 16)) : colLabels;
          const { left, top } = svgMargins(rowLabels, svgCols, cell);
          const scale = scaleFor(info.tensor.data, { unit: info.isWeights && s.debuggerUnitScale });
          return {
            suggestedName: `${base}.svg`,
            content: buildSvg({
              width: left + cols * cell + 20,
              height: top + rows * cell + 20,
              palette,
              title: `${run.model.name} · ${info.formula} · ${t('layer {0}, head {1}', focus.layer, focus.head)}`,
              matrices: [
                {
                  values: info.tensor.data,
                  rows,
                  cols,
                  scale,
                  x: left,
                  y: top,
                  cell,
                  rowLabels,
                  colLabels: svgCols,
                  caption: `${info.formula}   ${info.shape}`,
                },
              ],
              legend: { scale, label: info.isWeights ? t('weight') : t('score') },
            }),
          };
        }
      }
    }

    if (s.view === 'heads' || !s.focus) {
      switch (format) {
        case 'png':
          return {
            suggestedName: `${model}-heads.png`,
            content: this.grid
              .toCanvas()
              .toDataURL('image/png')
              .replace(/^data:image\/png;base64,/, ''),
          };
        case 'svg': {
          const size = run.thumbnails.size;
          const thumb = 64,
            gap = 8,
            left = 40,
            top = 30;
          const cell = thumb / size;
          const matrices: SvgMatrix[] = [];
          for (let l = 0; l < run.nLayer; l++) {
            for (let hd = 0; hd < run.nHead; hd++) {
              const off = (l * run.nHead + hd) * size * size;
              const values = run.thumbnails.data.subarray(off, off + size * size);
              matrices.push({
                values,
                rows: size,
                cols: size,
                scale: scaleFor(values, { unit: s.unitScale }),
                x: left + hd * (thumb + gap),
                y: top + l * (thumb + gap + 14),
                cell,
                caption: `L${l} H${hd}`,
              });
            }
          }
          return {
            suggestedName: `${model}-heads.svg`,
            content: buildSvg({
              width: left + run.nHead * (thumb + gap),
              height: top + run.nLayer * (thumb + gap + 14),
              palette,
              title: `${run.model.name} · ${t('{0} tokens', run.seqLen)}`,
              matrices,
            }),
          };
        }
        case 'csv':
          if (!run.attentions) return this.nothing(t('The weights of every head were not sent at once for this run: open a head and export it.'));
          if (run.nLayer * run.nHead * T * S > MAX_LONG_CSV_ROWS) return this.nothing(t('Too many weights for one CSV file: open a head and export it.'));
          return { suggestedName: `${model}-attentions.csv`, content: longCsv(run.attentions, run.nLayer, run.nHead, tokens, 0, queries) };
        case 'json':
          if (!run.attentions) return this.nothing(t('The weights of every head were not sent at once for this run: open a head and export it.'));
          return {
            suggestedName: `${model}-attentions.json`,
            content: toJson({
              format: 'attention-inspector/attentions@1',
              model: run.model.name,
              tokens: tokenRecords,
              ...queryRecords,
              attentions: tensorJson(run.attentions, [run.nLayer, run.nHead, T, S]),
            }),
          };
      }
    }

    const { layer, head } = s.focus;
    const m = this.headMatrix;
    const base = `${model}-L${layer}H${head}`;
    if (s.view === 'lines') {
      const lm = this.lines.exportModel();
      if (run.queryTokens) return this.nothing(t('The lines view joins each token to itself: this call has {0} queries and {1} keys. Use the heatmap.', T, S));
      if (run.seqLen > LINES_MAX_TOKENS)
        return this.nothing(
          t('The lines view draws a line for every weight: {0} tokens are too many for it (at most {1}). Use the heatmap.', run.seqLen, LINES_MAX_TOKENS),
        );
      if (!lm || lm.data.tokens.length !== run.seqLen) return this.nothing();
      if (format === 'png') return { suggestedName: `${base}-lines.png`, content: this.lines.pngBase64() };
      if (format === 'svg') {
        const { layout, colours, data } = lm;
        const y = (i: number) => 4 + (i + 0.5) * layout.rowH;
        const lines = data.heads.flatMap((hd, k) => {
          const out = [];
          const T = data.tokens.length;
          for (let i = 0; i < T; i++)
            for (let j = 0; j < T; j++) {
              const w = itemAt(hd.weights, i * T + j, 'head weights');
              if (w >= 0.02) out.push({ x1: layout.leftX, y1: y(i), x2: layout.rightX, y2: y(j), opacity: w, colour: itemAt(colours, k, 'head colours') });
            }
          return out;
        });
        const texts = data.tokens.flatMap((d, i) => [
          { x: layout.leftX - 4, y: y(i), text: tokenLabel(d, 14), anchor: 'end' as const },
          { x: layout.rightX + 4, y: y(i), text: tokenLabel(d, 14), anchor: 'start' as const },
        ]);
        return {
          suggestedName: `${base}-lines.svg`,
          content: buildSvg({
            width: layout.width,
            height: layout.height,
            palette,
            title: `${run.model.name} · ${t('layer {0}, head {1}', layer, head)}`,
            matrices: [],
            lines,
            texts,
          }),
        };
      }
      if (this.state.linesAllHeads) {
        const heads = lm.data.heads;
        const all = new Float32Array(heads.length * T * T);
        heads.forEach((hd, k) => all.set(hd.weights, k * T * T));
        if (format === 'csv') return { suggestedName: `${model}-L${layer}-heads.csv`, content: longCsv(all, 1, heads.length, tokens, layer) };
        return {
          suggestedName: `${model}-L${layer}-heads.json`,
          content: toJson({
            format: 'attention-inspector/attentions@1',
            model: run.model.name,
            layer,
            tokens: tokenRecords,
            attentions: tensorJson(all, [1, heads.length, T, T]),
          }),
        };
      }
    }
    if (!m) return this.nothing();
    if (m.block > 1) return this.blockExport(format, m, base, tokenRecords);
    const values = m.values;
    switch (format) {
      case 'png':
        return { suggestedName: `${base}.png`, content: this.heatmap.pngBase64() };
      case 'csv':
        return {
          suggestedName: `${base}.csv`,
          content: matrixCsv({ rows: T, cols: S, values, rowLabels: queryLabels, colLabels: axisLabels, corner: 'query\\key' }),
        };
      case 'json':
        return {
          suggestedName: `${base}.json`,
          content: toJson({
            format: 'attention-inspector/head@1',
            model: run.model.name,
            layer,
            head,
            tokens: tokenRecords,
            ...queryRecords,
            weights: tensorJson(values, [T, S]),
          }),
        };
      case 'svg': {
        const cell = Math.max(3, Math.min(24, Math.floor(720 / Math.max(T, S))));
        const scale = scaleFor(values, { unit: s.unitScale });
        const labels = tokens.map((d) => tokenLabel(d, 16));
        const rowLabels = queries.map((d) => tokenLabel(d, 16));
        const { left, top } = svgMargins(rowLabels, labels, cell);
        return {
          suggestedName: `${base}.svg`,
          content: buildSvg({
            width: left + S * cell + 20,
            height: top + T * cell + 20,
            palette,
            title: `${run.model.name} · ${t('layer {0}, head {1}', layer, head)}`,
            matrices: [
              { values, rows: T, cols: S, scale, x: left, y: top, cell, rowLabels, colLabels: labels, caption: t('layer {0}, head {1}', layer, head) },
            ],
            legend: { scale, label: t('weight') },
          }),
        };
      }
    }
  }

  /** Exports of a block-averaged head view (a long run): the picture, or the block means with their token ranges. */
  private blockExport(format: ExportFormat, m: HeadMatrix, base: string, tokenRecords: object[]): { suggestedName: string; content: string } | undefined {
    const run = this.run!;
    const { layer, head } = this.state.focus!;
    const T = run.seqLen;
    const span = (first: number, i: number, limit: number) => {
      const start = first + i * m.block;
      return `${start}-${Math.min(limit, start + m.block) - 1}`;
    };
    switch (format) {
      case 'png':
        return { suggestedName: `${base}-blocks.png`, content: this.heatmap.pngBase64() };
      case 'svg':
        return this.nothing(t('A block-averaged view has too many cells for an SVG picture: export it as PNG or CSV.'));
      case 'csv': {
        const rowLabels = Array.from({ length: m.rows }, (_, a) => span(m.rowStart, a, m.rowEnd));
        const colLabels = Array.from({ length: m.cols }, (_, b) => span(0, b, T));
        return {
          suggestedName: `${base}-blocks${m.block}.csv`,
          content: matrixCsv({ rows: m.rows, cols: m.cols, values: m.values, rowLabels, colLabels, corner: 'queries\\keys' }),
        };
      }
      case 'json':
        return {
          suggestedName: `${base}-blocks${m.block}.json`,
          content: toJson({
            format: 'attention-inspector/head-blocks@1',
            model: run.model.name,
            layer,
            head,
            tokens: tokenRecords,
            block: m.block,
            rowStart: m.rowStart,
            rowEnd: m.rowEnd,
            note: `cell [a, b] is the mean weight of queries rowStart + a*block .. and keys b*block .., each range clipped at rowEnd and ${T}`,
            weights: tensorJson(m.values, [m.rows, m.cols]),
          }),
        };
    }
  }

  private nothing(message = t('Nothing to export yet.')): undefined {
    this.showStatus(message, true);
    return undefined;
  }

  private export(format: ExportFormat): void {
    let built: { suggestedName: string; content: string } | undefined;
    try {
      built = this.buildExport(format);
    } catch (e) {
      this.showStatus(t('Could not export: {0}', (e as Error).message), true);
      return;
    }
    if (!built) return;
    this.showStatus('');
    this.api.postMessage({ type: 'export', format, suggestedName: built.suggestedName, content: built.content });
  }

  /** For tests and the benchmark: the current state. */
  get viewState(): Readonly<PanelState> {
    return this.state;
  }
}

/** Room for the row labels on the left, and for the caption above the column labels on top (SVG units). */
function svgMargins(rowLabels: readonly string[], colLabels: readonly string[], cell: number): { left: number; top: number } {
  return { left: Math.ceil(svgRowLabelsWidth(rowLabels, cell)) + 16, top: Math.ceil(svgColumnLabelsExtent(colLabels, cell)) + 34 };
}
