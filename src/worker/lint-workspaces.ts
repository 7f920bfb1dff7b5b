// The lint worker's workspaces: one linter per workspace root (each with its cache of imported modules'
// analyses), reading files under the root from disk through the CLI's bounded reader, where the text of
// documents open in the editor (sent with each lint) wins over what is on disk.
import { isAbsolute } from 'node:path';
import { normalizeRelPath, type ExtendedLinter, type WorkspaceFiles } from '../lint';
import { diskWorkspace, type OverlayDocument } from '../cli/lint-workspace';

/** Workspace roots one worker serves at most (the least recently used is dropped past this). */
const MAX_ROOTS = 8;

interface RootEntry {
  linter: Promise<ExtendedLinter>;
  overlay: Map<string, OverlayDocument>;
}

export class WorkspaceLinters {
  private readonly roots = new Map<string, RootEntry>();
  /** Documents opened so far (each opening's serial makes its versions distinct from an earlier opening's). */
  private openings = 0;

  constructor(private readonly makeLinter: (files: WorkspaceFiles) => Promise<ExtendedLinter>) {}

  /** The linter of a workspace root and its open documents (made on first use). */
  entry(root: string): RootEntry {
    let e = this.roots.get(root);
    if (e) {
      this.roots.delete(root);
      this.roots.set(root, e);
      return e;
    }
    const oldest = this.roots.keys().next();
    if (this.roots.size >= MAX_ROOTS && !oldest.done) this.roots.delete(oldest.value);
    const overlay = new Map<string, OverlayDocument>();
    e = { overlay, linter: this.makeLinter(diskWorkspace(root, { overlay })) };
    // A linter that could not start is answered per request; this rejection must not count as unhandled.
    e.linter.catch(() => undefined);
    this.roots.set(root, e);
    return e;
  }

  /**
   * An open document's text (it wins over the file on disk for other files' imports of it). A document not
   * in the overlay (opened, or opened again after a close) starts a new opening: its versions restart at 1.
   */
  open(root: string, path: string, text: string, version: number): void {
    const overlay = this.entry(root).overlay;
    overlay.set(path, { text, version, opening: overlay.get(path)?.opening ?? ++this.openings });
  }

  /** A document was closed: its file is read from disk again (and its cached analysis dropped). */
  close(root: string, path: string): void {
    const e = this.roots.get(root);
    if (!e) return;
    e.overlay.delete(path);
    void e.linter.then(
      (l) => l.invalidateWorkspaceFile(path),
      () => undefined,
    );
  }
}

/** A workspace reference from the host, checked: an absolute root and a relative path inside it. */
export function checkWorkspaceRef(v: unknown, what: string): { root: string; path: string; version?: number } | undefined {
  if (v === undefined || v === null) return undefined;
  const w = v as { root?: unknown; path?: unknown; version?: unknown };
  if (typeof w !== 'object' || typeof w.root !== 'string' || !isAbsolute(w.root) || typeof w.path !== 'string') {
    throw new TypeError(`${what}: payload.workspace must be { root: an absolute path, path: a path relative to it, version?: number }`);
  }
  const path = normalizeRelPath(w.path);
  if (path === undefined) throw new TypeError(`${what}: payload.workspace.path must stay inside the workspace root`);
  if (w.version !== undefined && !Number.isInteger(w.version)) throw new TypeError(`${what}: payload.workspace.version must be an integer`);
  return { root: w.root, path, ...(typeof w.version === 'number' ? { version: w.version } : {}) };
}
