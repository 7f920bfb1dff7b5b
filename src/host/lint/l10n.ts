// The linter's messages in the display language: each finding, related location and fix title carries its
// English template and arguments (src/lint/message.ts), translated here template by template with
// vscode.l10n.t (l10n/bundle.l10n.*.json), nested phrases first. Rule hovers translate the rule's summary and
// "why is this bad" paragraph the same way (the English text is the key). The linter's keys carry the comment
// `lint` (bundle key `<template>/lint`), so that a short phrase of the linter never takes the translation of a
// panel string with the same English text.
import { renderHover } from '../../lint/docs';
import { renderMessage, type MessageParts } from '../../protocol/message';
import { translatorUnder } from '../l10n-translate';
import type { Rule } from '../../lint/rules';

/** The vscode.l10n comment of every linter string: its bundle key is `${english}/${LINT_L10N_COMMENT}`. */
export const LINT_L10N_COMMENT = 'lint';

const translate = translatorUnder(LINT_L10N_COMMENT);

/** The message in the display language; `english` when it has no parts (a message the host made itself). */
export function localised(parts: MessageParts | undefined, english: string): string {
  return parts ? renderMessage(parts, translate) : english;
}

/** The hover of a rule: its code and name, summary and why it matters, in the display language. */
export function localisedHover(rule: Rule): string {
  return renderHover(rule, (english) => translate(english, []));
}

/** A rule's one-line summary in the display language. */
export function localisedSummary(rule: Rule): string {
  return translate(rule.meta.docs.summary, []);
}
