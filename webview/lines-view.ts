// The lines view: query tokens on the left, key tokens on the right, a line from query i to key j with
// opacity = weight; one head, or all heads of a layer overlaid in one colour each. Hovering (or moving
// with ↑/↓) a query shows only its lines; hovering a key shows the lines into it.
import { type Rgb, isDark, toHex } from './colour-scale';
import { h } from './dom';
import { fmt, tokenLabel } from './format';
import { t } from './l10n';
import { type LinesLayout, lineSlotAt, linesLayout } from './layout';
import { headColours, lineSegments } from './lines-model';
import type { ThemeColours } from './theme';
import type { Tooltip } from './tooltip';
import { itemAt } from './checked';

export interface LinesData {
  tokens: readonly string[];
  heads: { head: number; weights: Float32Array }[];
  /** Heads overlaid (one colour each) rather than one head. */
  overlay: boolean;
}

export class LinesView {
  readonly el: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly key: HTMLElement;
  private readonly live: HTMLElement;
  private data: LinesData | undefined;
  private theme: ThemeColours | undefined;
  private layout: LinesLayout | undefined;
  private focus: { side: 'query' | 'key'; index: number } | undefined;
  private width = 600;

  constructor(
    private readonly tooltip: Tooltip,
    private readonly onActivate?: (index: number) => void,
  ) {
    this.canvas = h('canvas', {
      class: 'lines-canvas',
      attrs: { tabindex: 0, role: 'img', 'aria-label': t('Lines from query tokens (left) to key tokens (right); opacity is the weight') },
    });
    this.key = h('div', { class: 'lines-key' });
    this.live = h('div', { class: 'sr-only', attrs: { 'aria-live': 'polite' } });
    this.el = h('div', { class: 'lines' }, this.key, this.canvas, this.live);
    this.canvas.addEventListener('pointermove', (e) => this.onPointer(e));
    this.canvas.addEventListener('pointerleave', () => {
      this.focus = undefined;
      this.tooltip.hide();
      this.draw();
    });
    this.canvas.addEventListener('click', () => {
      if (this.focus) this.onActivate?.(this.focus.index);
    });
    this.canvas.addEventListener('keydown', (e) => this.onKey(e));
  }

  setTheme(theme: ThemeColours): void {
    this.theme = theme;
    this.draw();
  }

  setData(data: LinesData): void {
    this.data = data;
    if (this.focus && this.focus.index >= data.tokens.length) this.focus = undefined;
    this.draw();
  }

  setWidth(width: number): void {
    if (Math.abs(width - this.width) < 1) return;
    this.width = width;
    this.draw();
  }

  private colours(): Rgb[] {
    const { data, theme } = this;
    if (!data || !theme) return [];
    if (!data.overlay) {
      const strongest = itemAt(theme.palette.sequential.colours, theme.palette.sequential.colours.length - 1, 'the sequential palette');
      return data.heads.map(() => strongest);
    }
    return headColours(data.heads.length, isDark(theme.palette.background));
  }

  draw(): void {
    const { data, theme } = this;
    if (!data || !theme) return;
    const T = data.tokens.length;
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.font = `12px ${theme.font}`;
    const labels = data.tokens.map((d) => tokenLabel(d, 14));
    const widest = labels.reduce((m, l) => Math.max(m, ctx.measureText(l).width), 0);
    const layout = (this.layout = linesLayout(T, this.width, widest));
    const dpr = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
    this.canvas.width = Math.round(layout.width * dpr);
    this.canvas.height = Math.round(layout.height * dpr);
    this.canvas.style.width = `${layout.width}px`;
    this.canvas.style.height = `${layout.height}px`;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, layout.width, layout.height);
    const y = (i: number) => 4 + (i + 0.5) * layout.rowH;
    const colours = this.colours();
    const f = this.focus;
    const segments = lineSegments(
      data.heads.map((hd, k) => ({ head: k, weights: hd.weights })),
      T,
      f ? (f.side === 'query' ? { focusQuery: f.index } : { focusKey: f.index }) : {},
    );
    ctx.lineWidth = data.overlay ? 1.25 : 1.75;
    for (const s of segments) {
      ctx.strokeStyle = toHex(itemAt(colours, s.head, 'head colours'));
      ctx.globalAlpha = data.overlay ? s.opacity * 0.85 : s.opacity;
      ctx.beginPath();
      ctx.moveTo(layout.leftX + 2, y(s.query));
      ctx.bezierCurveTo((layout.leftX + layout.rightX) / 2, y(s.query), (layout.leftX + layout.rightX) / 2, y(s.key), layout.rightX - 2, y(s.key));
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    if (layout.labels) {
      ctx.font = `${layout.font}px ${theme.font}`;
      ctx.textBaseline = 'middle';
      labels.forEach((l, i) => {
        const hotQ = f?.side === 'query' && f.index === i;
        const hotK = f?.side === 'key' && f.index === i;
        if (hotQ || hotK) {
          ctx.fillStyle = theme.highlight;
          ctx.fillRect(hotQ ? 0 : layout.rightX, y(i) - layout.rowH / 2, layout.leftX, layout.rowH);
        }
        ctx.fillStyle = theme.foreground;
        ctx.textAlign = 'right';
        ctx.fillText(l, layout.leftX - 4, y(i), layout.leftX - 6);
        ctx.textAlign = 'left';
        ctx.fillText(l, layout.rightX + 4, y(i), layout.width - layout.rightX - 6);
      });
    }
    this.key.replaceChildren(
      ...(data.overlay
        ? data.heads.map((hd, k) => h('span', { class: 'lines-key-item' }, swatch(itemAt(colours, k, 'head colours')), t('H{0}', hd.head)))
        : [h('span', { class: 'lines-key-item', text: t('Query tokens on the left, key tokens on the right; line opacity = weight.') })]),
    );
  }

