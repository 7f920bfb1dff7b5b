// Static findings judged by a recorded run (src/record/evidence.ts): a runtime finding of the same code at the
// same site confirms a static one (its message says so, with the measurement as related information); a check
// that ran on the recorded values and found the site right withdraws it (hidden) while that evidence stands.
// The evidence for a file is dropped when the file is edited or a new recording starts, and the linter's own
// findings come back as they were. Shared by the record controller (which sets it) and the lint controller
// (which shows its findings through it). No vscode import: unit-tested in plain Node.
import type { Finding } from '../../lint/types';
import type { RuntimeEvidence } from '../../record/evidence';

export interface Judgement {
  /** The run showed this bug at this site. */
  confirmedBy?: RuntimeEvidence;
  /** The run measured this site and it is right (only when nothing confirms it). */
  withdrawnBy?: RuntimeEvidence;
}

/** How the evidence of the finding's file bears on it: same code, a site line within the finding's lines. */
export function judgeFinding(f: Finding, evidence: readonly RuntimeEvidence[]): Judgement {
  let fine: RuntimeEvidence | undefined;
  for (const e of evidence) {
    if (e.code !== f.code || !e.lines.some((l) => l >= f.line && l <= f.endLine)) continue;
    if (e.kind === 'confirmed') return { confirmedBy: e };
    fine ??= e;
  }
  return fine ? { withdrawnBy: fine } : {};
}

/** The current recording's evidence by document (a URI string); listeners hear which documents changed. */
export class RuntimeEvidenceStore {
  private readonly byDocument = new Map<string, RuntimeEvidence[]>();
  private readonly listeners = new Set<(documents: string[]) => void>();

  forDocument(key: string): readonly RuntimeEvidence[] {
    return this.byDocument.get(key) ?? [];
  }

  /** Replaces all evidence with `evidence`; `keyOf` names an entry's document. */
  replace(evidence: readonly RuntimeEvidence[], keyOf: (e: RuntimeEvidence) => string): void {
    const changed = new Set(this.byDocument.keys());
    this.byDocument.clear();
    for (const e of evidence) {
      const key = keyOf(e);
      const list = this.byDocument.get(key) ?? [];
      list.push(e);
      this.byDocument.set(key, list);
      changed.add(key);
    }
    this.fire([...changed]);
  }

  /** Forgets one document's evidence (it was edited: the recording no longer describes it). */
  drop(key: string): void {
    if (this.byDocument.delete(key)) this.fire([key]);
  }

  onDidChange(listener: (documents: string[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fire(documents: string[]): void {
    if (documents.length === 0) return;
    for (const l of this.listeners) l(documents);
  }
}

/** The one store of the extension host. */
export const runtimeEvidence = new RuntimeEvidenceStore();
