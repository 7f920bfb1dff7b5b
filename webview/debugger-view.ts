// The step-through debugger for one head: the switches (scale, temperature, masks, softmax dim, fully
// masked rows, causal intent), the five steps stepped with buttons or ←/→, each step's matrix as a
// heatmap with its formula and shape, the warnings in plain words, and the per-row statistics.
import { itemAt } from './checked';
import type { AttentionTrace } from '../src/engine/trace';
import type { OwnStep, RecordedAttentionTrace, RunResult } from '../src/protocol/engine';
import { scaleFor } from './colour-scale';
import { pythonSteps } from '../src/engine/trace';
import { CodeView } from './code-view';
import { queryTokensOf } from './data';
import { button, h, numberInput, select } from './dom';
import { fmt, rowList, tokenLabel } from './format';
import { HeatmapView } from './heatmap-view';
import { t } from './l10n';
import { Legend, weightCaption } from './legend';
import { describeOwnCell, normaliseOwnSteps, ownDisplayValues, ownStepSummary, ownStepTitle } from './own-step';
import { type DebuggerSwitches, DEFAULT_SWITCHES, type StepIndex, STEP_COUNT, traceOptionsOf } from './state';
import { buildStatsTable } from './stats-model';
import { describeStepCell, sourceLinkText, stepInfo, stepNames, stepSourceLines } from './steps';
import type { ThemeColours } from './theme';
import type { Tooltip } from './tooltip';
import { type WarningText, describeWarning } from './warnings';

export interface DebuggerCallbacks {
  onSwitches: (sw: DebuggerSwitches) => void;
  onStep: (step: StepIndex) => void;
  onHead: (layer: number, head: number) => void;
  onReveal: (tokenIndex: number) => void;
  onCopy: (text: string) => void;
  /** Show the user's source line(s) of step `step` of layer `layer` of a recorded call (the link was clicked). */
  onSource: (layer: number, step: StepIndex) => void;
}

