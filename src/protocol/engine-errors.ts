// The engine session's errors that the editor shows, as English templates with vscode.l10n's `{0}` placeholders
// (src/protocol/message.ts, l10n comment `error`). The session throws them as MessageErrors; they cross the
// worker boundary as template and arguments, and the host renders them in the display language.
// Arguments are names and numbers, never English phrases; a model's name is its own parts, marked `model`
// (modelNameArg in src/models/model-text.ts), so that it is shown in the display language too.
import { defineTemplates } from './message';

export const ENGINE_ERRORS = defineTemplates(
  {
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
  },
  'error',
);

/**
 * A text too long for `maxTokens` is tokenized on up to this many tokens to say how long it is (beyond it the
 * message says "more than"): enough for any selection the editor would run, cheap next to running it.
 */
export const TOKEN_COUNT_LIMIT = 65_536;
