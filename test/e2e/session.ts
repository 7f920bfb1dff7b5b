// Starts a real VS Code (code-server + Chromium) with the packaged extension installed, for e2e tests.
//   describe('my feature', function () {
//     const session = useWorkbench({ folder: 'examples' });
//     it('does it', async function () { await session.workbench.openFile('hello.md'); ... });
//   });
// One session (server, browser, fresh profile) per describe(); the .vsix is built once per mocha run.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { chromium } from 'playwright-core';
import { CodeServerWorkbench } from './driver/codeServerWorkbench';
import type { Workbench } from './driver/workbench';
import { localePackId, registerLocalePack, writeLocalePack } from '../exthost/locale-pack';
import { createProfile, installExtension, startCodeServer, type StartOptions } from './support/codeServer';
import { packageExtension } from './support/packageExtension';
import { artifactsDir, e2eTools, extensionId, repoRoot } from './support/paths';

export type { Workbench } from './driver/workbench';

export interface WorkbenchOptions {
  /** The folder to open: absolute, or relative to the repository root. Default: `examples`. */
  folder?: string;
  /**
   * Files (relative path → content) for a fresh temporary folder, which is opened instead of `folder`;
   * when `folder` is also given, its files are copied in first.
   */
  files?: Record<string, string | Uint8Array>;
  /** User settings on top of the quiet defaults (e.g. `{ 'attentionInspector.heads': 2 }`). */
  settings?: Record<string, unknown>;
  /** Environment variables for code-server; they reach the extension host (a test-mode side channel). */
  env?: Record<string, string>;
  /**
   * VS Code's display language (e.g. `zh-cn`): code-server starts with `--locale <id>` and an empty language
   * pack for it (`test/exthost/locale-pack.ts`, as the extension-host tier does), so VS Code's own strings stay
   * English while the extension (its package.nls.<id>.json and l10n/bundle.l10n.<id>.json) runs in that language.
   */
  locale?: string;
}

/** Chromium flags proven on these machines (see shared/recipes/vscode-e2e.md). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const temporaryRoots: string[] = [];
process.on('exit', () => {
  for (const root of temporaryRoots) rmSync(root, { recursive: true, force: true });
});

function temporaryRoot(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  temporaryRoots.push(root);
  return root;
}

let packaged: Promise<string> | undefined;
/** The extension packaged once per process (`npm run build` + `vsce package`). */
export function packagedVsix(): Promise<string> {
  packaged ??= packageExtension(temporaryRoot('attention-inspector-vsix-'));
  return packaged;
}

function prepareFolder(options: WorkbenchOptions, root: string): string {
  const folder = options.folder === undefined ? join(repoRoot, 'examples') : isAbsolute(options.folder) ? options.folder : join(repoRoot, options.folder);
  if (options.files === undefined) return folder;
  const workspace = join(root, 'workspace');
  mkdirSync(workspace, { recursive: true });
  if (options.folder !== undefined) cpSync(folder, workspace, { recursive: true });
  for (const [path, content] of Object.entries(options.files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  return workspace;
}

/** Starts code-server and Chromium with the extension installed in a fresh profile, and opens the folder. */
export async function launchWorkbench(options: WorkbenchOptions = {}): Promise<CodeServerWorkbench> {
  const tools = e2eTools();
  const vsix = await packagedVsix();
  const root = temporaryRoot('attention-inspector-e2e-');
  const folder = prepareFolder(options, root);
  const profile = createProfile(join(root, 'profile'), options.settings);
  await installExtension(tools, profile, vsix, extensionId());
  const start: StartOptions = options.env ? { env: options.env } : {};
  if (options.locale !== undefined) {
    // --locale counts only with a language pack installed (else the window stays English).
    const pack = join(root, `locale-${options.locale}.vsix`);
    writeLocalePack(options.locale, pack);
    await installExtension(tools, profile, pack, localePackId(options.locale));
    registerLocalePack(options.locale, profile.userDataDir, profile.extensionsDir);
    start.args = ['--locale', options.locale];
  }
  const server = await startCodeServer(tools, profile, start);
  let browser;
  try {
    browser = await chromium.launch({ executablePath: tools.chromium, args: chromiumArgs });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const workbench = new CodeServerWorkbench({
      browser,
      page,
      server,
      folder,
      extensionId: extensionId(),
      cleanup: () => rmSync(root, { recursive: true, force: true }),
    });
    try {
      await workbench.load();
    } catch (error) {
      await workbench.close();
      throw error;
    }
    return workbench;
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await server.stop();
    throw error;
  }
}

/** Copies code-server's and the extension host's logs into test-artifacts/e2e/<name>/; returns the folder. */
export function saveLogs(workbench: CodeServerWorkbench, name: string): string {
  const target = join(artifactsDir, name.replace(/[^A-Za-z0-9._-]+/g, '-'));
  mkdirSync(target, { recursive: true });
  const { logFile, userDataDir } = workbench.profile;
  cpSync(logFile, join(target, 'code-server.log'));
  try {
    for (const entry of readdirSync(join(userDataDir, 'logs'))) cpSync(join(userDataDir, 'logs', entry), join(target, entry), { recursive: true });
  } catch {
    // no logs folder yet
  }
  return target;
}

/**
 * How long starting a session may take (packaging, install, server, browser, folder). The first session of a
 * run also builds and packages the extension, which takes minutes when the shared 2 cores are loaded (240 s
 * was tight for the record suite, whose file alone packages first); a hung start still fails, in 10 minutes.
 */
const LAUNCH_TIMEOUT_MS = 600_000;

/**
 * Mocha hooks for one workbench per describe(): started in before(), closed in after() even when tests
 * fail; a failing test gets a screenshot (its path is added to the error) and the logs are kept.
 */
export function useWorkbench(options: WorkbenchOptions = {}): { readonly workbench: Workbench } {
  let current: CodeServerWorkbench | undefined;
  let failed = false;
  before(async function () {
    this.timeout(LAUNCH_TIMEOUT_MS);
    current = await launchWorkbench(options);
  });
  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state !== 'failed' || current === undefined) return;
    failed = true;
    const shot = await current.screenshot(`failed-${test.fullTitle()}`).catch((error: Error) => `(none: ${error.message})`);
    if (test.err) test.err.message += `\n  screenshot at failure: ${shot}`;
  });
  after(async function () {
    this.timeout(60_000);
    if (current === undefined) return;
    if (failed) console.log(`  e2e logs kept in ${saveLogs(current, `logs-${this.test?.parent?.fullTitle() ?? 'session'}`)}`);
    await current.close();
    current = undefined;
  });
  return {
    get workbench(): Workbench {
      if (current === undefined) throw new Error('the workbench is not running (its before() hook failed or has not run)');
      return current;
    },
  };
}
