// Cut scan (session 43): lints the pinned repositories of repos.txt the way the labelled sets' cases are cut, not
// whole. The unseen measure's cases are single files cut to 20-120 lines and small folders (a model file plus the
// module or script that feeds it); evidence a whole-repository scan relies on (a config value, a caller passing
// `scale=`, the `__init__` that sets `self.scale`) is often outside the cut. For each `.py` file F with attention code
// (a softmax plus a matmul/einsum/bmm/`@`, or an attention API call) of each repository already extracted by the
// rescan tools (`rescan.sh`'s shared extraction `<folder>/<owner>+<name>`, read only), three modes, each linted in process:
//
//   imports    F plus the repository-local modules F imports directly (at most 4 files, nearest path first), linted
//              as one small workspace; findings in F kept
//   importers  F plus the local files that import F (at most 4 files, nearest first), likewise
//   classes    for each top-level class or function of F holding attention code: F's import statements and
//              module-level assignments plus that definition only (cut with tree-sitter), linted alone; findings
//              mapped back to F's lines
//   methods    for each such class and each of its methods holding attention code: the class cut without the
//              class's other methods (header, class-level statements and `__init__` kept), linted alone
//   folders    (session 44) both files of a small folder cut: F's class cut (as `classes`) together with each direct
//              neighbour (a local module F imports, or a local file importing F; at most 3, nearest first), each cut
//              to its imports and module-level assignments plus the top-level classes and functions that F's cut
//              names (a config class, a collate function, a mask helper) or that name F's cut definition (the caller
//              that builds the mask or passes `scale=`); neighbours with no such definition are left out, and a cut
//              with no neighbour left is not linted. Linted as one small workspace; findings in F mapped to F's lines
//
// Each finding is keyed (repo, path, line, rule) and compared with the whole-repository baselines (workspace and
// alone TSVs of the rescan tools). Prints per mode: files, cuts, findings per rule, and the findings in neither
// baseline as TSV (`mode repo path line rule inWs inAlone message`).
//
//   npx tsx test/lint-scan/cut-scan.ts [--tree DIR] [--src DIR] [--ws TSV] [--alone TSV] [--sample N/M]
//        [--repo owner/name] [--out FILE.tsv]
//
//   --tree    the tree whose src/lint is loaded (default this tree; e.g. a worktree of the base build)
//   --src     the extraction (default $RESCAN_SRC, else this tree's .cache/lint-scan-src, as rescan.sh)
//   --ws, --alone   baselines: rescan.sh's workspace and alone TSVs of the base build (required)
//   --sample N/M    only repositories whose index in repos.txt is N modulo M (deterministic)
//   --repo    only this repository (repeatable)
//   --out     also write every finding of every mode (not only new ones) to this TSV
//   --modes   only these modes (comma-separated, e.g. `folders`; default all)
//   CUT_DUMP=DIR (environment) writes each class or method cut with a finding into DIR, to read
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import TreeSitter = require('web-tree-sitter');
// The labelled sets' in-memory workspace (the training and regression reports use it too): a folder cut is linted as a
// folder case is.
import { CaseWorkspace } from '../lint-unseen/unseen';

const ROOT = resolve(__dirname, '../..');
const MAX_FILE_CHARS = 300_000;
const MAX_FOLDER_FILES = 4;

interface Args {
  tree: string;
  src: string;
  ws: string;
  alone: string;
  sample?: [number, number];
  repos: string[];
  out?: string;
  modes?: string[];
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    tree: ROOT,
    src: process.env.RESCAN_SRC ?? join(ROOT, '.cache', 'lint-scan-src'),
    ws: '',
    alone: '',
    repos: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[++i];
    if (v === undefined) throw new Error(`${k} needs a value`);
    if (k === '--tree') a.tree = resolve(v);
    else if (k === '--src') a.src = resolve(v);
    else if (k === '--ws') a.ws = v;
    else if (k === '--alone') a.alone = v;
    else if (k === '--repo') a.repos.push(v);
    else if (k === '--out') a.out = v;
    else if (k === '--modes') a.modes = v.split(',');
    else if (k === '--sample') {
      const m = /^(\d+)\/(\d+)$/.exec(v);
      if (!m) throw new Error('--sample N/M');
      a.sample = [Number(m[1]), Number(m[2])];
    } else throw new Error(`unknown argument ${k}`);
  }
  if (a.ws === '' || a.alone === '') throw new Error("--ws and --alone are required: rescan.sh's workspace and alone TSVs of the base build");
  return a;
}

