import * as vscode from 'vscode';
import type { EngineHost } from '../engine-host';
import { RecordingController } from './controller';

/** Registers the Record Attention commands, view, CodeLens and runtime diagnostics. */
export function registerRecording(context: vscode.ExtensionContext, engine: () => EngineHost): void {
  const controller = new RecordingController(context, engine);
  context.subscriptions.push(controller, ...controller.register());
}