export class DebuggerView {
  readonly el: HTMLElement;
  readonly heatmap: HeatmapView;
  private readonly legend = new Legend();
  private readonly headPicker = h('div', { class: 'head-picker' });
  private readonly form = h('form', { class: 'switches', attrs: { 'aria-label': t('Switches') } });
  private readonly tabs = h('div', { class: 'steps', attrs: { role: 'tablist', 'aria-label': t('Steps') } });
  private readonly formula = h('div', { class: 'formula' });
  private readonly shape = h('div', { class: 'shape' });
  /** A recorded call: the user's line(s) that computed the current step; a click shows them in the editor. */
  private readonly sourceLink = h('button', { class: 'step-source', attrs: { type: 'button', hidden: true } });
  private readonly note = h('div', { class: 'note' });
  /** A recorded hand-written call: the user's own tensor at this step, beside (below) the reference. */
  private readonly ownTitle = h('h3', { class: 'own-step-title' });
  private readonly ownSummary = h('p', { class: 'own-step-summary', attrs: { role: 'status' } });
  private readonly ownHeatmap: HeatmapView;
  private readonly ownSection: HTMLElement;
  private ownSteps: OwnStep[] = [];
  /** Above the reference matrix when the user's own tensor is shown beside it. */
  private readonly referenceTitle = h('h3', {
    class: 'own-step-title',
    attrs: { hidden: true },
    text: t('Reference: the engine on your captured q, k, v and mask'),
  });
  private readonly matrices: HTMLElement;
  private width = 600;
  private readonly warningsEl = h('div', { class: 'warnings', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly viewColumn: HTMLElement;
  /** The switches' summary line: their current settings in a few words (the form folds away under it). */
  private readonly switchesSummary = h('summary', { class: 'switches-summary' });
  private readonly statsEl = h('div', { class: 'stats' });
  private readonly statsTitle = h('h3', { class: 'section-title', text: t('Per-row statistics') });
  private readonly status = h('div', { class: 'debugger-status', attrs: { role: 'status' } });
  private readonly stepPanel: HTMLElement;
  private readonly stepBar: HTMLElement;
  private tabButtons: HTMLButtonElement[] = [];
  private run: RunResult | undefined;
  private trace: AttentionTrace | undefined;
  private theme: ThemeColours | undefined;
  private switches: DebuggerSwitches = { ...DEFAULT_SWITCHES };
  private step: StepIndex = 0;
  private focus = { layer: 0, head: 0 };
  private unit = false;
  private warnings: WarningText[] = [];
  /** What the switches mean in PyTorch: the seeded model's own snippet (if any), then this head's five steps. */
  readonly python: CodeView;

  constructor(
    tooltip: Tooltip,
    private readonly cb: DebuggerCallbacks,
  ) {
    this.heatmap = new HeatmapView({
      label: t('Matrix of the current step'),
      tooltip,
      describe: (row, col) => (this.trace ? describeStepCell(this.trace, this.step, row, col, this.tokenLabels(), this.tokenLabels('queries')) : []),
      onActivate: (row) => this.cb.onReveal(row),
      maxHeight: () => Math.max(240, window.innerHeight - 160),
    });
    this.ownHeatmap = new HeatmapView({
      label: t('Your tensor at this step'),
      tooltip,
      describe: (row, col) => {
        const own = this.currentOwn();
        return own && this.trace
          ? describeOwnCell(own, stepInfo(this.trace, this.step).tensor.data, row, col, this.tokenLabels('queries'), this.tokenLabels())
          : [];
      },
      maxHeight: () => Math.max(240, window.innerHeight - 160),
    });
    this.ownSection = h('section', { class: 'own-step step-matrix', attrs: { hidden: true } }, this.ownTitle, this.ownSummary, this.ownHeatmap.el);
    const prev = button({ icon: 'arrow-left', label: t('Previous step'), showLabel: false, class: 'icon-button', onClick: () => this.go(-1) });
    const next = button({ icon: 'arrow-right', label: t('Next step'), showLabel: false, class: 'icon-button', onClick: () => this.go(1) });
    const names = stepNames();
    this.tabButtons = names.map((name, i) => {
      const b = h('button', {
        class: 'step-tab',
        attrs: { type: 'button', role: 'tab', id: `step-tab-${i}`, 'aria-controls': 'step-panel', 'data-step': i },
        text: name,
      });
      b.addEventListener('click', () => this.setStep(i as StepIndex, true));
      b.addEventListener('keydown', (e) => {
        if (e.key === 'Home' || e.key === 'End') {
          e.preventDefault();
          this.setStep((e.key === 'Home' ? 0 : STEP_COUNT - 1) as StepIndex, true);
          this.tabButtons[this.step]?.focus();
        }
      });
      return b;
    });
    this.tabs.append(...this.tabButtons);
    this.stepPanel = h(
      'div',
      { class: 'step-panel', attrs: { id: 'step-panel', role: 'tabpanel' } },
      h('div', { class: 'step-head' }, this.formula, this.shape, this.sourceLink),
      this.note,
      (this.matrices = h(
        'div',
        { class: 'step-matrices' },
        h('div', { class: 'step-matrix' }, this.referenceTitle, this.heatmap.el, this.legend.el),
        this.ownSection,
      )),
    );
    this.sourceLink.addEventListener('click', () => this.cb.onSource(this.focus.layer, this.step));
    this.python = new CodeView(t('What these switches mean in PyTorch'), (text) => this.cb.onCopy(text), 'debugger-python');
    this.form.addEventListener('submit', (e) => e.preventDefault());
    // The step's matrix comes first; the switches sit beside it in a wide panel and below it in a narrow one.
    this.viewColumn = h('div', { class: 'debugger-view' }, this.warningsEl, this.stepPanel);
    this.el = h(
      'section',
      { class: 'debugger', attrs: { 'aria-label': t('Step-through debugger') } },
      h('div', { class: 'debugger-top' }, this.headPicker, (this.stepBar = h('div', { class: 'step-bar' }, prev, next, this.tabs))),
      this.status,
      h(
        'div',
        { class: 'debugger-main' },
        this.viewColumn,
        h('aside', { class: 'debugger-side' }, h('details', { class: 'switches-wrap', attrs: { open: true } }, this.switchesSummary, this.form)),
      ),
      this.python.el,
      this.statsTitle,
      this.statsEl,
    );
    // ←/→ step through, unless a control that uses the arrows has focus.
    this.el.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      const target = e.target as HTMLElement;
      if (target.closest('input, select, textarea, canvas')) return;
      e.preventDefault();
      this.go(e.key === 'ArrowLeft' ? -1 : 1);
      if (target.classList.contains('step-tab')) this.tabButtons[this.step]?.focus();
    });
  }

