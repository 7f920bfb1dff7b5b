// The recorder's runtime findings and evidence in the display language: each carries its English template and
// arguments (src/record/messages.ts), rendered here with vscode.l10n.t under the comment `runtime` (bundle key
// `<English>/runtime`), nested phrases first.
import { renderMessage, type MessageParts } from '../../protocol/message';
import { translatorUnder } from '../l10n-translate';

/** The vscode.l10n comment of the runtime findings' templates. */
export const RUNTIME_L10N_COMMENT = 'runtime';

const translate = translatorUnder(RUNTIME_L10N_COMMENT);

/** A runtime finding's (or evidence's) message in the display language; `english` when it came without parts. */
export function localisedRuntime(parts: MessageParts | undefined, english: string): string {
  return parts ? renderMessage(parts, translate) : english;
}
