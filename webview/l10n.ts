// The webview's UI strings. The host translates every key of PANEL_STRING_KEYS with vscode.l10n and sends
// the table with each run; until then (and for keys it lacks) the English key itself is shown. Keys use
// vscode.l10n's {0} placeholders.
import type { PanelStringKey } from '../src/protocol/webview';

let table: Readonly<Record<string, string>> = {};

export function setStrings(strings: Record<string, string> | undefined): void {
  const clean: Record<string, string> = {};
  if (strings && typeof strings === 'object') {
    for (const [k, v] of Object.entries(strings)) if (typeof v === 'string') clean[k] = v;
  }
  table = clean;
}

/** Replaces {0}, {1}, ... with the arguments (a missing argument leaves the placeholder). */
export function format(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : m));
}

/** The translated string for `key`, with its placeholders filled. */
export function t(key: PanelStringKey, ...args: (string | number)[]): string {
  return format(table[key] ?? key, args);
}
