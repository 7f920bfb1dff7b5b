// The VS Code theme as the webview sees it: the body's theme class and the --vscode-* colour variables.
// Builds the heatmaps' palette from them and reports theme changes (VS Code swaps the class and the
// variables in place when the user changes theme).
import { type Rgb, type ThemeKind, type ThemePalette, makePalette, parseColour } from './colour-scale';

export function themeKind(body: HTMLElement = document.body): ThemeKind {
  const c = body.classList;
  if (c.contains('vscode-high-contrast-light')) return 'high-contrast-light';
  if (c.contains('vscode-high-contrast')) return 'high-contrast';
  if (c.contains('vscode-light')) return 'light';
  if (c.contains('vscode-dark')) return 'dark';
  const bg = cssColour('--vscode-editor-background');
  return bg && (bg[0] + bg[1] + bg[2]) / 3 > 128 ? 'light' : 'dark';
}

export function cssVar(name: string, el: HTMLElement = document.body): string {
  return getComputedStyle(el).getPropertyValue(name).trim();
}

export function cssColour(name: string, fallback?: Rgb): Rgb | undefined {
  return parseColour(cssVar(name)) ?? fallback;
}

export interface ThemeColours {
  palette: ThemePalette;
  foreground: string;
  background: string;
  focus: string;
  /** For highlights of hovered rows/columns and flagged rows. */
  highlight: string;
  error: string;
  font: string;
}

export function readTheme(): ThemeColours {
  const kind = themeKind();
  const dark = kind === 'dark' || kind === 'high-contrast';
  const bg = cssColour('--vscode-editor-background') ?? (dark ? [30, 30, 30] : [255, 255, 255]);
  const fg = cssColour('--vscode-editor-foreground') ?? cssColour('--vscode-foreground');
  const palette = makePalette(kind, bg, fg);
  return {
    palette,
    foreground: cssVar('--vscode-editor-foreground') || cssVar('--vscode-foreground') || (dark ? '#cccccc' : '#333333'),
    background: cssVar('--vscode-editor-background') || (dark ? '#1e1e1e' : '#ffffff'),
    focus: cssVar('--vscode-focusBorder') || (dark ? '#007fd4' : '#0090f1'),
    highlight: cssVar('--vscode-editor-selectionBackground') || (dark ? '#264f78' : '#add6ff'),
    error: cssVar('--vscode-errorForeground') || (dark ? '#f48771' : '#a1260d'),
    font: cssVar('--vscode-font-family') || 'sans-serif',
  };
}

/** Calls `onChange` when the theme changes (class or style of body). Returns a disposer. */
export function watchTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(() => onChange());
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'style'] });
  return () => observer.disconnect();
}
