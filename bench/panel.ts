// Panel benchmark: `npx tsx bench/panel.ts [--tokens 512] [--heads 12] [--shots DIR] [--lang zh-cn]` (build first:
// `npm run build` writes dist/webview.js).
//
// Loads the real webview bundle (dist/webview.js + media/) in headless Chromium (playwright-core and
// /usr/bin/chromium with the recipe's flags) on a static page whose acquireVsCodeApi is a fake host. The
// fake host answers with the real engine: an InspectSession with seeded weights (1 layer × H heads,
// d_model 64·H) on a T-token text, so the page gets a genuine RunResult and genuine traces.
//
// Prints: time to first paint (page load → heads grid drawn), the grid's redraw time, opening one T×T head,
// redrawing every head's T×T heatmap in turn, a hover repaint, and a debugger switch flip (worker time
// included: here the engine runs in this process). With --shots DIR it also saves screenshots of the grid,
// an opened head, the lines view and the debugger in dark, light and high-contrast themes (for looking at).
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { initKernels } from '../src/engine/kernels';
import { InspectSession } from '../src/models/session';
import type { RunResult } from '../src/protocol/engine';
import { parseFromWebview, type ToWebviewMessage } from '../src/protocol/webview';

const root = resolve(__dirname, '..');
const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const T = Number(arg('tokens', '512'));
const H = Number(arg('heads', '12'));
const shots = process.argv.includes('--shots') ? resolve(arg('shots', 'test-artifacts/bench-panel')) : undefined;
/** UI language of the page: 'en', or a bundle under l10n/ (e.g. zh-cn), as the host would send it. */
const lang = arg('lang', 'en');
const strings: Record<string, string> = lang === 'en' ? {} : JSON.parse(readFileSync(join(root, 'l10n', `bundle.l10n.${lang}.json`), 'utf8'));
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** A few of VS Code's theme variables, enough for the panel to look as it does in each theme. */
const THEMES: Record<string, { body: string; vars: Record<string, string> }> = {
  dark: {
    body: 'vscode-dark',
    vars: {
      '--vscode-editor-background': '#1e1e1e',
      '--vscode-foreground': '#cccccc',
      '--vscode-editor-foreground': '#d4d4d4',
      '--vscode-descriptionForeground': '#9d9d9d',
      '--vscode-focusBorder': '#007fd4',
      '--vscode-errorForeground': '#f48771',
      '--vscode-editor-selectionBackground': '#264f78',
      '--vscode-button-background': '#0e639c',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-secondaryBackground': '#3a3d41',
      '--vscode-button-secondaryForeground': '#ffffff',
      '--vscode-dropdown-background': '#3c3c3c',
      '--vscode-dropdown-foreground': '#f0f0f0',
      '--vscode-input-background': '#3c3c3c',
      '--vscode-input-foreground': '#cccccc',
      '--vscode-editorError-foreground': '#f14c4c',
      '--vscode-editorWarning-foreground': '#cca700',
      '--vscode-editorInfo-foreground': '#3794ff',
      '--vscode-editorHoverWidget-background': '#252526',
      '--vscode-editorHoverWidget-border': '#454545',
      '--vscode-widget-border': '#454545',
      '--vscode-panelTitle-activeBorder': '#e7e7e7',
      '--vscode-panelTitle-activeForeground': '#e7e7e7',
      '--vscode-panelTitle-inactiveForeground': '#9d9d9d',
      '--vscode-font-family': 'system-ui, "WenQuanYi Zen Hei", sans-serif',
      '--vscode-font-size': '13px',
      '--vscode-editor-font-family': 'monospace',
      '--vscode-progressBar-background': '#0e70c0',
    },
  },
  light: {
    body: 'vscode-light',
    vars: {
      '--vscode-editor-background': '#ffffff',
      '--vscode-foreground': '#616161',
      '--vscode-editor-foreground': '#000000',
      '--vscode-descriptionForeground': '#717171',
      '--vscode-focusBorder': '#0090f1',
      '--vscode-errorForeground': '#a1260d',
      '--vscode-editor-selectionBackground': '#add6ff',
      '--vscode-button-background': '#007acc',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-secondaryBackground': '#e5e5e5',
      '--vscode-button-secondaryForeground': '#000000',
      '--vscode-dropdown-background': '#ffffff',
      '--vscode-dropdown-foreground': '#616161',
      '--vscode-dropdown-border': '#cecece',
      '--vscode-input-background': '#ffffff',
      '--vscode-input-foreground': '#616161',
      '--vscode-input-border': '#cecece',
      '--vscode-editorError-foreground': '#e51400',
      '--vscode-editorWarning-foreground': '#bf8803',
      '--vscode-editorInfo-foreground': '#1a85ff',
      '--vscode-editorHoverWidget-background': '#f3f3f3',
      '--vscode-editorHoverWidget-border': '#c8c8c8',
      '--vscode-widget-border': '#d4d4d4',
      '--vscode-panelTitle-activeBorder': '#424242',
      '--vscode-panelTitle-activeForeground': '#424242',
      '--vscode-panelTitle-inactiveForeground': '#616161',
      '--vscode-font-family': 'system-ui, "WenQuanYi Zen Hei", sans-serif',
      '--vscode-font-size': '13px',
      '--vscode-editor-font-family': 'monospace',
      '--vscode-progressBar-background': '#0e70c0',
    },
  },
  'high-contrast': {
    body: 'vscode-high-contrast',
    vars: {
      '--vscode-editor-background': '#000000',
      '--vscode-foreground': '#ffffff',
      '--vscode-editor-foreground': '#ffffff',
      '--vscode-descriptionForeground': '#ffffff',
      '--vscode-focusBorder': '#f38518',
      '--vscode-errorForeground': '#f48771',
      '--vscode-contrastActiveBorder': '#f38518',
      '--vscode-contrastBorder': '#6fc3df',
      '--vscode-editor-selectionBackground': '#ffffff',
      '--vscode-button-background': '#000000',
      '--vscode-button-foreground': '#ffffff',
      '--vscode-button-border': '#6fc3df',
      '--vscode-button-secondaryBackground': '#000000',
      '--vscode-button-secondaryForeground': '#ffffff',
      '--vscode-dropdown-background': '#000000',
      '--vscode-dropdown-foreground': '#ffffff',
      '--vscode-dropdown-border': '#6fc3df',
      '--vscode-input-background': '#000000',
      '--vscode-input-foreground': '#ffffff',
      '--vscode-input-border': '#6fc3df',
      '--vscode-editorError-foreground': '#f48771',
      '--vscode-editorWarning-foreground': '#ffd700',
      '--vscode-editorInfo-foreground': '#3794ff',
      '--vscode-editorHoverWidget-background': '#0c141f',
      '--vscode-editorHoverWidget-border': '#6fc3df',
      '--vscode-widget-border': '#6fc3df',
      '--vscode-panelTitle-activeBorder': '#6fc3df',
      '--vscode-panelTitle-activeForeground': '#ffffff',
      '--vscode-panelTitle-inactiveForeground': '#ffffff',
      '--vscode-font-family': 'system-ui, "WenQuanYi Zen Hei", sans-serif',
      '--vscode-font-size': '13px',
      '--vscode-editor-font-family': 'monospace',
      '--vscode-progressBar-background': '#0e70c0',
    },
  },
};

