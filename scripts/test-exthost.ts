// `npm run test:exthost`: the extension-host tier (test/exthost). Mocha suites run *inside* VS Code's
// extension host against the vscode API, in the convention of @vscode/test-electron: a window started with
// --extensionDevelopmentPath=<repo> --extensionTestsPath=<bundled test/exthost/suite/index.ts>.
//
// Where a desktop VS Code is available (VSCODE_EXECUTABLE, or a download from update.code.visualstudio.com
// and a display), @vscode/test-electron starts it. Otherwise (these machines, CI) the same suites run in
// code-server's extension host: the server gets --vscode-option=enable-smoke-test-driver (so its workbench
// honours the development `payload` of the URL), Chromium opens the folder with the payload naming the
// extension and the tests, and the test entry appends its results to a file this runner reads.
//
// Steps: build the extension, bundle the suites, copy examples/ into a fresh workspace, record the CLI's
// findings on it (the suites compare against them), run, print, exit 1 on any failure. One window per display
// language: the default (English) suites first, then the suites named for a locale (`*.zh-cn.exthost.ts`) in a
// window started with `--locale zh-cn`.
// Environment: EXTHOST_RUNNER=auto|code-server|electron, EXTHOST_SUITES=name,name (order kept; a locale's
// suite is named with it, `lint-l10n.zh-cn`), EXTHOST_LOCALE=zh-cn (only that language's window),
// VSCODE_EXECUTABLE=<desktop code binary>, EXTHOST_TIMEOUT_MS (whole run, default 600000), E2E_CACHE.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { ResultEvent } from '../test/exthost/suite/index';
import { suiteLocale } from '../test/exthost/suite/locale';
import { createProfile, installExtension, startCodeServer, type RunningCodeServer } from '../test/e2e/support/codeServer';
import { localePackId, registerLocalePack, writeLocalePack } from '../test/exthost/locale-pack';
import { e2eTools, repoRoot } from '../test/e2e/support/paths';

const started = Date.now();
const outDir = join(repoRoot, '.cache', 'exthost', 'out'); // inside the repository: require('mocha') resolves
const artifacts = join(repoRoot, 'test-artifacts', 'exthost');
const RUN_TIMEOUT_MS = Number(process.env.EXTHOST_TIMEOUT_MS ?? 600_000);
/** Until the test entry writes its first line: server, browser, workbench and extension host start-up. */
const START_TIMEOUT_MS = Number(process.env.EXTHOST_START_TIMEOUT_MS ?? 180_000);

