// activate(): registrations only. Workers, parsers and panels start on first use.
import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Registrations are added by src/host as features land.
}

export function deactivate(): void {}
