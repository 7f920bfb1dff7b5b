// The attention-inspector command: a subcommand dispatcher. Built to dist/cli.js (with a shebang).
//
// Adding a subcommand is one line in SUBCOMMANDS below: name, one-line summary and the function that runs it
// with the arguments after the subcommand (resolving to the exit code).
import { inspectMain } from './inspect';
import { isMainThread, workerData } from 'node:worker_threads';
import { lintMain } from './lint';
import { runLintWorker } from './lint-pool';
import { processIO, type CliIO } from './io';
import { recordMain } from './record';
import { escapeControls, escapeLines } from './terminal';

export interface Subcommand {
  name: string;
  summary: string;
  run(args: readonly string[], io: CliIO): Promise<number>;
}

export const SUBCOMMANDS: readonly Subcommand[] = [
  { name: 'lint', summary: 'find attention bugs in Python files and notebooks', run: lintMain },
  { name: 'inspect', summary: "run the attention engine on a text and print every head's weights", run: inspectMain },
  { name: 'record', summary: 'run a Python program or test under the recorder and report attention bugs seen at run time', run: recordMain },
];

export function usage(): string {
  const width = Math.max(...SUBCOMMANDS.map((s) => s.name.length));
  return [
    'Usage: attention-inspector <command> [options]',
    '',
    'Commands:',
    ...SUBCOMMANDS.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
    '',
    'Run `attention-inspector <command> --help` for the options of a command.',
    '',
  ].join('\n');
}

/** Runs the CLI with process.argv.slice(2); resolves to the exit code (2 on bad usage). */
export async function runCli(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(usage());
    return name === undefined ? 2 : 0;
  }
  const cmd = SUBCOMMANDS.find((s) => s.name === name);
  if (!cmd) {
    io.stderr(`attention-inspector: unknown command '${escapeControls(name)}'\n\n${usage()}`);
    return 2;
  }
  try {
    return await cmd.run(rest, io);
  } catch (e) {
    io.stderr(`attention-inspector ${name}: ${escapeLines(e instanceof Error ? e.message : String(e))}\n`);
    return 2;
  }
}

// Entry point when run as a program (node dist/cli.js, or tsx src/cli/main.ts); the same bundle is the lint
// worker when started by the pool.
if (!isMainThread && (workerData as { lintWorker?: boolean } | undefined)?.lintWorker) {
  void runLintWorker();
} else if (typeof require !== 'undefined' && require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`attention-inspector: ${String(e)}\n`);
      process.exitCode = 2;
    },
  );
}
