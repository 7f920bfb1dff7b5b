// `npm start`: opens VS Code on examples/ with the extension loaded.
// - With a desktop VS Code (`code` on PATH): `code --extensionDevelopmentPath=<repo> <repo>/examples`.
// - Without one: installs code-server (scripts/setup-e2e.sh, once), installs the freshly packaged .vsix into
//   a profile under .cache/e2e/launcher/, serves VS Code on http://127.0.0.1:8080 (or the next free port)
//   and prints the URL to open; Ctrl+C stops it (the server's whole process group).
// Set ATTENTION_INSPECTOR_CODE_SERVER=1 to use code-server even where `code` exists.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const examples = join(root, 'examples');
const say = (message) => console.log(`[open] ${message}`);

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
if (code !== undefined) {
  say(`opening VS Code (${code}) on examples/ with the extension loaded from ${root}`);
  const result = spawnSync(code, [`--extensionDevelopmentPath=${root}`, examples], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

say('no desktop VS Code (`code`) on PATH: using code-server');
const setup = spawnSync('bash', [join(root, 'scripts', 'setup-e2e.sh')], { stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);

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
