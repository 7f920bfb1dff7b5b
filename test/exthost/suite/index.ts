// The extension-host test entry, in the convention of @vscode/test-electron: VS Code loads this module in the
// extension host of a window started with --extensionDevelopmentPath=<repo> --extensionTestsPath=<this file,
// bundled> and calls run(); the promise settles when the tests are done (rejected when any failed).
//
// The runner (scripts/test-exthost.ts) also needs the results when the extension host runs behind a browser
// (code-server), where nothing reaches its stdout: every mocha event is appended, one JSON object per line,
// to the file named by EXTHOST_RESULTS_FILE (see ResultEvent). EXTHOST_SUITES picks suites by name, in order;
// EXTHOST_LOCALE says which display language the window runs in (suites named for a locale run only there).
import { appendFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { suiteLocale } from './locale';

// mocha's CommonJS build, resolved from the repository's node_modules (the bundle sits inside the repository).
const Mocha = require('mocha/lib/mocha.cjs') as typeof import('mocha');

/** One line of the results file. */
export type ResultEvent =
  | { event: 'start'; total: number; suites: string[] }
  | { event: 'suite'; title: string; depth: number }
  | { event: 'pass'; title: string; fullTitle: string; durationMs: number }
  | { event: 'fail'; title: string; fullTitle: string; message: string; stack: string }
  | { event: 'end'; tests: number; passes: number; failures: number; durationMs: number }
  | { event: 'error'; message: string; stack: string };

const SUITE_SUFFIX = '.exthost.js';

/** The bundled suites next to this file, by name (`lint-diagnostics` for lint-diagnostics.exthost.js). */
function suiteFiles(): string[] {
  const locale = process.env.EXTHOST_LOCALE || undefined;
  const available = readdirSync(__dirname)
    .filter((f) => f.endsWith(SUITE_SUFFIX) && suiteLocale(f) === locale)
    .sort();
  const wanted = (process.env.EXTHOST_SUITES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (wanted.length === 0) return available.map((f) => join(__dirname, f));
  return wanted.map((name) => {
    const file = `${name}${SUITE_SUFFIX}`;
    if (!available.includes(file))
      throw new Error(
        `EXTHOST_SUITES names "${name}", but the suites${locale ? ` for --locale ${locale}` : ''} are ${available.map((f) => basename(f, SUITE_SUFFIX)).join(', ')}`,
      );
    return join(__dirname, file);
  });
}

function writer(): (e: ResultEvent) => void {
  const file = process.env.EXTHOST_RESULTS_FILE;
  return file ? (e) => appendFileSync(file, `${JSON.stringify(e)}\n`) : () => undefined;
}

export function run(): Promise<void> {
  const emit = writer();
  try {
    const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: process.env.EXTHOST_RESULTS_FILE ? 'base' : 'spec' });
    const files = suiteFiles();
    for (const f of files) mocha.addFile(f);
    const started = Date.now();
    return new Promise((resolvePromise, reject) => {
      const runner = mocha.run((failures) => {
        emit({ event: 'end', tests: runner.stats?.tests ?? 0, passes: runner.stats?.passes ?? 0, failures, durationMs: Date.now() - started });
        if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
        else resolvePromise();
      });
      emit({ event: 'start', total: runner.total, suites: files.map((f) => basename(f, SUITE_SUFFIX)) });
      runner.on('suite', (suite) => {
        if (suite.title) emit({ event: 'suite', title: suite.title, depth: suite.titlePath().length });
      });
      runner.on('pass', (test) => emit({ event: 'pass', title: test.title, fullTitle: test.fullTitle(), durationMs: test.duration ?? 0 }));
      runner.on('fail', (test, err: Error) =>
        emit({ event: 'fail', title: test.title, fullTitle: test.fullTitle(), message: err.message, stack: err.stack ?? '' }),
      );
    });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    emit({ event: 'error', message: e.message, stack: e.stack ?? '' });
    return Promise.reject(e);
  }
}