  /** Labels of the keys (columns) and of the queries (rows: the keys unless a recorded call has others). */
  private tokenLabels(axis: 'keys' | 'queries' = 'keys'): string[] {
    const run = this.run;
    if (!run) return [];
    return (axis === 'queries' ? queryTokensOf(run) : run.tokens).map((tk) => tokenLabel(tk.display, 20));
  }

  setTheme(theme: ThemeColours): void {
    this.theme = theme;
    this.heatmap.setTheme(theme);
    this.ownHeatmap.setTheme(theme);
    this.drawStep();
  }

  setUnitScale(unit: boolean): void {
    this.unit = unit;
    this.drawStep();
  }

  setWidth(width: number): void {
    // The matrix gets its column's width (the switches may sit beside it).
    this.width = width;
    this.layoutMatrices();
  }

  /** The reference and the user's tensor side by side when the column has room for two, else one below the other. */
  private layoutMatrices(): void {
    const column = this.viewColumn.clientWidth;
    const full = Math.max(200, column > 0 ? Math.min(this.width, column - 8) : this.width);
    const sideBySide = !this.ownSection.hidden && full >= 560;
    this.matrices.classList.toggle('side-by-side', sideBySide);
    const each = sideBySide ? Math.floor((full - 16) / 2) : full;
    this.heatmap.setWidth(each);
    this.ownHeatmap.setWidth(each);
  }

  /** A new run (or the same run re-sent): rebuilds the head picker and the form. */
  setRun(run: RunResult, focus: { layer: number; head: number }, switches: DebuggerSwitches, step: StepIndex): void {
    this.run = run;
    this.focus = { ...focus };
    this.switches = { ...switches };
    this.step = step;
    this.trace = undefined;
    this.buildHeadPicker();
    this.buildForm();
    this.updateTabs();
    this.showStatus(t('Computing…'));
  }

  setTrace(trace: AttentionTrace): void {
    this.ownSteps = normaliseOwnSteps((trace as RecordedAttentionTrace).own);
    this.trace = trace;
    this.setStepsShown(true);
    this.showStatus('');
    this.warnings = trace.warnings.map((w) => describeWarning(w, trace, this.switches.causal === 'none' ? [] : [this.switches.causal]));
    this.renderWarnings();
    this.renderStats();
    this.renderPython();
    this.drawStep();
  }

  private renderPython(): void {
    const run = this.run;
    if (!run) return this.python.setText(undefined);
    const seeded = run.model.pythonSnippet;
    const steps = pythonSteps(traceOptionsOf(this.switches), { head: this.focus.head, seeded: seeded !== undefined });
    this.python.setText(seeded ? `${seeded}\n${steps}` : steps);
  }

  /** The run cannot be stepped through (e.g. too many tokens): only `message` shows, no steps or statistics. */
  showUnavailable(message: string): void {
    this.trace = undefined;
    this.ownSteps = [];
    this.ownSection.hidden = true;
    this.referenceTitle.hidden = true;
    this.warnings = [];
    this.warningsEl.replaceChildren();
    this.statsEl.replaceChildren();
    this.setStepsShown(false);
    this.showStatus(message, true);
  }

  private setStepsShown(shown: boolean): void {
    this.stepPanel.hidden = !shown;
    this.stepBar.hidden = !shown;
    this.statsTitle.hidden = !shown;
  }

