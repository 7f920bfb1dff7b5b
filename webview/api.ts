// The webview's handle on VS Code: posting messages and keeping state. acquireVsCodeApi may be called
// once per page (the benchmark page defines its own fake with the same shape).
import type { FromWebviewMessage } from '../src/protocol/webview';

export interface VsCodeApi {
  postMessage(message: FromWebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export function vscodeApi(): VsCodeApi {
  return acquireVsCodeApi();
}
