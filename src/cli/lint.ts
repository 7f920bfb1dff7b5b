// `attention-inspector lint [--format text|json|sarif] [--select CODES] [--ignore CODES] PATH...`
//
// Lints .py files and the code cells of .ipynb notebooks under each path. Exit codes: 0 nothing found,
// 1 something found, 2 bad usage or unreadable input (the other files are still linted), including a file
// that could not be analysed (an ATT000 finding: never reported as clean).
//
// Only regular files are read, each sized before it is read (MAX_FILE_BYTES). Symbolic links inside a
// linted directory are followed (to files and to directories, each directory walked once: no loops).
//
// A directory argument is a workspace: its files' imports of other files under it (`from .utils import
// make_pad_mask`) are followed, and a finding whose evidence is in another file names it and carries it as
// a related location (its path as displayed for the linted files).
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { createLinter, isRuleCode, MAX_LINT_FILE_BYTES, NOT_ANALYSED, type ExtendedLinter, type Finding, type LintOptions } from '../lint';
import { InputFileError, readRegularFile, unreadableReason } from './files';
import type { FileFinding, LintRunResult } from '../protocol/lint-pool';
import { formatJson, formatSarif, formatText, ruleDocsBase } from './lint-format';
import type { CliIO } from './io';
import { canUseWorkers, lintFilesParallel, threadCount } from './lint-pool';
import { diskWorkspace } from './lint-workspace';
import { escapeControls } from './terminal';

export const LINT_USAGE = `Usage: attention-inspector lint [--format text|json|sarif] [--select CODES] [--ignore CODES] PATH...

Finds attention bugs (softmax axis, mask polarity, scale, key transpose, masking after softmax, fill values,
causal SDPA) in Python files and Jupyter notebooks. Directories are searched for .py and .ipynb files.

Options:
  --format text|json|sarif   output format (default text)
  --select CODES             only these rules, comma-separated codes or prefixes (ATT001,ATT003 or ATT00)
  --ignore CODES             never these rules (wins over --select)
  -h, --help                 this help

A directory is linted as a workspace: imports of its own files (from .utils import f) are followed.
Suppress one finding with a \`# noqa: ATT001\` comment on its line. ATT000 says a file (or part of it)
could not be analysed; it is reported whatever --select says (--ignore ATT000 silences it).
Files over ${MAX_LINT_FILE_BYTES >> 20} MB are skipped (and named).
Exit codes: 0 nothing found, 1 problems found, 2 bad usage, unreadable input or a file not analysed (ATT000).`;

/** Files larger than this are skipped with a message (generated code, data dumps); checked before reading. */
export const MAX_FILE_BYTES = MAX_LINT_FILE_BYTES;

const SKIP_DIRS = new Set([
  'node_modules',
  '__pycache__',
  'site-packages',
  '.git',
  '.hg',
  '.svn',
  '.tox',
  '.nox',
  '.venv',
  'venv',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.ipynb_checkpoints',
]);

export interface LintArgs {
  format: 'text' | 'json' | 'sarif';
  options: LintOptions;
  paths: string[];
  help: boolean;
}

class UsageError extends Error {}

function codeList(flag: string, value: string | undefined): string[] {
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a comma-separated list of rule codes`);
  const codes = value
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter((c) => c.length > 0);
  for (const c of codes) {
    if (!/^ATT\d{0,3}$/.test(c) || (c.length === 6 && !isRuleCode(c) && c !== NOT_ANALYSED))
      throw new UsageError(`${flag}: unknown rule code '${c}' (expected ATT001..ATT008 or a prefix such as ATT00)`);
  }
  return codes;
}

export function parseLintArgs(args: readonly string[]): LintArgs {
  const out: LintArgs = { format: 'text', options: {}, paths: [], help: false };
  const rest = [...args]; // the arguments not read yet
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    let a = arg;
    let inline: string | undefined;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      inline = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const next = (): string | undefined => inline ?? rest.shift();
    switch (a) {
      case '-h':
      case '--help':
        out.help = true;
        break;
      case '--format': {
        const f = next();
        if (f !== 'text' && f !== 'json' && f !== 'sarif')
          throw new UsageError(`--format must be text, json or sarif (got ${f === undefined ? 'nothing' : `'${f}'`})`);
        out.format = f;
        break;
      }
      case '--select':
        out.options.select = codeList('--select', next());
        break;
      case '--ignore':
        out.options.ignore = codeList('--ignore', next());
        break;
      case '--':
        out.paths.push(...rest.splice(0));
        break;
      default:
        if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option '${arg}'`);
        out.paths.push(arg);
    }
  }
  if (!out.help && out.paths.length === 0) throw new UsageError('no PATH given');
  return out;
}

