// activate(): registrations only. The engine worker, the Python parser and the panel start on first use.
import * as vscode from 'vscode';
import { InspectorCommands } from './host/commands';
import { registerLinting } from './host/lint';
import { registerRecording } from './host/record';

export function activate(context: vscode.ExtensionContext): void {
  const commands = new InspectorCommands(context);
  context.subscriptions.push(commands, ...commands.register());
  registerLinting(context);
  registerRecording(context, () => commands.engineHost());
}

export function deactivate(): void {}
