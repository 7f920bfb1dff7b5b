// Which open documents depend on which workspace files (what the lint worker reported their imports read),
// so that a change to a file re-lints the documents that import it. Pure bookkeeping, no vscode.

export class DependentIndex {
  /** Document key → its workspace root and the workspace-relative files its last lint read. */
  private readonly byDocument = new Map<string, { root: string; files: ReadonlySet<string> }>();

  record(document: string, root: string, files: readonly string[]): void {
    if (files.length === 0) this.byDocument.delete(document);
    else this.byDocument.set(document, { root, files: new Set(files) });
  }

  forget(document: string): void {
    this.byDocument.delete(document);
  }

  /** Documents whose last lint read `path` of workspace `root`. */
  dependentsOf(root: string, path: string): string[] {
    const out: string[] = [];
    for (const [doc, d] of this.byDocument) if (d.root === root && d.files.has(path)) out.push(doc);
    return out;
  }
}
