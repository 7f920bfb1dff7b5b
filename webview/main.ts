// The inspector panel's webview entry point (bundled to dist/webview.js). It tells the host it is ready and
// hands every message from the host to the app. The app is built when the host's first message brings the
// UI strings (and built again if a later message brings different ones), so that every label is in the
// user's language; its view state lives in the webview API's state, so a rebuild loses nothing.
import type { ToWebviewMessage } from '../src/protocol/webview';
import { vscodeApi } from './api';
import { App } from './app';
import { setStrings } from './l10n';

// Anything the Content-Security-Policy blocks is a bug in the panel: say so in the console, and keep a list
// the e2e tests read.
const cspViolations: string[] = [];
(globalThis as { attentionInspectorCspViolations?: string[] }).attentionInspectorCspViolations = cspViolations;
document.addEventListener('securitypolicyviolation', (e) => {
  cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
  console.warn(`[attention-inspector panel] blocked by the Content-Security-Policy: ${e.violatedDirective} ${e.blockedURI}`);
});

const api = vscodeApi();
const mount = document.getElementById('app') ?? document.body;
let app: App | undefined;
let strings = '';

function appFor(table: Record<string, string> | undefined): App {
  const key = JSON.stringify(table ?? {});
  if (!app || key !== strings) {
    strings = key;
    setStrings(table);
    app?.dispose();
    app = new App(api, mount);
    // For the benchmark and the e2e tests: the app, reachable from the page (the page runs no other script).
    (globalThis as { attentionInspector?: App }).attentionInspector = app;
  }
  return app;
}

window.addEventListener('message', (event: MessageEvent) => {
  const msg = event.data as ToWebviewMessage | undefined;
  if (!msg || typeof msg !== 'object' || typeof (msg as { type?: unknown }).type !== 'string') return;
  try {
    if (msg.type === 'run' || msg.type === 'empty') appFor(msg.l10n).onMessage(msg);
    else app?.onMessage(msg);
  } catch (e) {
    console.error('[attention-inspector panel]', e);
  }
});

api.postMessage({ type: 'ready' });