  showStatus(message: string, error = false): void {
    this.status.textContent = message;
    this.status.classList.toggle('error', error);
    this.status.hidden = message === '';
  }

  get currentTrace(): AttentionTrace | undefined {
    return this.trace;
  }

  get currentStep(): StepIndex {
    return this.step;
  }

  get warningTexts(): readonly WarningText[] {
    return this.warnings;
  }

  private go(delta: number): void {
    const next = Math.max(0, Math.min(STEP_COUNT - 1, this.step + delta)) as StepIndex;
    if (next !== this.step) this.setStep(next, true);
  }

  setStep(step: StepIndex, notify: boolean): void {
    this.step = step;
    this.updateTabs();
    this.drawStep();
    if (notify) this.cb.onStep(step);
  }

  private updateTabs(): void {
    this.tabButtons.forEach((b, i) => {
      const on = i === this.step;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
      b.classList.toggle('active', on);
    });
    this.stepPanel.setAttribute('aria-labelledby', `step-tab-${this.step}`);
  }

  private drawStep(): void {
    const { trace, theme } = this;
    if (!trace || !theme) return;
    const info = stepInfo(trace, this.step);
    this.formula.textContent = info.formula;
    this.shape.textContent = t('shape {0}', info.shape);
    this.updateSourceLink();
    this.note.textContent = info.note;
    const { rows, cols } = info;
    const tokens = this.tokenLabels();
    const own = this.currentOwn();
    const ownValues = own ? ownDisplayValues(own) : null;
    // One colour scale for the reference and the user's tensor, so that a difference shows as a colour.
    const scale = scaleFor(ownValues ? [...info.tensor.data, ...ownValues] : info.tensor.data, { unit: info.isWeights && this.unit });
    this.heatmap.setData(
      {
        values: info.tensor.data,
        rows,
        cols,
        scale,
        rowLabels: this.tokenLabels('queries'),
        colLabels: info.columnsAreKeys ? tokens : Array.from({ length: cols }, (_, j) => String(j)),
      },
      t('{0}: {1}, shape {2}', info.name, info.formula, info.shape),
    );
    this.drawOwn(own, ownValues, scale, info.columnsAreKeys, tokens);
    const rowsOfWarnings = new Set<number>();
    for (const w of this.warnings) if (w.severity === 'error') w.rows.forEach((r) => rowsOfWarnings.add(r));
    this.heatmap.setFlaggedRows(this.step >= 3 ? [...rowsOfWarnings] : []);
    const hasSpecial = this.step >= 2;
    this.legend.update(
      scale,
      theme.palette,
      info.isWeights ? weightCaption(this.unit, info.tensor.data) : this.step === 4 ? t('output') : t('score'),
      hasSpecial,
    );
  }

  private currentOwn(): OwnStep | undefined {
    return this.ownSteps.find((o) => o.step === this.step);
  }

  private drawOwn(own: OwnStep | undefined, values: Float32Array | null, scale: ReturnType<typeof scaleFor>, columnsAreKeys: boolean, keys: string[]): void {
    const shown = own !== undefined && values !== null;
    if (this.ownSection.hidden === shown || this.referenceTitle.hidden === shown) {
      this.ownSection.hidden = !shown;
      this.referenceTitle.hidden = !shown;
      this.layoutMatrices();
    }
    if (!own || !values) return;
    const queries = this.tokenLabels('queries');
    const rows = itemAt(own.own.shape, 0, 'your tensor’s shape');
    const cols = itemAt(own.own.shape, 1, 'your tensor’s shape');
    const lines = this.run ? stepSourceLines(this.run, this.focus.layer, this.step) : [];
    const title = ownStepTitle(own);
    this.ownTitle.textContent = lines.length > 0 ? `${title} (${sourceLinkText(lines)})` : title;
    this.ownSummary.textContent = ownStepSummary(own, queries, columnsAreKeys ? keys : []);
    this.ownSection.classList.toggle('differs', own.differing > 0);
    const blockLabels = (n: number, size: number) => Array.from({ length: n }, (_, i) => String(i * size));
    this.ownHeatmap.setData(
      {
        values,
        rows,
        cols,
        scale,
        rowLabels: own.block ? blockLabels(rows, own.block.rows) : queries,
        colLabels: own.block ? blockLabels(cols, own.block.cols) : columnsAreKeys ? keys : Array.from({ length: cols }, (_, j) => String(j)),
      },
      `${title}: ${this.ownSummary.textContent}`,
    );
  }

