// `attention-inspector record [--python PATH] [--out DIR] [--max-calls N] [--format text|json]
//    (-- SCRIPT [ARGS...] | --pytest NODEID)`
//
// Runs the program under the recorder (python/attention_recorder, in the given interpreter), reads the trace it
// writes (validated as untrusted input) and prints the recorded attention calls and the runtime findings.
// Exit codes: 0 nothing found, 1 runtime findings, 2 bad usage (or no trace), 3 the program failed (what was
// captured is still printed).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { analyseTrace, TraceError, type TraceAnalysis, type TraceIndex } from '../record';
import type { CliIO } from './io';
import { traceFileReader } from './files';
import { runRecorder, type RecordRun } from './record-runner';

export const RECORD_USAGE = `Usage: attention-inspector record [--python PATH] [--out DIR] [--max-calls N] [--format text|json]
                                  (-- SCRIPT [ARGS...] | --pytest NODEID)

Runs a Python program (or one pytest test) unchanged under the attention recorder, with your interpreter and
PyTorch (>= 1.13), and reports attention bugs seen in the values it computed: softmax over the wrong axis,
masks that let real tokens attend padding or point the wrong way, wrong or missing scale, weights changed
after the softmax, NaN or all-masked rows, causal masks misaligned with a KV cache.

Options:
  --python PATH      the interpreter (default: python3)
  --out DIR          keep the trace folder here (trace.json + .npy tensors; default: a new temporary folder)
  --max-calls N      calls recorded per source site (default 4)
  --format text|json output format (default text); JSON: {calls, diagnostics, program: {exitCode}}
  -h, --help         this help

The program's own output goes to stdout/stderr as it runs (to stderr with --format json).
Exit codes: 0 nothing found, 1 runtime findings, 2 bad usage or no trace, 3 the program failed.`;

export interface RecordArgs {
  python: string;
  out: string | null;
  maxCalls: number;
  format: 'text' | 'json';
  script: string | null;
  pytest: string | null;
  programArgs: string[];
  help: boolean;
}

export class RecordUsageError extends Error {}

export function parseRecordArgs(args: readonly string[]): RecordArgs {
  const out: RecordArgs = { python: 'python3', out: null, maxCalls: 4, format: 'text', script: null, pytest: null, programArgs: [], help: false };
  const rest = [...args]; // the arguments not read yet
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    let a = arg;
    let inline: string | undefined;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      inline = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const value = (): string => {
      const v = inline ?? rest.shift();
      if (v === undefined || (inline === undefined && v.startsWith('--'))) throw new RecordUsageError(`${a} needs a value`);
      return v;
    };
    switch (a) {
      case '-h':
      case '--help':
        out.help = true;
        break;
      case '--python':
        out.python = value();
        break;
      case '--out':
        out.out = value();
        break;
      case '--max-calls': {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 1_000_000)
          throw new RecordUsageError(`--max-calls must be a whole number from 1 to 1000000 (got '${v}')`);
        out.maxCalls = Number(v);
        break;
      }
      case '--format': {
        const v = value();
        if (v !== 'text' && v !== 'json') throw new RecordUsageError(`--format must be text or json (got '${v}')`);
        out.format = v;
        break;
      }
      case '--pytest':
        out.pytest = value();
        break;
      case '--': {
        const [script, ...programArgs] = rest.splice(0);
        if (script === undefined) throw new RecordUsageError('-- must be followed by the script to run');
        out.script = script;
        out.programArgs = programArgs;
        break;
      }
      default:
        throw new RecordUsageError(`unknown option '${arg}'`);
    }
  }
  if (!out.help) {
    if (out.script === null && out.pytest === null) throw new RecordUsageError('say what to run: -- SCRIPT [ARGS...] or --pytest NODEID');
    if (out.script !== null && out.pytest !== null) throw new RecordUsageError('give either -- SCRIPT or --pytest NODEID, not both');
  }
  return out;
}

