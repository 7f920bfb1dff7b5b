import * as vscode from 'vscode';
import { RecordingController } from './controller';

/** Registers the Record Attention commands, view, CodeLens and runtime diagnostics. */
export function registerRecording(context: vscode.ExtensionContext): void {
  const controller = new RecordingController(context);
  context.subscriptions.push(controller, ...controller.register());
}
