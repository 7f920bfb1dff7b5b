// code-server (VS Code's workbench served to a browser, with a real Node extension host) as a child process:
// a profile folder, the extension installed into it, the server started in its own process group on
// 127.0.0.1, and a stop that ends the whole group. Used by the e2e harness and by `npm start`.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { E2eTools } from './paths';
import { run } from './packageExtension';

/** The folders of one profile; everything code-server writes goes under `root`. */
export interface Profile {
  root: string;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
}

/**
 * Settings that keep a fresh profile quiet: no trust prompt, welcome page, walkthroughs, chat sidebar,
 * update or recommendation checks, telemetry or git scanning.
 */
export const quietSettings: Readonly<Record<string, unknown>> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'git.enabled': false,
  'github.gitAuthentication': false,
  'editor.minimap.enabled': false,
};

/**
 * Creates (or reuses) a profile under root and writes its user settings.json: the quiet settings plus
 * `settings`. With keepUserSettings, an existing settings.json (a person's own changes) is left alone.
 */
export function createProfile(root: string, settings: Record<string, unknown> = {}, options: { keepUserSettings?: boolean } = {}): Profile {
  const profile: Profile = {
    root,
    userDataDir: join(root, 'user-data'),
    extensionsDir: join(root, 'extensions'),
    logFile: join(root, 'code-server.log'),
  };
  const settingsFile = join(profile.userDataDir, 'User', 'settings.json');
  mkdirSync(dirname(settingsFile), { recursive: true });
  mkdirSync(profile.extensionsDir, { recursive: true });
  if (!(options.keepUserSettings && existsSync(settingsFile))) {
    writeFileSync(settingsFile, JSON.stringify({ ...quietSettings, ...settings }, null, 2) + '\n');
  }
  return profile;
}

/**
 * The environment code-server runs in: Node 24 first on PATH, XDG folders inside the profile (any
 * code-server call writes ~/.config/code-server otherwise), and no variables that would make it talk to
 * an outer VS Code (VSCODE_IPC_HOOK_CLI in a VS Code terminal) or load a loader into it (NODE_OPTIONS).
 */
function serverEnv(tools: E2eTools, profile: Profile, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(VSCODE_|ELECTRON_|CODE_SERVER_)/.test(key) || key === 'NODE_OPTIONS') continue;
    env[key] = value;
  }
  env.PATH = `${dirname(tools.node)}:${process.env.PATH ?? ''}`;
  env.XDG_CONFIG_HOME = join(profile.root, 'xdg-config');
  env.XDG_DATA_HOME = join(profile.root, 'xdg-data');
  return { ...env, ...extra };
}

function profileArgs(profile: Profile): string[] {
  return ['--user-data-dir', profile.userDataDir, '--extensions-dir', profile.extensionsDir];
}

/** Installs a .vsix into the profile (replacing an older copy) and checks that it landed. */
export async function installExtension(tools: E2eTools, profile: Profile, vsix: string, extensionId: string): Promise<void> {
  const output = await run(tools.node, [tools.codeServerEntry, ...profileArgs(profile), '--install-extension', vsix, '--force'], {
    env: serverEnv(tools, profile, {}),
  });
  const prefix = `${extensionId.toLowerCase()}-`;
  if (!readdirSync(profile.extensionsDir).some((name) => name.toLowerCase().startsWith(prefix))) {
    throw new Error(`code-server did not install ${vsix} into ${profile.extensionsDir}; it printed:\n${output}`);
  }
}

