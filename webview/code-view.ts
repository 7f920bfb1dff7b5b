// A block of Python the learner can read and copy: collapsible, the code as text (never HTML), and a Copy
// button that hands the text to the host (the webview cannot reach the system clipboard reliably).
import { button, h } from './dom';
import { t } from './l10n';

export class CodeView {
  readonly el: HTMLDetailsElement;
  private readonly code = h('code', { class: 'language-python' });
  private readonly summary: HTMLElement;
  private text = '';

  constructor(
    title: string,
    private readonly copy: (text: string) => void,
    className = '',
  ) {
    this.summary = h('summary', { text: title });
    const copyButton = button({ icon: 'copy', label: t('Copy'), class: 'button secondary copy-code', onClick: () => this.copy(this.text) });
    this.el = h(
      'details',
      { class: `code-view ${className}`.trim() },
      this.summary,
      h('div', { class: 'code-actions' }, copyButton),
      h('pre', { class: 'code-block', attrs: { tabindex: 0 } }, this.code),
    );
    this.el.hidden = true;
  }

  /** Shows `text` (hides the block when there is none). */
  setText(text: string | undefined): void {
    this.text = text ?? '';
    this.code.textContent = this.text;
    this.el.hidden = this.text === '';
  }

  get currentText(): string {
    return this.text;
  }
}
