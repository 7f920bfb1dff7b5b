// The one way the host translates message templates (src/protocol/message.ts): vscode.l10n.t under the l10n
// comment of the table the template was declared in (its bundle key is `<English>/<comment>`).
import * as vscode from 'vscode';
import type { TemplateDomain, TranslateTemplate } from '../protocol/message';

/**
 * A translator for templates declared under `comment`; a message marked with `inDomain` (a model's name inside
 * an engine error) is translated under its own domain instead.
 */
export function translatorUnder(comment: TemplateDomain): TranslateTemplate {
  return (message, args, domain) => vscode.l10n.t({ message, args: [...args], comment: domain ?? comment });
}
