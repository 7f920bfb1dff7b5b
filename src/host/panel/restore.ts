// What the host keeps of the panel's view (mode and opened head) to show it again after the webview is
// re-created or the window reloads. Pure: the serializer passes the webview's saved state through here.
import { type InspectedText, type PanelMode, inspectedText } from '../../protocol/webview';

/** What a reloaded window needs to show the panel again (kept by VS Code with the webview's state). */
export interface PanelRestoreState {
  mode: PanelMode;
  focus?: { layer: number; head: number };
  /** The text the panel showed (absent in a state saved by an older panel). */
  inspected?: InspectedText;
}

/** The webview's saved state (see webview/state.ts) as far as the host needs it; anything odd is ignored. */
export function restoreState(state: unknown): PanelRestoreState {
  const s = (typeof state === 'object' && state !== null ? state : {}) as { mode?: unknown; focus?: { layer?: unknown; head?: unknown }; inspected?: unknown };
  const out: PanelRestoreState = { mode: s.mode === 'debugger' ? 'debugger' : 'grid' };
  const f = s.focus;
  const ok = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 4096;
  if (typeof f === 'object' && f !== null && ok(f.layer) && ok(f.head)) out.focus = { layer: f.layer, head: f.head };
  const inspected = inspectedText(s.inspected);
  if (inspected) out.inspected = inspected;
  return out;
}
