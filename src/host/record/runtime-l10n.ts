// The recorder's runtime findings and evidence in the display language: each carries its English template and
// arguments (src/record/messages.ts), rendered here with vscode.l10n.t under the comment `runtime` (bundle key
// `<English>/runtime`), nested phrases first.
import * as vscode from 'vscode';
import { renderMessage, type MessageParts, type TranslateTemplate } from '../../protocol/message';

/** The vscode.l10n comment of the runtime findings' templates. */
export const RUNTIME_L10N_COMMENT = 'runtime';

/** A template under this file's comment, or under its own domain's when the message was marked with `inDomain`. */
const translate: TranslateTemplate = (message, args, domain) => vscode.l10n.t({ message, args: [...args], comment: domain ?? RUNTIME_L10N_COMMENT });

/** A runtime finding's (or evidence's) message in the display language; `english` when it came without parts. */
export function localisedRuntime(parts: MessageParts | undefined, english: string): string {
  return parts ? renderMessage(parts, translate) : english;
}
