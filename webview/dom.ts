// Tiny DOM helpers. Text always goes in as text nodes / textContent: nothing here parses HTML, so token
// text from the editor can never become markup.

export type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  /** Attributes (aria-*, role, title, type, ...); values are set with setAttribute. */
  attrs?: Record<string, string | number | boolean | undefined>;
  text?: string;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  for (const [k, v] of Object.entries(props.attrs ?? {})) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
  if (props.text !== undefined) el.textContent = props.text;
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** A codicon (decorative: hidden from screen readers). */
export function icon(name: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, attrs: { 'aria-hidden': 'true' } });
}

/** A button with a codicon and/or a label; `label` is also its accessible name and tooltip. */
export function button(opts: { icon?: string; label: string; showLabel?: boolean; class?: string; onClick: (ev: MouseEvent) => void }): HTMLButtonElement {
  const b = h('button', { class: opts.class ?? 'button', attrs: { type: 'button', title: opts.label, 'aria-label': opts.label } });
  if (opts.icon) b.append(icon(opts.icon));
  if (opts.showLabel !== false || !opts.icon) b.append(h('span', { class: 'button-label', text: opts.label }));
  b.addEventListener('click', opts.onClick);
  return b;
}

/** A labelled <select>; returns the wrapper and the select. */
export function select<T extends string>(
  id: string,
  label: string,
  options: readonly { value: T; label: string }[],
  value: T,
  onChange: (v: T) => void,
): { wrap: HTMLElement; select: HTMLSelectElement } {
  const sel = h('select', { attrs: { id } });
  for (const o of options) {
    const opt = h('option', { attrs: { value: o.value }, text: o.label });
    if (o.value === value) opt.selected = true;
    sel.append(opt);
  }
  sel.addEventListener('change', () => onChange(sel.value as T));
  return { wrap: h('div', { class: 'field' }, h('label', { attrs: { for: id }, text: label }), sel), select: sel };
}

/** A labelled number input; `onChange` gets only valid numbers (invalid input is marked). */
export function numberInput(
  id: string,
  label: string,
  value: number,
  opts: { min?: number; max?: number; step?: number | 'any'; valid: (v: number) => boolean; onChange: (v: number) => void },
): { wrap: HTMLElement; input: HTMLInputElement } {
  const input = h('input', {
    attrs: { id, type: 'number', value: String(value), min: opts.min, max: opts.max, step: opts.step ?? 'any', inputmode: 'decimal' },
  });
  const commit = () => {
    const v = Number(input.value);
    const ok = input.value.trim() !== '' && Number.isFinite(v) && opts.valid(v);
    input.setAttribute('aria-invalid', ok ? 'false' : 'true');
    if (ok) opts.onChange(v);
  };
  input.addEventListener('change', commit);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') commit();
  });
  return { wrap: h('div', { class: 'field' }, h('label', { attrs: { for: id }, text: label }), input), input };
}