const say = (message: string) => console.log(`[test-exthost] ${message}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function runOrDie(command: string, args: string[], options: { cwd?: string } = {}): string {
  const result = spawnSync(command, args, { cwd: options.cwd ?? repoRoot, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (result.error) throw new Error(`${command} could not start: ${result.error.message}`);
  // The CLI exits 1 when it found problems; 2 and above are its errors.
  if (result.status === null || result.status > 1)
    throw new Error(`\`${command} ${args.join(' ')}\` failed (${result.signal ?? `exit ${result.status}`}):\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** The suites and their entry, bundled (vscode and mocha stay external: the extension host provides vscode). */
async function bundleSuites(): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  const suiteDir = join(repoRoot, 'test', 'exthost', 'suite');
  const entries = readdirSync(suiteDir)
    .filter((f) => f === 'index.ts' || f.endsWith('.exthost.ts'))
    .map((f) => join(suiteDir, f));
  await esbuild.build({
    entryPoints: entries,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha', 'mocha/*'],
    logLevel: 'warning',
    absWorkingDir: repoRoot,
  });
}

/** A fresh copy of examples/ and the CLI's findings on it. */
function prepareWorkspace(root: string): { workspace: string; expectedFile: string } {
  const workspace = join(root, 'workspace');
  cpSync(join(repoRoot, 'examples'), workspace, { recursive: true });
  const expectedFile = join(root, 'cli-findings.json');
  writeFileSync(expectedFile, runOrDie(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'lint', '--format', 'json', '.'], { cwd: workspace }));
  return { workspace, expectedFile };
}

type Choice = { kind: 'electron'; executable?: string } | { kind: 'code-server'; why: string };

function reachable(url: string, timeoutMs: number): Promise<string | true> {
  return new Promise((resolvePromise) => {
    const req = request(url, { method: 'HEAD', timeout: timeoutMs }, (res) => {
      res.resume();
      resolvePromise(res.statusCode !== undefined && res.statusCode < 500 ? true : `HTTP ${res.statusCode}`);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (e) => resolvePromise(e.message));
    req.end();
  });
}

async function chooseRunner(): Promise<Choice> {
  const forced = process.env.EXTHOST_RUNNER ?? 'auto';
  if (!['auto', 'code-server', 'electron'].includes(forced)) throw new Error(`EXTHOST_RUNNER=${forced}: use auto, code-server or electron`);
  if (forced === 'code-server') return { kind: 'code-server', why: 'EXTHOST_RUNNER=code-server' };
  const executable = process.env.VSCODE_EXECUTABLE;
  if (executable) {
    if (!existsSync(executable)) throw new Error(`VSCODE_EXECUTABLE=${executable} does not exist`);
    return { kind: 'electron', executable };
  }
  if (forced === 'electron') return { kind: 'electron' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { kind: 'code-server', why: 'no display for a desktop VS Code (run under xvfb-run, or set VSCODE_EXECUTABLE, to use one)' };
  }
  const probe = await reachable('https://update.code.visualstudio.com/api/releases/stable', 5000);
  if (probe !== true)
    return { kind: 'code-server', why: `VS Code cannot be downloaded (update.code.visualstudio.com: ${probe}) and VSCODE_EXECUTABLE is not set` };
  return { kind: 'electron' };
}

/** Prints the results file as it grows; resolves to the events read so far each call. */
class ResultsReader {
  private offset = 0;
  readonly events: ResultEvent[] = [];
  constructor(private readonly file: string) {}

  poll(): void {
    if (!existsSync(this.file)) return;
    const text = readFileSync(this.file, 'utf8');
    const complete = text.slice(this.offset, text.lastIndexOf('\n') + 1);
    this.offset += complete.length;
    for (const line of complete.split('\n').filter((l) => l.trim())) {
      const e = JSON.parse(line) as ResultEvent;
      this.events.push(e);
      if (e.event === 'start') say(`suites: ${e.suites.join(', ')} (${e.total} tests)`);
      else if (e.event === 'suite') console.log(`${'  '.repeat(e.depth)}${e.title}`);
      else if (e.event === 'pass') console.log(`    ✔ ${e.title} (${e.durationMs} ms)`);
      else if (e.event === 'fail') console.log(`    ✖ ${e.title}\n      ${e.message.split('\n').join('\n      ')}`);
      else if (e.event === 'error') console.log(`  the test entry failed: ${e.message}`);
    }
  }

  get finished(): boolean {
    return this.events.some((e) => e.event === 'end' || e.event === 'error');
  }
}

async function runInCodeServer(root: string, workspace: string, env: Record<string, string>, reader: ResultsReader, locale?: string): Promise<void> {
  const setup = spawnSync('bash', [join(repoRoot, 'scripts', 'setup-e2e.sh')], { cwd: repoRoot, stdio: 'inherit' });
  if (setup.status !== 0) throw new Error('scripts/setup-e2e.sh failed');
  const tools = e2eTools();
  const profile = createProfile(join(root, 'profile'), { 'files.autoSave': 'off' });
  if (locale) {
    // --locale counts only with a language pack installed (else the window stays English): an empty one.
    const vsix = join(root, `locale-${locale}.vsix`);
    writeLocalePack(locale, vsix);
    await installExtension(tools, profile, vsix, localePackId(locale));
    registerLocalePack(locale, profile.userDataDir, profile.extensionsDir);
  }
  const { chromium } = await import('playwright-core');
  const { chromiumArgs } = await import('../test/e2e/session');
  let server: RunningCodeServer | undefined;
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  let failed = true;
  try {
    server = await startCodeServer(tools, profile, { env, args: ['--vscode-option=enable-smoke-test-driver', ...(locale ? ['--locale', locale] : [])] });
    const authority = new URL(server.url).host;
    const remote = (path: string) => `vscode-remote://${authority}${path}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(repoRoot)],
      ['extensionTestsPath', remote(join(outDir, 'index.js'))],
    ]);
    browser = await chromium.launch({ executablePath: tools.chromium, args: chromiumArgs });
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${server.folderUrl(workspace)}&payload=${encodeURIComponent(payload)}`);
    let serverExit: string | undefined;
    void server.exited.then((how) => (serverExit = how));
    const startDeadline = Date.now() + START_TIMEOUT_MS;
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    for (;;) {
      reader.poll();
      if (reader.finished) break;
      if (serverExit !== undefined) throw new Error(`code-server exited (${serverExit}) before the tests finished:\n${server.logTail()}`);
      if (reader.events.length === 0 && Date.now() > startDeadline) {
        throw new Error(
          `the test entry did not start within ${seconds(START_TIMEOUT_MS)}; the extension host's log ends with:\n${server.extensionHostLog().split('\n').slice(-30).join('\n')}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`the tests did not finish within ${seconds(RUN_TIMEOUT_MS)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    failed = !reader.events.some((e) => e.event === 'end' && e.failures === 0);
  } finally {
    if (failed && server) {
      mkdirSync(artifacts, { recursive: true });
      writeFileSync(join(artifacts, 'code-server.log'), server.logTail(10_000));
      writeFileSync(join(artifacts, 'exthost.log'), server.extensionHostLog());
      say(`logs kept in ${artifacts}`);
    }
    await browser?.close().catch(() => undefined);
    await server?.stop();
  }
}

