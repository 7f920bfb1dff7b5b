// A model's name and description in the display language: the engine sends them as parts (ModelInfo.nameParts /
// detailParts, src/models/model-text.ts) and they are rendered here with vscode.l10n.t under the comment `model`
// (bundle key `<English>/model`), nested parts first. ModelInfo.name / detail stay the English text (the CLI's).
import type { ModelInfo } from '../protocol/engine';
import { renderMessage, type MessageParts } from '../protocol/message';
import { translatorUnder } from './l10n-translate';

/** The vscode.l10n comment of every model-text template: its bundle key is `${english}/${MODEL_L10N_COMMENT}`. */
export const MODEL_L10N_COMMENT = 'model';

const translate = translatorUnder(MODEL_L10N_COMMENT);

/** Model-text parts in the display language. */
export function localisedModelText(parts: MessageParts): string {
  return renderMessage(parts, translate);
}

/** The model with its name and description in the display language (the parts kept, for English file names). */
export function displayedModel(info: ModelInfo): ModelInfo {
  return { ...info, name: localisedModelText(info.nameParts), detail: localisedModelText(info.detailParts) };
}