function pageHtml(theme: string): string {
  const th = THEMES[theme];
  const vars = Object.entries(th.vars)
    .map(([k, v]) => `${k}: ${v};`)
    .join(' ');
  // The fake VS Code API: messages to the host go to the exposed __toHost function; state is kept in memory.
  return `<!DOCTYPE html><html><head><meta charset="UTF-8">
<link rel="stylesheet" href="/media/codicons/codicon.css"><link rel="stylesheet" href="/media/panel.css">
<style>body { ${vars} }</style>
<script>
  let state;
  window.acquireVsCodeApi = () => ({ postMessage: (m) => { if (m.type === 'ready') window.__marks.ready = performance.now(); window.__toHost(m); }, getState: () => state, setState: (s) => { state = s; } });
  window.__marks = { start: performance.now(), messages: {} };
  // Capturing listener, registered before the bundle's: when each kind of host message arrived.
  window.addEventListener('message', (e) => { window.__marks.messages[e.data && e.data.type] = performance.now(); }, true);
</script></head>
<body class="${th.body}"><div id="app"></div><script src="/dist/webview.js"></script></body></html>`;
}

function serve(): Promise<{ url: string; close: () => void }> {
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.ttf': 'font/ttf',
    '.svg': 'image/svg+xml',
    '.map': 'application/json',
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pageHtml(url.searchParams.get('theme') ?? 'dark'));
      return;
    }
    const path = normalize(join(root, url.pathname));
    if (!(path.startsWith(join(root, 'dist')) || path.startsWith(join(root, 'media')))) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = readFileSync(path);
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () => r({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() })),
  );
}