  private updateSourceLink(): void {
    const lines = this.run ? stepSourceLines(this.run, this.focus.layer, this.step) : [];
    this.sourceLink.hidden = lines.length === 0;
    if (lines.length === 0) return;
    const text = sourceLinkText(lines);
    this.sourceLink.replaceChildren(h('span', { class: 'codicon codicon-go-to-file', attrs: { 'aria-hidden': 'true' } }), h('span', { text }));
    this.sourceLink.title = t('Show this step in the source: {0}', text);
    this.sourceLink.setAttribute('aria-label', t('Show this step in the source: {0}', text));
  }

  private renderWarnings(): void {
    const items = this.warnings.map((w) => {
      const rows = w.rows.length > 0 ? h('span', { class: 'warning-rows', text: t('Rows: {0}', rowList(w.rows)) }) : null;
      const iconName = w.severity === 'error' ? 'error' : w.severity === 'warning' ? 'warning' : 'info';
      const item = h(
        'div',
        { class: `warning warning-${w.severity}`, attrs: { 'data-warning': w.id } },
        h('span', { class: `codicon codicon-${iconName}`, attrs: { 'aria-hidden': 'true' } }),
        h(
          'div',
          { class: 'warning-body' },
          h('strong', { class: 'warning-title', text: w.title }),
          ' ',
          h('span', { class: 'warning-detail', text: w.detail }),
          ' ',
          rows,
        ),
      );
      return item;
    });
    if (items.length === 0)
      items.push(
        h(
          'div',
          { class: 'warning warning-ok' },
          h('span', { class: 'codicon codicon-pass', attrs: { 'aria-hidden': 'true' } }),
          h('span', { text: t('No problems found with these switches.') }),
        ),
      );
    this.warningsEl.replaceChildren(...items);
  }

  private renderStats(): void {
    const trace = this.trace;
    if (!trace) return;
    const table = buildStatsTable(trace, this.run ? queryTokensOf(this.run).map((tk) => tk.display) : []);
    const thead = h('thead', {}, h('tr', {}, ...table.columns.map((c) => h('th', { attrs: { scope: 'col', title: c.title }, text: c.header }))));
    const tbody = h('tbody');
    for (const row of table.rows) {
      const tr = h('tr', { class: row.flagged ? 'flagged' : undefined });
      row.cells.forEach((c, i) => {
        const cell = i === 0 ? h('th', { attrs: { scope: 'row' }, text: c.text }) : h('td', { text: c.text });
        if (c.flag) cell.classList.add(`flag-${c.flag}`);
        if (c.title) cell.title = c.title;
        tr.append(cell);
      });
      tbody.append(tr);
    }
    const summary = h('p', { class: `stats-summary${table.summaryFlag ? ` flag-${table.summaryFlag}` : ''}`, text: table.summary });
    this.statsEl.replaceChildren(summary, h('div', { class: 'table-scroll' }, h('table', { class: 'stats-table' }, thead, tbody)));
  }

  private buildHeadPicker(): void {
    const run = this.run!;
    const layer = select(
      'dbg-layer',
      t('Layer'),
      Array.from({ length: run.nLayer }, (_, i) => ({ value: String(i), label: String(i) })),
      String(this.focus.layer),
      (v) => {
        this.focus = { ...this.focus, layer: Number(v) };
        this.cb.onHead(this.focus.layer, this.focus.head);
      },
    );
    const head = select(
      'dbg-head',
      t('Head'),
      Array.from({ length: run.nHead }, (_, i) => ({ value: String(i), label: String(i) })),
      String(this.focus.head),
      (v) => {
        this.focus = { ...this.focus, head: Number(v) };
        this.cb.onHead(this.focus.layer, this.focus.head);
      },
    );
    this.headPicker.replaceChildren(layer.wrap, head.wrap);
  }

