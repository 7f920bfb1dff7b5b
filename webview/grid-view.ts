// The heads grid: every layer × head as a small heatmap drawn from the run's thumbnails (the full weights
// are fetched only when a head is opened). Each head is a button: click or Enter opens it, arrow keys
// move between heads (one tab stop for the whole grid), hovering shows the head's summary.
import type { RunResult } from '../src/protocol/engine';
import { scaleFor } from './colour-scale';
import { thumbnailOf } from './data';
import { h } from './dom';
import { fmt } from './format';
import { renderHeatmapPixels } from './heatmap-pixels';
import { t } from './l10n';
import { gridLayout, moveInGrid } from './layout';
import type { ThemeColours } from './theme';
import type { Tooltip } from './tooltip';

export interface GridOptions {
  tooltip: Tooltip;
  onOpen: (layer: number, head: number) => void;
}

export class GridView {
  readonly el: HTMLElement;
  private readonly table: HTMLElement;
  private run: RunResult | undefined;
  private theme: ThemeColours | undefined;
  private unit = false;
  private cells: { button: HTMLButtonElement; canvas: HTMLCanvasElement; layer: number; head: number }[] = [];
  private focus = { layer: 0, head: 0 };
  /** The opened head (outlined); kept here because a resize rebuilds the buttons. */
  private selected: { layer: number; head: number } | undefined;
  private width = 800;
  lastRenderMs = 0;

  constructor(private readonly opts: GridOptions) {
    this.table = h('div', { class: 'grid', attrs: { role: 'grid', 'aria-label': t('Attention heads: one row per layer, one column per head') } });
    this.el = h('div', { class: 'grid-wrap' }, this.table);
  }

  setRun(run: RunResult, focus?: { layer: number; head: number }): void {
    this.run = run;
    if (focus) this.focus = { ...focus };
    if (this.focus.layer >= run.nLayer || this.focus.head >= run.nHead) this.focus = { layer: 0, head: 0 };
    this.build();
  }

  setTheme(theme: ThemeColours): void {
    this.theme = theme;
    this.draw();
  }

  setUnitScale(unit: boolean): void {
    this.unit = unit;
    this.draw();
  }

  setWidth(width: number): void {
    if (Math.abs(width - this.width) < 8) return;
    this.width = width;
    this.build();
  }

  setSelected(focus: { layer: number; head: number } | undefined): void {
    this.selected = focus ? { ...focus } : undefined;
    if (focus) this.focus = { ...focus };
    this.updateTabStops();
  }

  /** How many thumbnails show at least one pixel different from the background (the e2e tests read this). */
  get headCount(): number {
    return this.cells.length;
  }

  private build(): void {
    const run = this.run;
    if (!run) return;
    const layout = gridLayout(run.nLayer, run.nHead, this.width);
    this.table.replaceChildren();
    this.table.style.setProperty('--thumb', `${layout.thumb}px`);
    this.table.style.setProperty('--heads', String(run.nHead));
    const header = h('div', { class: 'grid-row grid-header', attrs: { role: 'row' } }, h('span', { class: 'grid-corner', attrs: { role: 'columnheader' } }));
    // Grouped-query attention: each column says which key/value head its query head shares.
    const kv = run.kvHeads;
    for (let hd = 0; hd < run.nHead; hd++)
      header.append(h('span', { class: 'grid-col-label', attrs: { role: 'columnheader' }, text: kv ? t('H{0} · kv {1}', hd, kv[hd] ?? '?') : t('H{0}', hd) }));
    this.table.append(header);
    this.cells = [];
    for (let l = 0; l < run.nLayer; l++) {
      const row = h(
        'div',
        { class: 'grid-row', attrs: { role: 'row' } },
        h('span', { class: 'grid-row-label', attrs: { role: 'rowheader' }, text: t('L{0}', l) }),
      );
      for (let hd = 0; hd < run.nHead; hd++) {
        const canvas = h('canvas', { class: 'thumb-canvas', attrs: { 'aria-hidden': 'true' } });
        const entropy = run.headEntropy[l * run.nHead + hd];
        const label = t('Layer {0}, head {1}: mean entropy {2} nats. Press Enter to open.', l, hd, fmt(entropy, 3));
        const button = h(
          'button',
          { class: 'thumb', attrs: { type: 'button', role: 'gridcell', 'aria-label': label, 'data-layer': l, 'data-head': hd, tabindex: -1 } },
          canvas,
        );
        const layer = l,
          head = hd;
        button.addEventListener('click', () => {
          // The head opens beside the grid: the tooltip must not stay over it (or over its buttons).
          this.opts.tooltip.hide();
          this.focus = { layer, head };
          this.updateTabStops();
          this.opts.onOpen(layer, head);
        });
        button.addEventListener('keydown', (e) => this.onKey(e, layer, head));
        button.addEventListener('pointermove', (e) => {
          const shares = kv
            ? [
                t(
                  'Shares key/value head {0} with heads {1}',
                  kv[head] ?? '?',
                  kv
                    .map((g, i) => (g === kv[head] ? i : -1))
                    .filter((i) => i >= 0)
                    .join(', '),
                ),
              ]
            : [];
          this.opts.tooltip.show(
            [
              t('Layer {0} · head {1}', layer, head),
              ...shares,
              t('Mean entropy {0} nats (ln T = {1})', fmt(entropy, 3), fmt(Math.log(run.seqLen), 3)),
              t('Click to open'),
            ],
            e.clientX,
            e.clientY,
          );
        });
        button.addEventListener('pointerleave', () => this.opts.tooltip.hide());
        row.append(button);
        this.cells.push({ button, canvas, layer, head });
      }
      this.table.append(row);
    }
    this.updateTabStops();
    this.draw();
  }