const isLintable = (name: string): boolean => name.endsWith('.py') || name.endsWith('.pyi') || name.endsWith('.ipynb');

/**
 * Every .py/.ipynb file under a path (a file path is taken as given), in a stable order. Symbolic links are
 * followed; each directory (by its real path) is walked once, so a link back up the tree ends the walk there.
 */
export function collectFiles(path: string, onError: (message: string) => void): string[] {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    onError(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? unreadableReason(e)})`);
    return [];
  }
  if (st.isFile()) return [path];
  if (!st.isDirectory()) {
    onError(`${path}: not a regular file or a directory`);
    return [];
  }
  const out: string[] = [];
  const walked = new Set<string>();
  const stack = [path];
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch (e) {
      onError(`${dir}: cannot list (${unreadableReason(e)})`);
      continue;
    }
    if (walked.has(real)) continue; // reached again through a link: already walked
    walked.add(real);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      onError(`${dir}: cannot list (${unreadableReason(e)})`);
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      const p = join(dir, e.name);
      let isDirectory = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        try {
          const target = statSync(p);
          isDirectory = target.isDirectory();
          isFile = target.isFile();
        } catch (err) {
          if (isLintable(e.name)) onError(`${p}: symbolic link not followed (${unreadableReason(err)})`);
          continue;
        }
      }
      if (isDirectory) {
        if (!SKIP_DIRS.has(e.name) && !(e.name.startsWith('.') && e.name !== '.')) subdirs.push(p);
      } else if (isFile && isLintable(e.name)) out.push(p);
    }
    stack.push(...subdirs.reverse());
  }
  return out;
}

function displayPath(p: string): string {
  const rel = relative(process.cwd(), resolve(p));
  const shown = rel.length > 0 && !rel.startsWith('..') ? rel : p;
  return shown.split(sep).join('/');
}

/** Reads the grammar wasm next to the bundle (dist/../media) or from node_modules. */
export function readGrammar(): { treeSitter: Uint8Array; python: Uint8Array } {
  const find = (mediaName: string, pkgPath: string): Uint8Array => {
    const candidates = [join(__dirname, '..', 'media', mediaName), join(__dirname, '..', '..', 'media', mediaName)];
    for (const c of candidates) if (existsSync(c)) return readFileSync(c);
    return readFileSync(require.resolve(pkgPath));
  };
  return {
    treeSitter: find('web-tree-sitter.wasm', 'web-tree-sitter/web-tree-sitter.wasm'),
    python: find('tree-sitter-python.wasm', 'tree-sitter-python/tree-sitter-python.wasm'),
  };
}

/** Files to lint that share a workspace root (a directory argument), or none (file arguments). */
export interface LintGroup {
  files: string[];
  root?: string;
}

/** The linter for a workspace root (one per root, each with its own module cache), or the plain one. */
export function workspaceLinter(root: string | undefined, onInternalError?: (e: unknown) => void): Promise<ExtendedLinter> {
  return createLinter(readGrammar(), { onInternalError, ...(root !== undefined ? { workspace: diskWorkspace(root, { snapshot: true }) } : {}) });
}

/**
 * Lints files (already collected); never throws for bad files, it reports them in `errors`. With a workspace
 * root (the linter made by workspaceLinter for it), each file is linted as that workspace's file.
 */
export function lintFiles(linter: ExtendedLinter, files: readonly string[], options: LintOptions, root?: string): LintRunResult {
  const findings: FileFinding[] = [];
  const errors: string[] = [];
  let lines = 0;
  let linted = 0;
  for (const file of files) {
    const path = displayPath(file);
    let bytes: Buffer;
    try {
      bytes = readRegularFile(file, MAX_FILE_BYTES, 'the lint limit');
    } catch (e) {
      errors.push(`${path}: skipped, ${e instanceof InputFileError ? e.message : unreadableReason(e)}`);
      continue;
    }
    const text = bytes.toString('utf8');
    linted++;
    const rel = root !== undefined ? relative(root, file).split(sep).join('/') : undefined;
    const opts = rel !== undefined && !rel.startsWith('..') ? { ...options, path: rel } : options;
    const shown = (f: Finding): Finding =>
      f.related && root !== undefined
        ? { ...f, related: f.related.map((r) => (r.path !== undefined ? { ...r, path: displayPath(join(root, r.path)) } : r)) }
        : f;
    if (file.endsWith('.ipynb')) {
      const r = linter.lintNotebookFile(text, opts);
      if (r.error) {
        errors.push(`${path}: ${r.error}`);
        continue;
      }
      for (const cell of r.cells) for (const f of cell.findings) findings.push({ ...shown(f), path, cell: cell.cellIndex });
      lines += text.split('\n').length;
    } else {
      for (const f of linter.lintPython(text, opts)) findings.push({ ...shown(f), path });
      lines += text.split('\n').length;
    }
  }
  return { findings, files: linted, lines, errors };
}

export async function lintMain(args: readonly string[], io: CliIO): Promise<number> {
  let parsed: LintArgs;
  try {
    parsed = parseLintArgs(args);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`attention-inspector lint: ${escapeControls(e.message)}\n\n${LINT_USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (parsed.help) {
    io.stdout(LINT_USAGE + '\n');
    return 0;
  }
  const errors: string[] = [];
  const groups: LintGroup[] = [];
  const seen = new Set<string>();
  for (const p of parsed.paths) {
    const group: LintGroup = { files: [], ...(isDirectory(p) ? { root: p } : {}) };
    for (const f of collectFiles(p, (m) => errors.push(m))) {
      const key = realPath(f);
      if (!seen.has(key)) {
        seen.add(key);
        group.files.push(f);
      }
    }
    if (group.files.length > 0) groups.push(group);
  }
  const internal: string[] = [];
  const fileCount = groups.reduce((n, g) => n + g.files.length, 0);
  const threads = threadCount(fileCount);
  let result: LintRunResult;
  if (threads > 1 && canUseWorkers()) {
    result = await lintFilesParallel(groups, parsed.options, threads);
  } else {
    result = { findings: [], files: 0, lines: 0, errors: [] };
    for (const g of groups) {
      const linter = await workspaceLinter(g.root, (e) => internal.push(String(e)));
      const r = lintFiles(linter, g.files, parsed.options, g.root);
      result.findings.push(...r.findings);
      result.files += r.files;
      result.lines += r.lines;
      result.errors.push(...r.errors);
    }
  }
  errors.push(...result.errors);
  for (const m of errors) io.stderr(`attention-inspector lint: ${escapeControls(m)}\n`);
  for (const m of internal.slice(0, 5)) io.stderr(`attention-inspector lint: internal error (reported as ATT000 on that file): ${escapeControls(m)}\n`);
  const pkg = packageInfo();
  if (parsed.format === 'json') io.stdout(formatJson(result.findings));
  else if (parsed.format === 'sarif') io.stdout(formatSarif(result.findings, pkg.version, ruleDocsBase(pkg.repository)));
  else io.stdout(formatText(result.findings, result.files));
  if (errors.length > 0 || result.findings.some((f) => f.code === NOT_ANALYSED)) return 2;
  return result.findings.length > 0 ? 1 : 0;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A file's real path (links resolved), to lint each file once however it was reached. */
function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function packageInfo(): { version: string; repository?: string } {
  for (const p of [join(__dirname, '..', 'package.json'), join(__dirname, '..', '..', 'package.json')]) {
    try {
      const v = JSON.parse(readFileSync(p, 'utf8')) as { name?: string; version?: string; repository?: { url?: string } | string };
      if (v.name === 'attention-inspector' && typeof v.version === 'string') {
        return { version: v.version, repository: typeof v.repository === 'string' ? v.repository : v.repository?.url };
      }
    } catch {
      // try the next location
    }
  }
  return { version: '0.0.0' };
}