  private change(patch: Partial<DebuggerSwitches>): void {
    this.switches = { ...this.switches, ...patch };
    this.updateSummary();
    this.cb.onSwitches(this.switches);
  }

  private updateSummary(): void {
    this.switchesSummary.replaceChildren(
      h('span', { class: 'switches-title', text: t('Switches') }),
      ' ',
      h('span', { class: 'switches-now', text: switchesSummary(this.switches) }),
    );
  }

  private buildForm(): void {
    const sw = this.switches;
    const T = this.run?.seqLen ?? 1;
    const scale = select(
      'sw-scale',
      t('Scale'),
      [
        { value: 'inv-sqrt-dk', label: t('1/√d_k (correct)') },
        { value: 'inv-dk', label: t('1/d_k') },
        { value: 'none', label: t('none (×1)') },
        { value: 'custom', label: t('custom…') },
        { value: 'model', label: t("the model's own") },
      ] as const,
      sw.scale,
      (v) => {
        custom.wrap.hidden = v !== 'custom';
        this.change({ scale: v });
      },
    );
    const custom = numberInput('sw-custom-scale', t('Custom scale'), sw.customScale, { valid: () => true, onChange: (v) => this.change({ customScale: v }) });
    custom.wrap.hidden = sw.scale !== 'custom';
    const temperature = numberInput('sw-temperature', t('Temperature'), sw.temperature, {
      min: 0,
      valid: (v) => v > 0,
      onChange: (v) => this.change({ temperature: v }),
    });
    const causal = select(
      'sw-causal',
      t('Causal mask'),
      [
        { value: 'none', label: t('none') },
        { value: 'top-left', label: t('top-left (SDPA is_causal)') },
        { value: 'bottom-right', label: t('bottom-right (KV cache)') },
      ] as const,
      sw.causal,
      (v) => this.change({ causal: v }),
    );
    const pad = numberInput('sw-pad', t('Padding: last N tokens'), sw.padLast, {
      min: 0,
      max: T,
      step: 1,
      valid: (v) => Number.isInteger(v) && v >= 0 && v <= T,
      onChange: (v) => this.change({ padLast: v }),
    });
    const builtAs = select(
      'sw-pad-built',
      t('Mask built as'),
      [
        { value: 'true-means-pad', label: t('True = padding') },
        { value: 'true-means-keep', label: t('True = real token') },
      ] as const,
      sw.padBuiltAs,
      (v) => this.change({ padBuiltAs: v }),
    );
    const passedTo = select(
      'sw-pad-api',
      t('Passed to'),
      [
        { value: 'mha', label: t('MHA key_padding_mask (True = ignore)') },
        { value: 'sdpa', label: t('SDPA attn_mask (True = attend)') },
      ] as const,
      sw.padPassedTo,
      (v) => this.change({ padPassedTo: v }),
    );
    const dim = select(
      'sw-dim',
      t('Softmax dim'),
      [
        { value: '-1', label: t('-1 (over keys, correct)') },
        { value: '-2', label: t('-2 (over queries)') },
      ] as const,
      String(sw.softmaxDim) as '-1' | '-2',
      (v) => this.change({ softmaxDim: Number(v) as -1 | -2 }),
    );
    const fully = select(
      'sw-fully',
      t('Rows with every key masked'),
      [
        { value: 'nan', label: t('NaN (plain softmax, MHA)') },
        { value: 'zero', label: t('0 (SDPA safe softmax)') },
      ] as const,
      sw.fullyMaskedRows,
      (v) => this.change({ fullyMaskedRows: v }),
    );
    const intent = select(
      'sw-intent',
      t('Meant to be causal'),
      [
        { value: 'auto', label: t('as the causal mask says') },
        { value: 'none', label: t('no') },
        { value: 'top-left', label: t('yes, top-left') },
        { value: 'bottom-right', label: t('yes, bottom-right') },
      ] as const,
      sw.causalIntent,
      (v) => this.change({ causalIntent: v }),
    );
    const reset = button({
      icon: 'discard',
      label: t('Reset switches'),
      class: 'button secondary',
      onClick: () => {
        // The form is rebuilt for a reset only: a change made in the form keeps the focus where it is.
        this.switches = { ...DEFAULT_SWITCHES, causal: this.initialCausal, causalIntent: this.initialCausal === 'none' ? 'auto' : this.initialCausal };
        this.buildForm();
        this.form.querySelector<HTMLButtonElement>('.form-actions button')?.focus();
        this.cb.onSwitches(this.switches);
      },
    });
    const group = (legend: string, ...children: HTMLElement[]) => h('fieldset', { class: 'switch-group' }, h('legend', { text: legend }), ...children);
    this.updateSummary();
    // The model's own steps, where it has them (RoPE, soft-cap, sliding windows): on as the model runs, or off.
    const model = this.run?.model;
    const onOff = (id: string, label: string, value: boolean, key: 'rope' | 'softcap' | 'slidingWindow') =>
      select(
        id,
        label,
        [
          { value: 'on', label: t('on (as the model runs)') },
          { value: 'off', label: t('off') },
        ] as const,
        value ? 'on' : 'off',
        (v) => this.change({ [key]: v === 'on' }),
      );
    const modelSteps: HTMLElement[] = [];
    if (model?.rope) modelSteps.push(onOff('sw-rope', t('Rotate q and k by position (RoPE)'), sw.rope, 'rope').wrap);
    if (model?.attnSoftcap !== undefined)
      modelSteps.push(onOff('sw-softcap', t('Soft-cap the scores at ±{0}', fmt(model.attnSoftcap, 3)), sw.softcap, 'softcap').wrap);
    const windows = (model?.layerWindows ?? []).filter((w): w is number => w !== null);
    const [window] = windows;
    if (window !== undefined)
      modelSteps.push(onOff('sw-window', t('Sliding window of {0} keys (local layers)', window), sw.slidingWindow, 'slidingWindow').wrap);
    this.form.replaceChildren(
      group(t('Scale'), scale.wrap, custom.wrap, temperature.wrap),
      ...(modelSteps.length > 0 ? [group(t('Model steps'), ...modelSteps)] : []),
      group(t('Mask'), causal.wrap, pad.wrap, builtAs.wrap, passedTo.wrap),
      group(t('Softmax'), dim.wrap, fully.wrap, intent.wrap),
      h('div', { class: 'form-actions' }, reset),
    );
  }

  /** The causal mask the run itself used (the reset target). */
  initialCausal: DebuggerSwitches['causal'] = 'none';

  /** What the current step shows, for exports. */
  exportModel(): { trace: AttentionTrace; step: StepIndex; tokens: string[] } | undefined {
    return this.trace ? { trace: this.trace, step: this.step, tokens: (this.run?.tokens ?? []).map((tk) => tk.text) } : undefined;
  }
}

/** The switches in a few words: "1/√d_k · T 1 · no mask · softmax dim -1". */
export function switchesSummary(sw: DebuggerSwitches): string {
  const scale = sw.scale === 'inv-sqrt-dk' ? '1/√d_k' : sw.scale === 'inv-dk' ? '1/d_k' : sw.scale === 'none' ? '×1' : `×${sw.customScale}`;
  const masks: string[] = [];
  if (sw.causal !== 'none') masks.push(t('causal {0}', sw.causal));
  if (sw.padLast > 0) masks.push(t('{0} padding', sw.padLast));
  return [
    t('scale {0}', scale),
    t('temperature {0}', sw.temperature),
    masks.length > 0 ? masks.join(', ') : t('no mask'),
    t('softmax dim {0}', sw.softmaxDim),
  ].join(' · ');
}