/** True when something already listens on 127.0.0.1:port. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise(true)));
  });
}

/** `preferred` when it is free, else the next free port above it; with no preference, one the OS picks. */
export async function freePort(preferred?: number): Promise<number> {
  if (preferred !== undefined) {
    for (let port = preferred; port < preferred + 100 && port <= 65535; port++) {
      if (await portIsFree(port)) return port;
    }
    throw new Error(`no free port on 127.0.0.1 in ${preferred}..${preferred + 99}`);
  }
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

export interface StartOptions {
  /** A port to try first (the next free one is used if taken); by default any free port. */
  port?: number;
  /** Extra environment variables: they reach the extension host (a side channel for test modes). */
  env?: Record<string, string>;
  /** How long to wait for /healthz, in ms (default 60 s). */
  timeoutMs?: number;
  /** Extra code-server arguments (e.g. `--vscode-option=enable-smoke-test-driver`, as test/exthost needs). */
  args?: string[];
}

export interface RunningCodeServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The process (and process-group) id of the server. */
  pid: number;
  profile: Profile;
  /** The URL that opens `folder` in the workbench. */
  folderUrl(folder: string): string;
  /** The extension host's log (activation events, errors thrown by extensions), '' before it exists. */
  extensionHostLog(): string;
  /** The last lines code-server printed, for error messages. */
  logTail(lines?: number): string;
  /** Settles when the server process exits, with how it ended (e.g. `exit code 1`, `SIGTERM`). */
  exited: Promise<string>;
  /** Ends the server's whole process group: SIGTERM, then SIGKILL after a grace period. Idempotent. */
  stop(): Promise<void>;
}

const runningGroups = new Set<number>();
let exitHookInstalled = false;

/** Whether any live (non-zombie) process is left in the group. Zombies are left to PID 1. */
function groupIsAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (!existsSync('/proc/self/stat')) return true;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // the process ended while we looked
    }
    // pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') return true;
  }
  return false;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

/** Stops a process group: SIGTERM, up to graceMs for it to go, then SIGKILL. */
export async function stopGroup(pgid: number, graceMs = 5000): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  if (!(await waitUntil(() => !groupIsAlive(pgid), graceMs))) {
    signalGroup(pgid, 'SIGKILL');
    await waitUntil(() => !groupIsAlive(pgid), 2000);
  }
  runningGroups.delete(pgid);
}

function healthz(url: string): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const request = get(`${url}/healthz`, (response) => {
      response.resume();
      resolvePromise(response.statusCode === 200);
    });
    request.on('error', () => resolvePromise(false));
    request.setTimeout(2000, () => request.destroy());
  });
}

function readTail(file: string, lines: number): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

/** Starts code-server on 127.0.0.1 in its own process group and waits until /healthz answers. */
export async function startCodeServer(tools: E2eTools, profile: Profile, options: StartOptions = {}): Promise<RunningCodeServer> {
  const port = await freePort(options.port);
  const url = `http://127.0.0.1:${port}`;
  const log = openSync(profile.logFile, 'a');
  const args = [
    tools.codeServerEntry,
    ...profileArgs(profile),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    ...(options.args ?? []),
  ];
  // detached: the server becomes the leader of a new process group (setsid), so stop() can end the
  // server, its extension host and every process they started, and nothing else.
  const child = spawn(tools.node, args, { detached: true, env: serverEnv(tools, profile, options.env ?? {}), stdio: ['ignore', log, log] });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`code-server did not start (${tools.node} ${args.join(' ')})`);
  runningGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => runningGroups.forEach((pgid) => signalGroup(pgid, 'SIGKILL')));
  }
  let exited: string | undefined;
  const exitedPromise = new Promise<string>((resolvePromise) => child.once('exit', (code, signal) => resolvePromise((exited = signal ?? `exit code ${code}`))));

  const server: RunningCodeServer = {
    url,
    port,
    pid,
    profile,
    folderUrl: (folder) => `${url}/?folder=${encodeURIComponent(folder).replace(/%2F/g, '/')}`,
    extensionHostLog: () =>
      findExtensionHostLogs(profile.userDataDir)
        .map((file) => readFileSync(file, 'utf8'))
        .join('\n'),
    logTail: (lines = 30) => readTail(profile.logFile, lines),
    exited: exitedPromise,
    stop: () => stopGroup(pid),
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (!(await healthz(url))) {
    if (exited !== undefined || Date.now() > deadline) {
      const why = exited !== undefined ? `exited (${exited})` : `did not answer ${url}/healthz within ${options.timeoutMs ?? 60_000} ms`;
      await server.stop();
      throw new Error(`code-server ${why}. Its log (${profile.logFile}) ends with:\n${server.logTail()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return server;
}

/** exthost.log files under the profile's logs folder (one per extension-host start). */
function findExtensionHostLogs(userDataDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 6 || !existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (/exthost\.log$/.test(entry.name)) found.push(path);
    }
  };
  walk(join(userDataDir, 'logs'), 0);
  return found.sort();
}
