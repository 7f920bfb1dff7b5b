// What the host keeps of the panel's view (mode and opened head) to show it again after the webview is
// re-created or the window reloads. Pure: the serializer passes the webview's saved state through here.
import type { PanelMode } from '../../protocol/webview';

/** What a reloaded window needs to show the panel again (kept by VS Code with the webview's state). */
export interface PanelRestoreState {
  mode: PanelMode;
  focus?: { layer: number; head: number };
}

/** The webview's saved state (see webview/state.ts) as far as the host needs it; anything odd is ignored. */
export function restoreState(state: unknown): PanelRestoreState {
  const s = (typeof state === 'object' && state !== null ? state : {}) as { mode?: unknown; focus?: { layer?: unknown; head?: unknown } };
  const out: PanelRestoreState = { mode: s.mode === 'debugger' ? 'debugger' : 'grid' };
  const f = s.focus;
  const ok = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 4096;
  if (typeof f === 'object' && f !== null && ok(f.layer) && ok(f.head)) out.focus = { layer: f.layer, head: f.head };
  return out;
}
