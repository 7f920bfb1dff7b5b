// Runs python/attention_recorder in a chosen interpreter and reads the trace it writes. Node-only; shared by the
// `record` CLI and the extension host (which passes an AbortSignal: the recorder then runs in its own process
// group, and aborting ends the whole tree: SIGTERM, which the recorder turns into writing what it captured,
// then SIGKILL after a grace period).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { parseTrace, TRACE_LIMITS, type TraceIndex } from '../record';
import { readRegularFile } from './files';

/** Seconds between SIGTERM and SIGKILL when a recording is cancelled. */
export const KILL_GRACE_MS = 3000;

/** The folder holding the recorder package (python/attention_recorder), next to dist/ or to src/. */
export function recorderPythonDir(): string {
  const candidates = [join(__dirname, '..', 'python'), join(__dirname, '..', '..', 'python')];
  for (const c of candidates) if (existsSync(join(c, 'attention_recorder', '__main__.py'))) return c;
  throw new Error(`the recorder's Python package is missing (looked in ${candidates.join(', ')})`);
}

export interface RecordRun {
  /** The parsed trace.json (null when none was written). */
  trace: TraceIndex | null;
  traceDir: string;
  processExitCode: number | null;
  signal: NodeJS.Signals | null;
}

/** Number of calls recorded so far (the recorder updates OUT/progress as it goes); 0 before the first. */
export function recordedSoFar(out: string): number {
  try {
    return Number(readFileSync(join(out, 'progress'), 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/** Runs the recorder; streams the program's output through `onOutput`. */
export function runRecorder(
  opts: {
    python: string;
    out: string;
    maxCalls: number;
    maxBytes?: number;
    script: string | null;
    pytest: string | null;
    programArgs: string[];
    cwd: string;
    workspace: string[];
    env?: NodeJS.ProcessEnv;
    /** Aborting ends the recorder's process tree. */
    signal?: AbortSignal;
  },
  onOutput: (stream: 'stdout' | 'stderr', text: string) => void,
): Promise<RecordRun> {
  const pyDir = recorderPythonDir();
  const args = ['-m', 'attention_recorder', '--out', opts.out, '--max-calls', String(opts.maxCalls)];
  if (opts.maxBytes !== undefined) args.push('--max-bytes', String(opts.maxBytes));
  for (const w of opts.workspace) args.push('--workspace', w);
  if (opts.script !== null) args.push('--script', opts.script, ...opts.programArgs);
  else args.push('--pytest', opts.pytest as string, ...opts.programArgs);
  const baseEnv = opts.env ?? process.env;
  const env = { ...baseEnv, PYTHONPATH: [pyDir, baseEnv.PYTHONPATH].filter(Boolean).join(delimiter), PYTHONUNBUFFERED: '1' };
  return new Promise((resolvePromise, reject) => {
    const ownGroup = opts.signal !== undefined && process.platform !== 'win32';
    const child = spawn(opts.python, args, { cwd: opts.cwd, env, stdio: [opts.signal ? 'ignore' : 'inherit', 'pipe', 'pipe'], detached: ownGroup });
    let killTimer: NodeJS.Timeout | undefined;
    const killTree = (sig: NodeJS.Signals) => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        if (ownGroup) process.kill(-child.pid, sig);
        else if (process.platform === 'win32') spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore' });
        else child.kill(sig);
      } catch {
        // already gone
      }
    };
    const onAbort = () => {
      killTree('SIGTERM');
      killTimer = setTimeout(() => killTree('SIGKILL'), KILL_GRACE_MS);
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => onOutput('stdout', d));
    child.stderr.on('data', (d: string) => onOutput('stderr', d));
    child.on('error', (e) => reject(new Error(`cannot run the interpreter '${opts.python}': ${e.message}`)));
    child.on('close', (code, signal) => {
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (ownGroup) killTree('SIGKILL'); // grandchildren the program left behind
      const tracePath = join(opts.out, 'trace.json');
      let trace: TraceIndex | null = null;
      if (existsSync(tracePath)) {
        try {
          // Sized before it is read: the trace folder is untrusted input.
          trace = parseTrace(new TextDecoder('utf-8').decode(readRegularFile(tracePath, TRACE_LIMITS.maxJsonBytes, 'the limit for a trace.json')), tracePath);
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
          return;
        }
      }
      resolvePromise({ trace, traceDir: opts.out, processExitCode: code, signal });
    });
  });
}
