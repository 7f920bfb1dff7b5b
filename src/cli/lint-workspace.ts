// A workspace on disk for the linter's cross-file analysis (src/lint/analysis/workspace.ts): files read by
// their path relative to the workspace root, only regular files, each sized before it is read, never a path
// that leaves the root. Used by `attention-inspector lint DIR` (a directory argument is a workspace) and by
// the editor's lint worker, where the open documents' text wins over what is on disk.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { MAX_LINT_FILE_BYTES, normalizeRelPath, type WorkspaceFiles } from '../lint';
import { readRegularFile } from './files';

/** Text that replaces a file's content on disk (an open, possibly unsaved document), with its version. */
export interface OverlayDocument {
  text: string;
  version: number;
  /**
   * Which time the document was opened (a serial the overlay's owner gives each opening): an editor numbers a
   * reopened document's versions from 1 again, so the version alone would name two texts.
   */
  opening?: number;
}

export interface DiskWorkspaceOptions {
  /** Open documents by workspace-relative path: their text wins over the file on disk. */
  overlay?: ReadonlyMap<string, OverlayDocument>;
  /** The files do not change while this workspace is used (one CLI run): versions are read once. */
  snapshot?: boolean;
}

/** Directories that hold no project code: hidden ones, caches, virtual environments, node_modules. */
const NOT_PROJECT_DIR = /^(\.|__pycache__$|node_modules$|site-packages$|venv$|env$|build$|dist$)/;

/** The files under `root` as the linter's WorkspaceFiles. */
export function diskWorkspace(root: string, options: DiskWorkspaceOptions = {}): WorkspaceFiles {
  const versions = new Map<string, string | undefined>();
  const inside = (relPath: string): string | undefined => {
    const rel = normalizeRelPath(relPath);
    return rel === undefined ? undefined : join(root, ...rel.split('/'));
  };
  const diskVersion = (relPath: string): string | undefined => {
    if (options.snapshot && versions.has(relPath)) return versions.get(relPath);
    const path = inside(relPath);
    let v: string | undefined;
    if (path !== undefined) {
      try {
        const st = statSync(path);
        v = st.isFile() && st.size <= MAX_LINT_FILE_BYTES ? `${st.mtimeMs}:${st.size}` : undefined;
      } catch {
        v = undefined;
      }
    }
    if (options.snapshot) versions.set(relPath, v);
    return v;
  };
  const listings = new Map<string, readonly string[]>();
  const dirListings = new Map<string, readonly string[]>();
  // The sorted workspace-relative names of a folder's entries that `keep` accepts (cached when snapshotting).
  const listEntries = (dir: string, cache: Map<string, readonly string[]>, keep: (e: Dirent) => boolean): readonly string[] => {
    const hit = options.snapshot ? cache.get(dir) : undefined;
    if (hit) return hit;
    const path = dir === '' ? root : inside(dir);
    let names: string[] = [];
    if (path !== undefined) {
      try {
        names = readdirSync(path, { withFileTypes: true })
          .filter(keep)
          .map((e) => (dir === '' ? e.name : `${dir}/${e.name}`))
          .sort();
      } catch {
        names = [];
      }
    }
    if (options.snapshot) cache.set(dir, names);
    return names;
  };
  return {
    listDirs: (dir) => listEntries(dir, dirListings, (e) => e.isDirectory() && !NOT_PROJECT_DIR.test(e.name)),
    listPython: (dir) => listEntries(dir, listings, (e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.py')),
    read(relPath) {
      const open = options.overlay?.get(normalizeRelPath(relPath) ?? '');
      if (open) return open.text;
      const path = inside(relPath);
      if (path === undefined) return undefined;
      try {
        return readRegularFile(path, MAX_LINT_FILE_BYTES, 'the lint limit').toString('utf8');
      } catch {
        return undefined;
      }
    },
    version(relPath) {
      const open = options.overlay?.get(normalizeRelPath(relPath) ?? '');
      if (open) return open.opening === undefined ? `open:${open.version}` : `open:${open.opening}:${open.version}`;
      return diskVersion(relPath);
    },
  };
}
