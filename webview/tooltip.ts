// One tooltip that follows the pointer (or the keyboard cursor). Its lines are set as text.
import { h } from './dom';

export class Tooltip {
  readonly el: HTMLElement;
  private readonly lines: HTMLElement;

  constructor() {
    this.lines = h('div');
    this.el = h('div', { class: 'tooltip', attrs: { role: 'tooltip', id: 'ai-tooltip', hidden: true } }, this.lines);
    document.body.append(this.el);
  }

  /** Shows `lines` near the page point (x, y) (client coordinates), kept inside the window. */
  show(lines: readonly string[], x: number, y: number): void {
    this.lines.replaceChildren(...lines.map((l, i) => h('div', { class: i === 0 ? 'tooltip-head' : 'tooltip-line', text: l })));
    this.el.hidden = false;
    const pad = 14;
    const r = this.el.getBoundingClientRect();
    let left = x + pad,
      top = y + pad;
    if (left + r.width > window.innerWidth - 4) left = Math.max(4, x - pad - r.width);
    if (top + r.height > window.innerHeight - 4) top = Math.max(4, y - pad - r.height);
    this.el.style.left = `${left}px`;
    this.el.style.top = `${top}px`;
  }

  hide(): void {
    this.el.hidden = true;
  }

  text(): string {
    return this.el.hidden ? '' : this.lines.innerText;
  }
}