const SOFTMAX = /softmax/;
const PRODUCT = /matmul|einsum|\bbmm\b|\s@\s|\)@|\]@/;
const API =
  /scaled_dot_product_attention|MultiheadAttention|multi_head_attention_forward|flash_attn_func|memory_efficient_attention|dot_product_attention|MultiHeadAttention\(/;

/** Attention code: a softmax plus a product, or an attention API call. */
function hasAttention(text: string): boolean {
  return (SOFTMAX.test(text) && PRODUCT.test(text)) || API.test(text);
}

function walkPy(root: string, rel = '', out: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(join(root, rel)).sort();
  } catch {
    return out;
  }
  for (const e of entries) {
    const r = rel === '' ? e : `${rel}/${e}`;
    const full = join(root, r);
    let st;
    try {
      st = statSync(full);
    } catch {
      continue;
    }
    if (st.isDirectory()) walkPy(root, r, out);
    else if (e.endsWith('.py') && st.size <= MAX_FILE_CHARS) out.push(r);
  }
  return out;
}

type Node = TreeSitter.Node;

interface ImportRef {
  level: number;
  module: string[];
  names: string[];
}

function importsOf(root: Node): ImportRef[] {
  const refs: ImportRef[] = [];
  const visit = (n: Node, depth: number) => {
    if (n.type === 'import_statement') {
      for (const c of n.namedChildren) {
        if (!c) continue;
        const d = c.type === 'aliased_import' ? c.childForFieldName('name') : c;
        if (d && d.type === 'dotted_name') refs.push({ level: 0, module: d.text.split('.'), names: [] });
      }
      return;
    }
    if (n.type === 'import_from_statement') {
      const m = n.childForFieldName('module_name');
      if (!m) return;
      let level = 0;
      let module: string[] = [];
      if (m.type === 'relative_import') {
        for (const c of m.children) {
          if (!c) continue;
          if (c.type === 'import_prefix') level = c.text.length;
          else if (c.type === 'dotted_name') module = c.text.split('.');
        }
      } else module = m.text.split('.');
      const names: string[] = [];
      for (const c of n.childrenForFieldName('name')) {
        if (!c) continue;
        const d = c.type === 'aliased_import' ? c.childForFieldName('name') : c;
        if (d) names.push(d.text);
      }
      refs.push({ level, module, names });
      return;
    }
    // Imports inside try/if blocks and functions count too (lazy imports).
    if (depth > 6) return;
    for (const c of n.namedChildren) if (c) visit(c, depth + 1);
  };
  visit(root, 0);
  return refs;
}

