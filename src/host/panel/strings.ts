// The panel's UI strings, translated on the host (vscode.l10n) and handed to the webview with each run.
// Keys are the English strings themselves, as vscode.l10n does; the webview falls back to the key.
import * as vscode from 'vscode';
import { PANEL_STRING_KEYS } from '../../protocol/webview';

export { PANEL_STRING_KEYS };

export function panelStrings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of PANEL_STRING_KEYS) out[key] = vscode.l10n.t(key);
  return out;
}