export async function recordMain(args: readonly string[], io: CliIO): Promise<number> {
  let parsed: RecordArgs;
  try {
    parsed = parseRecordArgs(args);
  } catch (e) {
    if (e instanceof RecordUsageError) {
      io.stderr(`attention-inspector record: ${e.message}\n\n${RECORD_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (parsed.help) {
    io.stdout(`${RECORD_USAGE}\n`);
    return 0;
  }
  const cwd = process.cwd();
  if (parsed.script !== null && !existsSync(resolve(cwd, parsed.script))) {
    io.stderr(`attention-inspector record: no such script: ${parsed.script}\n`);
    return 2;
  }
  const out = parsed.out !== null ? resolve(cwd, parsed.out) : mkdtempSync(join(tmpdir(), 'attention-record-'));
  const toStdout = parsed.format === 'text';
  let run: RecordRun;
  try {
    run = await runRecorder(
      {
        python: parsed.python,
        out,
        maxCalls: parsed.maxCalls,
        script: parsed.script,
        pytest: parsed.pytest,
        programArgs: parsed.programArgs,
        cwd,
        workspace: [cwd],
      },
      (stream, text) => (stream === 'stdout' && toStdout ? io.stdout(text) : io.stderr(text)),
    );
  } catch (e) {
    io.stderr(`attention-inspector record: ${(e as Error).message}\n`);
    return 2;
  }
  if (!run.trace) {
    io.stderr(
      `attention-inspector record: the recorder wrote no trace (interpreter '${parsed.python}' exited with ${run.signal ?? run.processExitCode}); it needs PyTorch >= 1.13 importable there (choose one with --python PATH)\n`,
    );
    return 2;
  }
  let analysis: TraceAnalysis;
  try {
    analysis = analyseTrace(run.trace, traceFileReader(out));
  } catch (e) {
    if (e instanceof TraceError) {
      io.stderr(`attention-inspector record: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  for (const p of analysis.problems) io.stderr(`attention-inspector record: ${p}\n`);
  const exitCode = run.trace.program.exitCode;
  const shown = (p: string | null) => (p === null ? null : displayPath(p, cwd));
  if (parsed.format === 'json') {
    const doc = {
      calls: analysis.calls.map((c) => ({ id: c.id, kind: c.kind, path: shown(c.path), line: c.line, module: c.module, shapes: c.shapes, dtype: c.dtype })),
      diagnostics: analysis.findings.map((f) => ({
        path: shown(f.path),
        line: f.line,
        column: f.column,
        code: f.code,
        severity: f.severity,
        message: f.message,
      })),
      program: { exitCode },
    };
    io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
  } else {
    io.stdout(formatRecordText(run.trace, analysis, cwd, out));
  }
  if (exitCode !== 0) return 3;
  return analysis.findings.length > 0 ? 1 : 0;
}

function displayPath(p: string, cwd: string): string {
  if (!isAbsolute(p)) return p;
  const rel = relative(cwd, p);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : p;
}

export function formatRecordText(trace: TraceIndex, analysis: TraceAnalysis, cwd: string, traceDir: string): string {
  const lines: string[] = [];
  const n = analysis.calls.length;
  const { program, limits } = trace;
  if (n === 0) {
    lines.push(
      'No attention calls were recorded: the program never called F.scaled_dot_product_attention, nn.MultiheadAttention or a softmax over a matmul of two tensors followed by a matmul with v.',
    );
  } else {
    lines.push(`Recorded ${n} attention call${n === 1 ? '' : 's'} (python ${program.python}, torch ${program.torch}); trace in ${traceDir}`);
    for (const c of analysis.calls) {
      const at = c.path ? `${displayPath(c.path, cwd)}:${c.line}` : '?';
      const shapes = Object.entries(c.shapes)
        .filter(([, s]) => s !== null)
        .map(([k, s]) => `${k}[${(s as number[]).join(',')}]`)
        .join(' ');
      lines.push(`  #${c.id} ${c.kind.padEnd(6)} ${at}${c.module ? `  ${c.module}` : ''}  ${shapes} ${c.dtype ?? ''}`.trimEnd());
    }
  }
  if (limits.skippedCalls > 0) lines.push(`  (${limits.skippedCalls} more calls at the same sites were not recorded: --max-calls ${limits.maxCallsPerSite})`);
  for (const f of analysis.findings)
    lines.push(`${displayPath(f.path, cwd)}:${f.line}:${f.column}: ${f.code} [${f.severity}] ${f.message} (call #${f.callId})`);
  if (program.exception) lines.push(`The program raised ${program.exception.type}: ${program.exception.message.split('\n')[0]}`);
  if (program.exitCode !== 0) lines.push(`The program exited with code ${program.exitCode}.`);
  lines.push(
    analysis.findings.length === 0 ? 'No runtime findings.' : `${analysis.findings.length} runtime finding${analysis.findings.length === 1 ? '' : 's'}.`,
  );
  return `${lines.join('\n')}\n`;
}
