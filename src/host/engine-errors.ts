// Engine errors in the display language: a message the engine session made from one of its templates
// (src/protocol/engine-errors.ts) is translated template and arguments with vscode.l10n.t; any other error
// (a loader's, a worker's) is shown as it came.
import * as vscode from 'vscode';
import { ENGINE_ERRORS, matchEngineError } from '../protocol/engine-errors';

export function localisedEngineError(message: string): string {
  const m = matchEngineError(message);
  return m ? vscode.l10n.t(m.template, ...m.args) : message;
}

/** The length of a text the engine refused for its token limit: "1,234" tokens, or "more than 65,536". */
export function refusedTokenCount(message: string): { tokens: number; atLeast: boolean } | undefined {
  const m = matchEngineError(message);
  if (m?.template === ENGINE_ERRORS.tooManyTokens) return { tokens: Number(m.args[0]), atLeast: false };
  if (m?.template === ENGINE_ERRORS.tooManyTokensAtLeast) return { tokens: Number(m.args[0]), atLeast: true };
  return undefined;
}
