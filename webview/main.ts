// The inspector panel's webview entry point (bundled to dist/webview.js). It builds the app, tells the
// host it is ready, and hands every message from the host to the app.
import type { ToWebviewMessage } from '../src/protocol/webview';
import { vscodeApi } from './api';
import { App } from './app';

const api = vscodeApi();
const mount = document.getElementById('app') ?? document.body;
const app = new App(api, mount);

window.addEventListener('message', (event: MessageEvent) => {
  const msg = event.data as ToWebviewMessage | undefined;
  if (!msg || typeof msg !== 'object' || typeof (msg as { type?: unknown }).type !== 'string') return;
  try {
    app.onMessage(msg);
  } catch (e) {
    console.error('[attention-inspector panel]', e);
  }
});

api.postMessage({ type: 'ready' });

// For the benchmark and the e2e tests: the app, reachable from the page (nothing here is a secret, and the
// page runs no other script).
(globalThis as { attentionInspector?: App }).attentionInspector = app;
