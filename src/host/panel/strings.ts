// The panel's UI strings, translated on the host (vscode.l10n) and handed to the webview with each run.
// Keys are the English strings themselves, as vscode.l10n does; the webview falls back to the key.
import * as vscode from 'vscode';

/** Every string the webview shows. Keep in sync with webview/l10n.ts (a unit test checks). */
export const PANEL_STRING_KEYS: readonly string[] = [];

export function panelStrings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of PANEL_STRING_KEYS) out[key] = vscode.l10n.t(key);
  return out;
}
