// Errors from the engine worker in the display language: an error made from templates (a MessageError: the
// session's, src/protocol/engine-errors.ts; the loaders', models' and tokenizers' errors) arrives as its
// template and arguments and is rendered here with vscode.l10n.t under the comment `error` (bundle key
// `<English>/error`), nested parts first. Any other error (a worker crash, a bug) is shown as it came.
import { ENGINE_ERRORS } from '../protocol/engine-errors';
import { messagePartsOf, renderMessage, type MessageParts } from '../protocol/message';
import { translatorUnder } from './l10n-translate';

/** The vscode.l10n comment of every error template: its bundle key is `${english}/${ERROR_L10N_COMMENT}`. */
export const ERROR_L10N_COMMENT = 'error';

const translate = translatorUnder(ERROR_L10N_COMMENT);

/** Error parts in the display language. */
export function localisedParts(parts: MessageParts): string {
  return renderMessage(parts, translate);
}

/** The error's text in the display language (its English message when it was not made from templates). */
export function localisedError(e: unknown): string {
  const parts = messagePartsOf(e);
  if (parts) return localisedParts(parts);
  return e instanceof Error ? e.message : String(e);
}

/**
 * What went wrong loading `fileName`, without the file's name when the error already begins with it (the
 * loaders' messages start "<file>: …", and "Could not load <file>: <file>: …" would name it twice).
 */
export function problemLoading(fileName: string, e: unknown): string {
  const text = localisedError(e);
  for (const colon of [': ', '：', ':']) {
    if (text.startsWith(fileName + colon)) return text.slice(fileName.length + colon.length).trimStart();
  }
  return text;
}

/** The length of a text the engine refused for its token limit: "1,234" tokens, or "more than 65,536". */
export function refusedTokenCount(e: unknown): { tokens: number; atLeast: boolean } | undefined {
  const parts = messagePartsOf(e);
  if (parts?.template === ENGINE_ERRORS.tooManyTokens) return { tokens: Number(parts.args[0]), atLeast: false };
  if (parts?.template === ENGINE_ERRORS.tooManyTokensAtLeast) return { tokens: Number(parts.args[0]), atLeast: true };
  return undefined;
}