async function runInElectron(
  choice: { executable?: string },
  root: string,
  workspace: string,
  env: Record<string, string>,
  reader: ResultsReader,
  locale?: string,
): Promise<void> {
  const { runTests } = await import('@vscode/test-electron');
  const userData = join(root, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify({ 'files.autoSave': 'off', 'security.workspace.trust.enabled': false, 'update.mode': 'none', 'telemetry.telemetryLevel': 'off' }),
  );
  const timer = setInterval(() => reader.poll(), 200);
  try {
    await runTests({
      ...(choice.executable ? { vscodeExecutablePath: choice.executable } : {}),
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: join(outDir, 'index.js'),
      extensionTestsEnv: env,
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--user-data-dir=${userData}`,
        `--extensions-dir=${join(root, 'extensions')}`,
        ...(locale ? [`--locale=${locale}`] : []),
      ],
    }).catch((error: unknown) => {
      reader.poll();
      if (!reader.finished) throw error; // failures are reported from the results below
    });
  } finally {
    clearInterval(timer);
    reader.poll();
  }
}

/** One window per display language: which locale (none: the default) and which suites (none: all of that language). */
interface Pass {
  locale?: string;
  suites?: string;
}

function passes(): Pass[] {
  const wanted = process.env.EXTHOST_SUITES?.split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const names =
    wanted ??
    readdirSync(join(repoRoot, 'test', 'exthost', 'suite'))
      .filter((f) => f.endsWith('.exthost.ts'))
      .map((f) => f.slice(0, -'.exthost.ts'.length));
  const locales = [...new Set(names.map((n) => suiteLocale(`${n}.exthost`)))];
  const only = process.env.EXTHOST_LOCALE;
  return locales
    .filter((l) => only === undefined || l === only)
    .map((locale) => ({
      ...(locale ? { locale } : {}),
      ...(wanted ? { suites: wanted.filter((n) => suiteLocale(`${n}.exthost`) === locale).join(',') } : {}),
    }));
}

/** Runs one window; its passes and failures. */
async function runPass(pass: Pass, choice: Choice): Promise<{ passes: number; failures: number } | undefined> {
  const root = mkdtempSync(join(tmpdir(), 'attention-inspector-exthost-'));
  try {
    const { workspace, expectedFile } = prepareWorkspace(root);
    const resultsFile = join(root, 'results.jsonl');
    const env: Record<string, string> = { EXTHOST_RESULTS_FILE: resultsFile, EXTHOST_EXPECTED_FILE: expectedFile };
    if (pass.suites) env.EXTHOST_SUITES = pass.suites;
    if (pass.locale) env.EXTHOST_LOCALE = pass.locale;
    const reader = new ResultsReader(resultsFile);
    const runStarted = Date.now();
    const language = pass.locale ? `, --locale ${pass.locale}` : '';
    if (choice.kind === 'electron') {
      say(`desktop VS Code via @vscode/test-electron${choice.executable ? ` (${choice.executable})` : ''}${language}`);
      await runInElectron(choice, root, workspace, env, reader, pass.locale);
    } else {
      say(`code-server's extension host (${choice.why})${language}`);
      await runInCodeServer(root, workspace, env, reader, pass.locale);
    }
    const end = reader.events.find((e): e is Extract<ResultEvent, { event: 'end' }> => e.event === 'end');
    const failures = reader.events.filter((e): e is Extract<ResultEvent, { event: 'fail' }> => e.event === 'fail');
    for (const [i, f] of failures.entries()) console.log(`\n  ${i + 1}) ${f.fullTitle}\n${f.stack}`);
    if (!end) {
      say('the test entry failed before the tests ran');
      return undefined;
    }
    say(`${end.passes} passing, ${end.failures} failing; tests ${seconds(end.durationMs)}, window ${seconds(Date.now() - runStarted)}`);
    return { passes: end.passes, failures: end.failures };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  say('building the extension and bundling the suites');
  runOrDie(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')]);
  await bundleSuites();
  const choice = await chooseRunner();
  let passing = 0;
  let failing = 0;
  for (const pass of passes()) {
    const result = await runPass(pass, choice);
    if (!result) return 1;
    passing += result.passes;
    failing += result.failures;
  }
  say(`${passing} passing, ${failing} failing in all; total ${seconds(Date.now() - started)}`);
  return failing === 0 && passing > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[test-exthost] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
