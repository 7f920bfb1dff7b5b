// Progress for work that is usually quick: nothing is shown unless it takes longer than `delayMs`; then a
// notification with a Cancel button appears. Cancelling there cancels the work. The engine's progress text
// arrives as parts (src/protocol/engine-progress.ts) rendered here under the l10n comment `progress`.
import * as vscode from 'vscode';
import { renderMessage, type MessageParts } from '../protocol/message';
import { translatorUnder } from './l10n-translate';

/** The vscode.l10n comment of the engine's progress templates: bundle key `${english}/${PROGRESS_L10N_COMMENT}`. */
export const PROGRESS_L10N_COMMENT = 'progress';

const translate = translatorUnder(PROGRESS_L10N_COMMENT);

/** The engine's progress text in the display language: its parts when it came with them, else its English. */
export function localisedProgress(english: string, parts: MessageParts | undefined): string {
  return parts ? renderMessage(parts, translate) : english;
}

export async function withDeferredProgress<T>(
  title: string,
  delayMs: number,
  work: (token: vscode.CancellationToken, report: (fraction: number, message: string) => void) => Promise<T>,
  /** Cancels the work too (e.g. the panel the work is for was closed). */
  external?: vscode.CancellationToken,
): Promise<T> {
  const cts = new vscode.CancellationTokenSource();
  const unlink = external?.onCancellationRequested(() => cts.cancel());
  let last = 0;
  let reporter: ((fraction: number, message: string) => void) | undefined;
  const report = (fraction: number, message: string) => reporter?.(fraction, message);
  const promise = work(cts.token, report);
  const timer = setTimeout(() => {
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
      token.onCancellationRequested(() => cts.cancel());
      reporter = (fraction, message) => {
        const pct = Math.max(0, Math.min(100, fraction * 100));
        progress.report({ message, increment: pct > last ? pct - last : 0 });
        last = Math.max(last, pct);
      };
      return promise.catch(() => undefined);
    });
  }, delayMs);
  try {
    return await promise;
  } finally {
    clearTimeout(timer);
    unlink?.dispose();
    cts.dispose();
  }
}