const WORDS = 'the cat sat on the mat because it was tired and the dog watched from the door while rain fell on the quiet street'.split(' ');
function textOf(tokens: number): string {
  return Array.from({ length: tokens }, (_, i) => WORDS[i % WORDS.length]).join(' ');
}

/** Engine time of each request the fake host answered (ms). */
const hostTimes: number[] = [];

/** The fake host: answers the page's messages with the engine, as the extension would. */
async function attachHost(page: Page, session: InspectSession, run: RunResult): Promise<void> {
  const deliver = (m: ToWebviewMessage) => page.evaluate((msg) => window.postMessage(msg, '*'), m as unknown as Record<string, unknown>);
  await page.exposeFunction('__toHost', async (raw: unknown) => {
    const msg = parseFromWebview(raw);
    if (msg instanceof Error) throw msg;
    if (msg.type === 'ready') await deliver({ type: 'run', run, mode: 'grid', l10n: strings });
    if (msg.type === 'request') {
      try {
        const r = msg.request;
        const t = performance.now();
        const result =
          r.kind === 'attention'
            ? session.attention({ runId: run.runId, layer: r.layer, head: r.head })
            : session.trace({ runId: run.runId, layer: r.layer, head: r.head, options: r.options });
        hostTimes.push(performance.now() - t);
        await deliver({ type: 'reply', inReplyTo: msg.messageId, ok: true, result });
      } catch (e) {
        await deliver({ type: 'reply', inReplyTo: msg.messageId, ok: false, error: (e as Error).message });
      }
    }
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  await initKernels('auto');
  const session = new InspectSession();
  await session.configure({ kind: 'seeded', seed: 0, heads: H, dModel: 64 * H });
  const t0 = performance.now();
  const run = await session.run({ text: textOf(T), maxTokens: T, thumbnailSize: 48 });
  const forwardMs = performance.now() - t0;
  const server = await serve();
  const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await attachHost(page, session, run);
    const started = Date.now();
    await page.goto(`${server.url}?theme=dark`);
    await page.waitForFunction(() => document.querySelectorAll('canvas.thumb-canvas').length > 0);
    const paint = await page.evaluate(
      () =>
        new Promise<{ boot: number; draw: number; total: number }>((r) =>
          requestAnimationFrame(() => {
            const m = (window as unknown as { __marks: { start: number; ready: number; messages: Record<string, number> } }).__marks;
            const now = performance.now();
            r({ boot: m.ready - m.start, draw: now - m.messages.run, total: now - m.start });
          }),
        ),
    );
    const wall = Date.now() - started;
    console.log(
      `panel benchmark: ${run.nLayer} layer × ${run.nHead} heads, T = ${run.seqLen} tokens (weights ${(run.attentions?.byteLength ?? 0) / 1e6} MB sent with the run), engine forward ${forwardMs.toFixed(0)} ms`,
    );
    console.log(`  first paint: page start → webview ready ${paint.boot.toFixed(0)} ms; run message received → heads grid drawn ${paint.draw.toFixed(0)} ms`);
    console.log(`    (page start → grid drawn ${paint.total.toFixed(0)} ms, ${wall} ms wall, both including this harness's Playwright transport of the run)`);

    const grid = await page.evaluate(() => {
      const app = (window as unknown as { attentionInspector: { grid: { draw(): void; lastRenderMs: number } } }).attentionInspector;
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        app.grid.draw();
        times.push(app.grid.lastRenderMs);
      }
      return times;
    });
    console.log(`  heads grid redraw (${run.nLayer * run.nHead} thumbnails): median ${median(grid).toFixed(2)} ms`);

    // Open each head large in turn: a full T×T heatmap render per head.
    const open = await page.evaluate(async (nHead) => {
      type AppLike = { openHead(l: number, h: number): void; heatmap: { lastRenderMs: number } };
      const app = (window as unknown as { attentionInspector: AppLike }).attentionInspector;
      const out: { wall: number; render: number }[] = [];
      for (let h = 0; h < nHead; h++) {
        const t = performance.now();
        app.openHead(0, h);
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        out.push({ wall: performance.now() - t, render: app.heatmap.lastRenderMs });
      }
      return out;
    }, run.nHead);
    console.log(
      `  open a ${T}×${T} head (click → next frame): first ${open[0].wall.toFixed(1)} ms, median ${median(open.map((o) => o.wall)).toFixed(1)} ms; heatmap render median ${median(open.map((o) => o.render)).toFixed(1)} ms`,
    );
    console.log(`  all ${run.nHead} heads' ${T}×${T} heatmaps drawn one after another: ${open.reduce((a, o) => a + o.wall, 0).toFixed(0)} ms in total`);

    const hover = await page.evaluate(async () => {
      const canvas = document.querySelector('.detail canvas.heatmap-canvas') as HTMLCanvasElement;
      const box = canvas.getBoundingClientRect();
      const times: number[] = [];
      for (let i = 0; i < 60; i++) {
        const t = performance.now();
        canvas.dispatchEvent(
          new PointerEvent('pointermove', {
            clientX: box.left + box.width * (0.3 + (i % 20) / 50),
            clientY: box.top + box.height * (0.3 + (i % 17) / 50),
            bubbles: true,
          }),
        );
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return { median: times[30], p95: times[57] };
    });
    console.log(
      `  hover repaint on the ${T}×${T} heatmap (row/column highlight + tooltip): median ${hover.median.toFixed(2)} ms, p95 ${hover.p95.toFixed(2)} ms`,
    );

    // The debugger: a switch flip goes to the (here in-process) engine and back, then redraws.
    await page.evaluate(() => (window as unknown as { attentionInspector: { setMode(m: string): void } }).attentionInspector.setMode('debugger'));
    await page.waitForSelector('.warnings .warning');
    const flips: number[] = [];
    const draws: number[] = [];
    hostTimes.length = 0;
    for (const dim of ['-2', '-1', '-2', '-1']) {
      const t = Date.now();
      await page.selectOption('#sw-dim', dim);
      await page.waitForFunction((d) => {
        const app = (window as unknown as { attentionInspector: { debugger: { currentTrace?: { softmaxDim: number } } } }).attentionInspector;
        return app.debugger.currentTrace?.softmaxDim === Number(d);
      }, dim);
      draws.push(
        await page.evaluate(
          () =>
            new Promise<number>((r) =>
              requestAnimationFrame(() =>
                r(performance.now() - (window as unknown as { __marks: { messages: Record<string, number> } }).__marks.messages.reply),
              ),
            ),
        ),
      );
      flips.push(Date.now() - t);
    }
    console.log(
      `  debugger: flip softmax dim on a ${T}×${T} head: engine trace median ${median(hostTimes).toFixed(0)} ms; reply received → stats, warnings and heatmap drawn median ${median(draws).toFixed(0)} ms; whole round trip median ${median(flips)} ms (incl. Playwright transport)`,
    );

    const parts = await page.evaluate(() => {
      type D = { currentTrace: unknown; setTrace(t: unknown): void; heatmap: { lastRenderMs: number } };
      const d = (window as unknown as { attentionInspector: { debugger: D } }).attentionInspector.debugger;
      const t0 = performance.now();
      d.setTrace(d.currentTrace);
      return { setTrace: performance.now() - t0, heatmap: d.heatmap.lastRenderMs };
    });
    console.log(`    of which: warnings + statistics table + heatmap ${parts.setTrace.toFixed(0)} ms (heatmap alone ${parts.heatmap.toFixed(0)} ms)`);

    if (shots) await screenshots(browser, server.url, session, run);
  } finally {
    await browser.close();
    server.close();
  }
}

async function screenshots(browser: import('playwright-core').Browser, url: string, session: InspectSession, run: RunResult): Promise<void> {
  mkdirSync(shots!, { recursive: true });
  for (const theme of Object.keys(THEMES)) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await attachHost(page, session, run);
    await page.goto(`${url}?theme=${theme}`);
    await page.waitForSelector('canvas.thumb-canvas');
    await page.screenshot({ path: join(shots!, `${theme}-${lang}-grid.png`) });
    await page.click('button.thumb[data-layer="0"][data-head="1"]');
    await page.waitForSelector('.detail canvas.heatmap-canvas');
    const box = (await page.locator('.detail canvas.heatmap-canvas').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.4);
    await page.screenshot({ path: join(shots!, `${theme}-${lang}-head.png`) });
    await page.click('button.sub-tab[data-view="lines"]');
    await page.waitForSelector('.lines-canvas');
    await page.screenshot({ path: join(shots!, `${theme}-${lang}-lines.png`) });
    await page.click('#mode-debugger');
    await page.waitForSelector('.warnings .warning');
    await page.selectOption('#sw-dim', '-2');
    await page.waitForSelector('[data-warning="rows-not-normalized"]');
    await page.click('#step-tab-3');
    await page.screenshot({ path: join(shots!, `${theme}-${lang}-debugger.png`), fullPage: true });
    await page.close();
  }
  console.log(`  screenshots in ${shots}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
