// CodeLens "Record attention" above `if __name__ == "__main__":` (runs the file) and above pytest test
// functions (runs that test). Shown only in trusted workspaces: recording executes the user's code.
import * as vscode from 'vscode';
import { findTargets } from '../../record/targets';

export class RecordCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly callsAt: (uri: vscode.Uri) => Map<number, number[]>) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const lenses: vscode.CodeLens[] = [];
    if (vscode.workspace.isTrusted) {
      const { mains, tests } = findTargets(document.getText());
      for (const line of mains) {
        lenses.push(
          new vscode.CodeLens(document.lineAt(line).range, {
            title: vscode.l10n.t('Record attention'),
            command: 'attentionInspector.recordFile',
            arguments: [document.uri],
          }),
        );
      }
      for (const t of tests) {
        lenses.push(
          new vscode.CodeLens(document.lineAt(t.line).range, {
            title: vscode.l10n.t('Record attention'),
            command: 'attentionInspector.recordTest',
            arguments: [document.uri, t.name],
          }),
        );
      }
    }
    // "N recorded calls" above lines the last recording captured calls from.
    for (const [line, ids] of this.callsAt(document.uri)) {
      if (line < 1 || line > document.lineCount) continue;
      lenses.push(
        new vscode.CodeLens(document.lineAt(line - 1).range, {
          title: ids.length === 1 ? vscode.l10n.t('1 recorded call') : vscode.l10n.t('{0} recorded calls', ids.length),
          command: 'attentionInspector.openRecordedCall',
          arguments: [ids[0]],
        }),
      );
    }
    return lenses;
  }
}