/** The repository files an import refers to (module files, and submodules named by `from X import name`). */
function resolveImport(from: string, ref: ImportRef, files: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const tryBase = (base: string): boolean => {
    const hits: string[] = [];
    const mod = ref.module.length > 0 ? posix.join(base, ...ref.module) : base;
    for (const c of [`${mod}.py`, `${mod}/__init__.py`]) if (files.has(c.replace(/^\.\//, ''))) hits.push(c.replace(/^\.\//, ''));
    for (const n of ref.names) {
      for (const c of [`${mod}/${n}.py`, `${mod}/${n}/__init__.py`]) if (files.has(c.replace(/^\.\//, ''))) hits.push(c.replace(/^\.\//, ''));
    }
    found.push(...hits);
    return hits.length > 0;
  };
  const dir = posix.dirname(from);
  if (ref.level > 0) {
    let base = dir === '.' ? '' : dir;
    for (let i = 1; i < ref.level; i++) base = posix.dirname(base) === '.' ? '' : posix.dirname(base);
    tryBase(base === '' ? '.' : base);
  } else {
    if (ref.module.length === 0) return [];
    // Absolute imports: from the nearest ancestor directory that holds the module (package roots such as src/).
    let base = dir === '.' ? '' : dir;
    for (;;) {
      if (tryBase(base === '' ? '.' : base)) break;
      if (base === '') break;
      base = posix.dirname(base) === '.' ? '' : posix.dirname(base);
    }
  }
  return [...new Set(found)].filter((p) => p !== from);
}

function distance(a: string, b: string): number {
  const da = posix
    .dirname(a)
    .split('/')
    .filter((s) => s !== '.');
  const db = posix
    .dirname(b)
    .split('/')
    .filter((s) => s !== '.');
  let common = 0;
  while (common < da.length && common < db.length && da[common] === db[common]) common++;
  return da.length + db.length - 2 * common;
}

function nearest(from: string, paths: Iterable<string>, cap: number): string[] {
  return [...new Set(paths)].sort((x, y) => distance(from, x) - distance(from, y) || x.localeCompare(y)).slice(0, cap);
}

/** Top-level statements kept in every class cut: imports, module-level assignments, and try/if blocks of imports. */
function isPreamble(n: Node): boolean {
  if (n.type === 'import_statement' || n.type === 'import_from_statement' || n.type === 'future_import_statement') return true;
  if (n.type === 'expression_statement') {
    const c = n.namedChildren[0];
    return !!c && (c.type === 'assignment' || c.type === 'augmented_assignment');
  }
  if (n.type === 'try_statement' || n.type === 'if_statement') {
    // Only blocks that hold imports (optional dependencies: `try: import flash_attn`), not `if __name__ == ...`.
    return /\bimport\b/.test(n.text) && !/__name__/.test(n.text) && !/\bdef\b|\bclass\b/.test(n.text);
  }
  return false;
}

function definitionOf(n: Node): Node | undefined {
  if (n.type === 'class_definition' || n.type === 'function_definition') return n;
  if (n.type === 'decorated_definition') {
    const d = n.childForFieldName('definition');
    return d ?? undefined;
  }
  return undefined;
}

interface Cut {
  name: string;
  text: string;
  /** Line (1-based) in the cut → line (1-based) in F. */
  lines: number[];
}

function classCuts(source: string, root: Node): Cut[] {
  const srcLines = source.split('\n');
  const preamble: Array<[number, number]> = [];
  const defs: Array<{ name: string; range: [number, number] }> = [];
  for (const n of root.namedChildren) {
    if (!n) continue;
    const range: [number, number] = [n.startPosition.row, n.endPosition.row];
    if (isPreamble(n)) preamble.push(range);
    else {
      const d = definitionOf(n);
      if (d && hasAttention(n.text)) defs.push({ name: d.childForFieldName('name')?.text ?? '?', range });
    }
  }
  return defs.map(({ name, range }) => {
    const rows = new Set<number>();
    for (const [a, b] of [...preamble, range]) for (let r = a; r <= b; r++) rows.add(r);
    const sorted = [...rows].sort((x, y) => x - y);
    return { name, text: sorted.map((r) => srcLines[r] ?? '').join('\n') + '\n', lines: sorted.map((r) => r + 1) };
  });
}

/**
 * Method cuts: for each class holding attention code and each of its methods that holds it, the class cut without
 * the class's other methods (its header, class-level statements and `__init__` stay): a curator's cut of a
 * module to the attention method and how its scale and mask arrive. Only classes with a method to drop.
 */
function methodCuts(source: string, root: Node): Cut[] {
  const srcLines = source.split('\n');
  const preamble: Array<[number, number]> = [];
  const classes: Node[] = [];
  for (const n of root.namedChildren) {
    if (!n) continue;
    if (isPreamble(n)) preamble.push([n.startPosition.row, n.endPosition.row]);
    else {
      const d = definitionOf(n);
      if (d && d.type === 'class_definition' && hasAttention(n.text)) classes.push(n);
    }
  }
  const out: Cut[] = [];
  for (const n of classes) {
    const cls = definitionOf(n)!;
    const body = cls.childForFieldName('body');
    if (!body) continue;
    const header: [number, number] = [n.startPosition.row, Math.max(n.startPosition.row, body.startPosition.row - 1)];
    const keep: Array<[number, number]> = [];
    const methods: Array<{ name: string; range: [number, number]; attention: boolean }> = [];
    for (const s of body.namedChildren) {
      if (!s) continue;
      const range: [number, number] = [s.startPosition.row, s.endPosition.row];
      const d = definitionOf(s);
      if (d && d.type === 'function_definition') {
        methods.push({ name: d.childForFieldName('name')?.text ?? '?', range, attention: hasAttention(s.text) || /softmax/.test(s.text) });
      } else if (s.type !== 'comment') keep.push(range);
    }
    const init = methods.find((m) => m.name === '__init__');
    const targets = methods.filter((m) => m.attention && m.name !== '__init__');
    if (methods.length <= (init ? 2 : 1)) continue; // nothing to drop
    for (const t of targets) {
      const rows = new Set<number>();
      for (const [a, b] of [...preamble, header, ...keep, ...(init ? [init.range] : []), t.range]) for (let r = a; r <= b; r++) rows.add(r);
      const sorted = [...rows].sort((x, y) => x - y);
      out.push({
        name: `${cls.childForFieldName('name')?.text ?? '?'}.${t.name}`,
        text: sorted.map((r) => srcLines[r] ?? '').join('\n') + '\n',
        lines: sorted.map((r) => r + 1),
      });
    }
  }
  return out;
}

/** The identifiers a text names (a cheap reading: every word that could be a name). */
function namesIn(text: string): Set<string> {
  return new Set(text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
}

/**
 * A neighbour of F cut the way a folder case's second file is: its preamble (imports, module-level assignments) plus
 * the top-level classes and functions that F's cut names (`used`) or whose text names F's cut definition (`defName`).
 * Undefined when no definition is kept (the preamble alone is no evidence a curator would keep).
 */
function neighbourCut(source: string, root: Node, used: ReadonlySet<string>, defName: string): string | undefined {
  const srcLines = source.split('\n');
  const rows = new Set<number>();
  let kept = 0;
  const word = new RegExp(`\\b${defName.replace(/[^A-Za-z0-9_]/g, '')}\\b`);
  for (const n of root.namedChildren) {
    if (!n) continue;
    let keep = isPreamble(n);
    if (!keep) {
      const d = definitionOf(n);
      const name = d?.childForFieldName('name')?.text;
      if (d && name && (used.has(name) || word.test(n.text))) {
        keep = true;
        kept++;
      } else if (!d && n.type === 'if_statement' && /__name__/.test(n.text) && word.test(n.text)) {
        // `if __name__ == "__main__":` of a script that builds F's module: the caller.
        keep = true;
        kept++;
      }
    }
    if (keep) for (let r = n.startPosition.row; r <= n.endPosition.row; r++) rows.add(r);
  }
  if (kept === 0) return undefined;
  return (
    [...rows]
      .sort((x, y) => x - y)
      .map((r) => srcLines[r] ?? '')
      .join('\n') + '\n'
  );
}

interface FindingLike {
  code: string;
  line: number;
  message: string;
}
interface LinterLike {
  lintPython(source: string, options?: { path?: string }): FindingLike[];
}

function loadBaseline(path: string): Set<string> {
  const keys = new Set<string>();
  if (!existsSync(path)) return keys;
  for (const l of readFileSync(path, 'utf8').split('\n')) {
    if (l.startsWith('#') || l.trim() === '') continue;
    const [repo, p, line, rule] = l.split('\t');
    keys.add(`${repo}\t${p}\t${line}\t${rule}`);
  }
  return keys;
}

/** CUT_DUMP=DIR writes every class or method cut that has a finding there (its text, then the findings), to read. */
const DUMP = process.env.CUT_DUMP;
function dump(where: string, cut: Cut, found: readonly FindingLike[]): void {
  const name = `${where}#${cut.name}`.replace(/[^\w.#-]+/g, '_');
  const notes = found.map((f) => `# ${f.code} cut line ${f.line} (file line ${cut.lines[f.line - 1]}): ${f.message}`).join('\n');
  writeFileSync(join(DUMP!, `${name}.py`), `${cut.text}\n${notes}\n`);
}

function dumpFolder(where: string, cut: Cut, others: ReadonlyArray<{ path: string; text: string }>, found: readonly FindingLike[]): void {
  const rest = others.map((o) => `\n# ---- neighbour ${o.path} (cut)\n${o.text}`).join('');
  dump(`folder#${where}`, { ...cut, text: cut.text + rest }, found);
}

const MODES = ['imports', 'importers', 'classes', 'methods', 'folders'] as const;
type Mode = (typeof MODES)[number];

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const lint = (await import(join(args.tree, 'src/lint/index.ts'))) as {
    createLinter(w: { treeSitter: Uint8Array; python: Uint8Array }, o: { workspace?: CaseWorkspace }): Promise<LinterLike>;
  };
  const wasm = {
    treeSitter: new Uint8Array(readFileSync(join(args.tree, 'node_modules/web-tree-sitter/web-tree-sitter.wasm'))),
    python: new Uint8Array(readFileSync(join(args.tree, 'node_modules/tree-sitter-python/tree-sitter-python.wasm'))),
  };
  const workspace = new CaseWorkspace();
  const linter = await lint.createLinter(wasm, { workspace });
  const alone = await lint.createLinter(wasm, {});
  // A parser of our own for imports and cuts (the linter's parser keeps its trees private).
  await TreeSitter.Parser.init();
  const parser = new TreeSitter.Parser();
  parser.setLanguage(await TreeSitter.Language.load(wasm.python));

  const on = (m: Mode): boolean => !args.modes || args.modes.includes(m);
  const ws = loadBaseline(args.ws);
  const al = loadBaseline(args.alone);
  const repoLines = readFileSync(join(ROOT, 'test/lint-scan/repos.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.split(/\s+/)[0]);
  const repos = repoLines.filter((r, i) => {
    if (args.repos.length > 0 && !args.repos.includes(r)) return false;
    if (args.sample && i % args.sample[1] !== args.sample[0]) return false;
    return existsSync(join(args.src, r.replace('/', '+')));
  });

  const stats = Object.fromEntries(
    MODES.map((m) => [m, { files: 0, cuts: 0, perRule: new Map<string, number>(), findings: new Map<string, string>() }]),
  ) as Record<Mode, { files: number; cuts: number; perRule: Map<string, number>; findings: Map<string, string> }>;
  const record = (mode: Mode, repo: string, path: string, f: FindingLike, line: number) => {
    const key = `${repo}\t${path}\t${line}\t${f.code}`;
    const s = stats[mode];
    if (s.findings.has(key)) return;
    s.findings.set(key, f.message.replace(/\s+/g, ' '));
    s.perRule.set(f.code, (s.perRule.get(f.code) ?? 0) + 1);
  };
  const started = Date.now();
  let nAttention = 0;
  let errors = 0;

  for (const repo of repos) {
    const dir = join(args.src, repo.replace('/', '+'));
    const paths = walkPy(dir);
    const files = new Set(paths);
    const texts = new Map<string, string>();
    const read = (p: string) => {
      let t = texts.get(p);
      if (t === undefined) {
        try {
          t = readFileSync(join(dir, p), 'utf8');
        } catch {
          t = '';
        }
        texts.set(p, t);
      }
      return t;
    };
    // The import graph of the repository (every file that imports something).
    const importsFrom = new Map<string, string[]>();
    const importers = new Map<string, string[]>();
    for (const p of paths) {
      const t = read(p);
      if (!/\bimport\b/.test(t)) continue;
      const tree = parser.parse(t);
      if (!tree) continue;
      const targets = new Set<string>();
      for (const ref of importsOf(tree.rootNode)) for (const r of resolveImport(p, ref, files)) targets.add(r);
      tree.delete();
      importsFrom.set(p, [...targets]);
      for (const q of targets) {
        const list = importers.get(q) ?? [];
        list.push(p);
        importers.set(q, list);
      }
    }
    for (const p of paths) {
      const text = read(p);
      if (!hasAttention(text)) continue;
      nAttention++;
      const folder = (mode: Mode, others: string[]) => {
        if (others.length === 0) return;
        const chosen = nearest(p, others, MAX_FOLDER_FILES - 1);
        workspace.use(`${repo}:${mode}:${p}`, [{ path: p, text }, ...chosen.map((q) => ({ path: q, text: read(q) }))]);
        stats[mode].files++;
        stats[mode].cuts++;
        try {
          for (const f of linter.lintPython(text, { path: p })) record(mode, repo, p, f, f.line);
        } catch {
          errors++;
        }
      };
      if (on('imports')) folder('imports', importsFrom.get(p) ?? []);
      if (on('importers')) folder('importers', importers.get(p) ?? []);
      const tree = parser.parse(text);
      if (!tree) continue;
      const cuts = classCuts(text, tree.rootNode);
      const mcuts = methodCuts(text, tree.rootNode);
      tree.delete();
      if (on('folders')) {
        const neighbours = nearest(p, [...(importsFrom.get(p) ?? []), ...(importers.get(p) ?? [])], MAX_FOLDER_FILES - 1);
        let any = false;
        for (const cut of cuts) {
          const used = namesIn(cut.text);
          const others: Array<{ path: string; text: string }> = [];
          for (const q of neighbours) {
            const qt = read(q);
            const qtree = parser.parse(qt);
            if (!qtree) continue;
            const c = neighbourCut(qt, qtree.rootNode, used, cut.name);
            qtree.delete();
            if (c !== undefined) others.push({ path: q, text: c });
          }
          if (others.length === 0) continue;
          any = true;
          stats.folders.cuts++;
          workspace.use(`${repo}:folders:${p}#${cut.name}`, [{ path: p, text: cut.text }, ...others]);
          try {
            const found = linter.lintPython(cut.text, { path: p });
            for (const f of found) record('folders', repo, p, f, cut.lines[f.line - 1] ?? -1);
            if (DUMP && found.length > 0) dumpFolder(`${repo}/${p}`, cut, others, found);
          } catch {
            errors++;
          }
        }
        if (any) stats.folders.files++;
      }
      for (const [mode, list] of [...(on('methods') ? [['methods', mcuts] as const] : []), ...(on('classes') ? [['classes', cuts] as const] : [])]) {
        if (list.length > 0) stats[mode].files++;
        for (const cut of list) {
          stats[mode].cuts++;
          try {
            const found = alone.lintPython(cut.text);
            for (const f of found) record(mode, repo, p, f, cut.lines[f.line - 1] ?? -1);
            if (DUMP && found.length > 0) dump(`${repo}/${p}`, cut, found);
          } catch {
            errors++;
          }
        }
      }
    }
  }

  const secs = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`# cut scan: tree ${args.tree}, ${repos.length} repositories, ${nAttention} files with attention code, ${secs} s, ${errors} lint errors`);
  const all: string[] = [];
  for (const mode of MODES) {
    if (!on(mode)) continue;
    const s = stats[mode];
    const rules = [...s.perRule.entries()]
      .sort()
      .map(([r, n]) => `${r} ${n}`)
      .join(', ');
    const fresh = [...s.findings.entries()].filter(([k]) => !ws.has(k) && !al.has(k));
    console.log(`## ${mode}: ${s.files} files, ${s.cuts} cuts, ${s.findings.size} findings (${rules || 'none'}); ${fresh.length} in neither baseline`);
    for (const [k, m] of [...s.findings.entries()].sort()) {
      const line = `${mode}\t${k}\t${ws.has(k) ? 'ws' : '-'}\t${al.has(k) ? 'alone' : '-'}\t${m}`;
      all.push(line);
      if (!ws.has(k) && !al.has(k)) console.log(line);
    }
  }
  if (args.out) writeFileSync(args.out, all.join('\n') + '\n');
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(2);
});
