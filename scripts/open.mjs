// `npm start`: opens VS Code on a fresh copy of examples/ with the extension loaded. The copy lives in a
// scratch folder (printed), so trying a quick fix never edits the tutorial files in the repository.
// - With a desktop VS Code (`code` on PATH): `code --extensionDevelopmentPath=<repo> <copy of examples>`.
// - Without one: installs code-server (scripts/setup-e2e.sh, once), installs the freshly packaged .vsix into
//   a profile under .cache/e2e/launcher/, serves VS Code on http://127.0.0.1:8080 (or the next free port)
//   and prints the URL to open; Ctrl+C stops it (the server's whole process group). While code-server is
//   installed (minutes on a fresh machine) it says what is happening every few seconds.
// Set ATTENTION_INSPECTOR_CODE_SERVER=1 to use code-server even where `code` exists.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (message) => console.log(`[open] ${message}`);

/** A fresh copy of examples/ in a scratch folder: quick fixes and edits there leave the tracked files alone. */
function scratchExamples() {
  const dir = join(mkdtempSync(join(tmpdir(), 'attention-inspector-')), 'examples');
  cpSync(join(root, 'examples'), dir, { recursive: true });
  return dir;
}

/**
 * Runs scripts/setup-e2e.sh and, while it installs code-server (which logs to a file for minutes), prints
 * every few seconds how long it has been running, how many native modules are built and the log's last line.
 */
function setupWithProgress() {
  const cache = process.env.E2E_CACHE ?? join(root, '.cache', 'e2e');
  const log = join(cache, 'code-server-install.log');
  const started = Date.now();
  const child = spawn('bash', [join(root, 'scripts', 'setup-e2e.sh')], { stdio: 'inherit' });
  const timer = setInterval(() => {
    if (!existsSync(log) || statSync(log).mtimeMs < started) return; // an earlier install's log
    const text = readFileSync(log, 'utf8');
    if (text.length === 0) return;
    const built = (text.match(/gyp info ok/g) ?? []).length;
    const last = text.trim().split('\n').pop()?.replace(/\s+/g, ' ').slice(0, 100) ?? '';
    const secs = Math.round((Date.now() - started) / 1000);
    say(
      `installing code-server: ${Math.floor(secs / 60)}m${String(secs % 60).padStart(2, '0')}s, ${built} native module${built === 1 ? '' : 's'} compiled so far (about 8 in all); log: ${last}`,
    );
  }, 10_000);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve(code ?? 1);
    });
  });
}

/** The shared e2e helpers are TypeScript; tsx loads them. */
const load = (path) => tsImport(join(root, path), import.meta.url);

function onPath(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return join(dir, command);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

const { packageExtension } = await load('test/e2e/support/packageExtension.ts');
const launcherDir = join(root, '.cache', 'e2e', 'launcher');
say('building and packaging the extension');
const vsix = await packageExtension(launcherDir);
say(`packaged ${vsix.slice(root.length + 1)}`);

const code = process.env.ATTENTION_INSPECTOR_CODE_SERVER ? undefined : onPath('code');
const examples = scratchExamples();
say(`a fresh copy of examples/ is in ${examples} (edits there leave the repository's files alone)`);
if (code !== undefined) {
  say(`opening VS Code (${code}) on it with the extension loaded from ${root}`);
  const result = spawnSync(code, [`--extensionDevelopmentPath=${root}`, examples], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

say('no desktop VS Code (`code` on PATH): using code-server (the first time, its install takes a few minutes)');
const setupStatus = await setupWithProgress();
if (setupStatus !== 0) process.exit(setupStatus);

const { e2eTools, extensionId } = await load('test/e2e/support/paths.ts');
const { createProfile, installExtension, startCodeServer } = await load('test/e2e/support/codeServer.ts');
const tools = e2eTools();
const profile = createProfile(join(launcherDir, 'profile'), {}, { keepUserSettings: true });
await installExtension(tools, profile, vsix, extensionId());
const server = await startCodeServer(tools, profile, { port: 8080 });

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  say(`${signal}: stopping code-server`);
  await server.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop('Ctrl+C'));
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGHUP', () => void stop('SIGHUP'));

console.log('');
console.log('  Attention Inspector is running in VS Code (code-server). Open this in a browser:');
console.log(`    ${server.folderUrl(examples)}`);
console.log(`  Logs: ${profile.logFile}`);
console.log('  Press Ctrl+C to stop.');
console.log('');

const how = await server.exited;
if (!stopping) {
  console.error(`[open] code-server stopped on its own (${how}). Its log ends with:\n${server.logTail()}`);
  await server.stop();
  process.exit(1);
}