  private describe(side: 'query' | 'key', index: number): string[] {
    const data = this.data!;
    const T = data.tokens.length;
    const token = tokenLabel(itemAt(data.tokens, index, 'tokens'), 24);
    const lines = [side === 'query' ? t('Query {0} “{1}”', index, token) : t('Key {0} “{1}”', index, token)];
    for (const hd of data.heads.slice(0, 12)) {
      // The strongest three links of this token in this head.
      const links: { other: number; w: number }[] = [];
      for (let o = 0; o < T; o++) links.push({ other: o, w: itemAt(hd.weights, side === 'query' ? index * T + o : o * T + index, 'head weights') });
      links.sort((a, b) => (b.w || 0) - (a.w || 0));
      const top = links
        .slice(0, 3)
        .map((l) => `“${tokenLabel(itemAt(data.tokens, l.other, 'tokens'), 12)}” ${fmt(l.w, 3)}`)
        .join(', ');
      lines.push(data.overlay ? `${t('H{0}', hd.head)}: ${top}` : top);
    }
    return lines;
  }

  private onPointer(e: PointerEvent): void {
    const layout = this.layout;
    const data = this.data;
    if (!layout || !data) return;
    const box = this.canvas.getBoundingClientRect();
    const x = e.clientX - box.left,
      yy = e.clientY - box.top;
    const slot = lineSlotAt(layout, data.tokens.length, yy);
    const side = x < layout.width / 2 ? 'query' : 'key';
    const next = slot === undefined ? undefined : ({ side, index: slot } as const);
    if (next?.side !== this.focus?.side || next?.index !== this.focus?.index) {
      this.focus = next;
      this.draw();
    }
    if (next) this.tooltip.show(this.describe(next.side, next.index), e.clientX, e.clientY);
    else this.tooltip.hide();
  }

  private onKey(e: KeyboardEvent): void {
    const data = this.data;
    if (!data) return;
    const T = data.tokens.length;
    const cur = this.focus ?? { side: 'query' as const, index: -1 };
    let next: { side: 'query' | 'key'; index: number } | undefined;
    if (e.key === 'ArrowDown') next = { side: cur.side, index: Math.min(T - 1, cur.index + 1) };
    else if (e.key === 'ArrowUp') next = { side: cur.side, index: Math.max(0, cur.index - 1) };
    else if (e.key === 'ArrowLeft') next = { side: 'query', index: Math.max(0, cur.index) };
    else if (e.key === 'ArrowRight') next = { side: 'key', index: Math.max(0, cur.index) };
    else if (e.key === 'Enter' && this.focus) {
      this.onActivate?.(this.focus.index);
      return;
    } else if (e.key === 'Escape') {
      this.focus = undefined;
      this.tooltip.hide();
      this.draw();
      return;
    }
    if (!next) return;
    e.preventDefault();
    e.stopPropagation();
    this.focus = next;
    this.draw();
    const lines = this.describe(next.side, next.index);
    this.live.textContent = lines.join('. ');
    const box = this.canvas.getBoundingClientRect();
    const layout = this.layout!;
    this.tooltip.show(lines, box.left + (next.side === 'query' ? layout.leftX : layout.rightX), box.top + 4 + (next.index + 1) * layout.rowH);
  }

  /** The lines as they are drawn now, for the SVG export. */
  exportModel(): { layout: LinesLayout; colours: Rgb[]; data: LinesData } | undefined {
    if (!this.layout || !this.data) return undefined;
    return { layout: this.layout, colours: this.colours(), data: this.data };
  }

  pngBase64(): string {
    return this.canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
  }
}

function swatch(c: Rgb): HTMLElement {
  const s = h('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
  s.style.backgroundColor = toHex(c);
  return s;
}
