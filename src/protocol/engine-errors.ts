// The engine session's errors that the editor shows, as English templates with vscode.l10n's `{0}` placeholders.
// The session throws them filled in (`engineErrorMessage`); the message crosses the worker boundary as text and
// the host recovers the template and its arguments (`matchEngineError`) to show it in the display language.
// Arguments are names and numbers, never English phrases. Errors not listed here are shown as they are.

export const ENGINE_ERRORS = {
  noTokens: 'there is nothing to inspect: the text has no tokens',
  tooManyTokens: 'the text has {0} tokens; the limit is {1}',
  tooManyTokensAtLeast: 'the text has more than {0} tokens; the limit is {1}',
  maxPositions: '{0} takes at most {1} tokens; the text has {2}',
  staleRun: 'these results are no longer held by the engine; inspect the text again',
  idOutsideVocabulary: 'token id {0} is outside the vocabulary of {1} (0..{2})',
  noSuchHead: 'no layer {0}, head {1}: the model has {2} layer(s) × {3} head(s)',
  traceTooLong:
    'the step-through debugger traces at most {0} tokens ({0}×{0} cells per step); this run has {1} tokens: inspect a shorter selection to step through it',
  noModel: 'no model is configured yet',
} as const;

export type EngineErrorTemplate = (typeof ENGINE_ERRORS)[keyof typeof ENGINE_ERRORS];

/**
 * A text too long for `maxTokens` is tokenized on up to this many tokens to say how long it is (beyond it the
 * message says "more than"): enough for any selection the editor would run, cheap next to running it.
 */
export const TOKEN_COUNT_LIMIT = 65_536;

export function engineErrorMessage(template: EngineErrorTemplate, ...args: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

const literalLength = (template: string) => template.replace(/\{\d+\}/g, '').length;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const MATCHERS: readonly { template: EngineErrorTemplate; re: RegExp; order: number[] }[] = Object.values(ENGINE_ERRORS)
  .map((template) => {
    const order: number[] = [];
    const source = template
      .split(/(\{\d+\})/)
      .map((part) => {
        const m = /^\{(\d+)\}$/.exec(part);
        if (!m) return escape(part);
        const i = Number(m[1]);
        // A placeholder used again must repeat what it matched the first time.
        if (order.includes(i)) return `\\${order.indexOf(i) + 1}`;
        order.push(i);
        return '(.+?)';
      })
      .join('');
    return { template, re: new RegExp(`^${source}$`, 's'), order };
  })
  // The most specific first: "the text has more than {0} tokens" before "the text has {0} tokens".
  .sort((a, b) => literalLength(b.template) - literalLength(a.template));

/** The template and arguments of an engine error message, when it is one of ENGINE_ERRORS. */
export function matchEngineError(message: string): { template: EngineErrorTemplate; args: string[] } | undefined {
  for (const { template, re, order } of MATCHERS) {
    const m = re.exec(message);
    if (!m) continue;
    const args: string[] = [];
    order.forEach((placeholder, group) => (args[placeholder] = m[group + 1] ?? ''));
    return { template, args };
  }
  return undefined;
}
