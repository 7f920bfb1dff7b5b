// Where the CLI writes. Subcommands take a CliIO so tests can capture output.

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

let pipeGuarded = false;

/** The process's streams; a reader that stops early (`| head`) ends the output quietly. */
export const processIO: CliIO = {
  stdout: (text) => {
    if (!pipeGuarded) {
      pipeGuarded = true;
      process.stdout.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPIPE') process.exit(0);
        throw e;
      });
    }
    process.stdout.write(text);
  },
  stderr: (text) => void process.stderr.write(text),
};