  private updateTabStops(): void {
    const sel = this.selected;
    for (const c of this.cells) {
      c.button.tabIndex = c.layer === this.focus.layer && c.head === this.focus.head ? 0 : -1;
      c.button.setAttribute('aria-selected', String(!!sel && c.layer === sel.layer && c.head === sel.head));
    }
  }

  private onKey(e: KeyboardEvent, layer: number, head: number): void {
    const run = this.run;
    if (!run) return;
    const next = moveInGrid({ layer, head }, e.key, run.nLayer, run.nHead);
    if (!next) return;
    e.preventDefault();
    this.focus = next;
    this.updateTabStops();
    this.cells.find((c) => c.layer === next.layer && c.head === next.head)?.button.focus();
  }

  /** Draws every thumbnail (on theme, scale or size changes). */
  draw(): void {
    const { run, theme } = this;
    if (!run || !theme) return;
    const started = performance.now();
    const dpr = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
    const s = run.thumbnails.size;
    const side = Math.max(1, Math.round(gridLayout(run.nLayer, run.nHead, this.width).thumb * dpr));
    for (const c of this.cells) {
      const values = thumbnailOf(run, c.layer, c.head);
      c.canvas.width = side;
      c.canvas.height = side;
      const ctx = c.canvas.getContext('2d');
      if (!ctx) continue;
      const img = ctx.createImageData(side, side);
      renderHeatmapPixels(
        { values, rows: s, cols: s, width: side, height: side, palette: theme.palette, scale: scaleFor(values, { unit: this.unit }), gapFrom: 0 },
        img.data,
      );
      ctx.putImageData(img, 0, 0);
    }
    this.lastRenderMs = performance.now() - started;
  }

  /** The whole grid as one canvas (for PNG export). */
  toCanvas(): HTMLCanvasElement {
    const run = this.run!;
    const theme = this.theme!;
    const thumb = 64,
      gap = 6,
      left = 40,
      top = 24;
    const canvas = document.createElement('canvas');
    canvas.width = left + run.nHead * (thumb + gap);
    canvas.height = top + run.nLayer * (thumb + gap);
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = theme.foreground;
    ctx.font = `11px ${theme.font}`;
    ctx.textBaseline = 'middle';
    const s = run.thumbnails.size;
    for (let hd = 0; hd < run.nHead; hd++) ctx.fillText(t('H{0}', hd), left + hd * (thumb + gap) + 4, top / 2);
    for (let l = 0; l < run.nLayer; l++) {
      ctx.fillText(t('L{0}', l), 6, top + l * (thumb + gap) + thumb / 2);
      for (let hd = 0; hd < run.nHead; hd++) {
        const values = thumbnailOf(run, l, hd);
        const img = ctx.createImageData(thumb, thumb);
        renderHeatmapPixels(
          { values, rows: s, cols: s, width: thumb, height: thumb, palette: theme.palette, scale: scaleFor(values, { unit: this.unit }), gapFrom: 0 },
          img.data,
        );
        ctx.putImageData(img, left + hd * (thumb + gap), top + l * (thumb + gap));
      }
    }
    return canvas;
  }
}
