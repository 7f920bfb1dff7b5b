// Evidence in the files that import the linted one. A model file rarely says it runs in float16; its trainer
// does (`GradScaler()`, `autocast()`, `.half()`, `--fp16`). The files that can import it sit in its directory
// or above it; each is read once per version (its import lines and its precision evidence, no parse), and a
// file that imports the linted one and runs in half precision makes the linted file's fills judged in it.
import { fullPrecisionAt, precisionEvidenceAt, sourcePrecision, type PrecisionEvidence } from './precision';
import { dirOf, moduleBases, moduleFile, type ModuleLink, type WorkspaceFiles } from './workspace';

/** Files looked at, at most, per lint (the directory of the linted file, those above it and beside those). */
const MAX_CANDIDATES = 200;
/** Directories beside the linted file's and its parents' that are listed, at most, per lint (a monorepo's root). */
const MAX_SIBLING_DIRS = 64;

/** What a walk over possible importers reads of every candidate: its import statements, nothing else. */
export interface ImporterFacts {
  /** Modules named by the file's import statements: [level, dotted parts, imported names]. */
  readonly imports: readonly { level: number; parts: string[]; names: string[] }[];
}

/**
 * The precision evidence of a file that does import the linted one (read only for those: most candidates of a walk
 * import something else, and these regular expressions run over the whole text).
 */
interface ImporterPrecisionFacts {
  readonly precision: PrecisionEvidence;
  readonly at?: { line: number; column: number };
  /** Where the file's code sets full precision on purpose (`fp16=False`, `dtype=torch.float32`), if it does. */
  readonly fullAt?: { line: number; column: number };
  /** The file turns autocast off somewhere (`autocast(enabled=False)`): what it calls runs in float32 there. */
  readonly autocastOff?: boolean;
  /** The array frameworks the file imports (`torch`, `tensorflow`, `jax`), by its import lines. */
  readonly frameworks: readonly Framework[];
}

type Framework = 'torch' | 'tensorflow' | 'jax';

/** The array frameworks a source imports: `torch`; `tensorflow` or `keras`; `jax` or `flax`. */
function frameworksOf(source: string): Framework[] {
  const out: Framework[] = [];
  if (/^[ \t]*(?:import|from)[ \t]+torch\b/m.test(source)) out.push('torch');
  if (/^[ \t]*(?:import|from)[ \t]+(?:tensorflow|keras|tf_keras)\b/m.test(source)) out.push('tensorflow');
  if (/^[ \t]*(?:import|from)[ \t]+(?:jax|flax)\b/m.test(source)) out.push('jax');
  return out;
}

/**
 * Precision evidence in a file of one framework says nothing of a file of another: a PyTorch conversion script
 * that calls `.half()` on the PyTorch model (and imports the package for it) does not run the TensorFlow or Flax
 * model file in float16. Only when both files name their frameworks and share none.
 */
function otherFramework(linted: readonly Framework[], importer: readonly Framework[]): boolean {
  return linted.length > 0 && importer.length > 0 && !importer.some((f) => linted.includes(f));
}

const FROM_IMPORT = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w, \t]+|\*)/gm;
const PLAIN_IMPORT = /^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/gm;

const AUTOCAST_OFF = /autocast\s*\([^)]*\benabled\s*=\s*False\b/;

export function readFacts(source: string): ImporterFacts {
  const imports: { level: number; parts: string[]; names: string[] }[] = [];
  for (const m of source.matchAll(FROM_IMPORT)) {
    imports.push({
      level: (m[1] ?? '').length, // the groups of a match are there (empty or not)
      parts: m[2] ? m[2].split('.') : [],
      names: (m[3] ?? '')
        .split(',')
        .map((n) => n.trim().split(/\s+/)[0] ?? '')
        .filter((n) => n.length > 0),
    });
  }
  for (const m of source.matchAll(PLAIN_IMPORT)) {
    for (const item of (m[1] ?? '').split(',')) imports.push({ level: 0, parts: (item.trim().split(/\s+/)[0] ?? '').split('.'), names: [] });
  }
  return { imports };
}

function readPrecisionFacts(source: string): ImporterPrecisionFacts {
  const precision = sourcePrecision(source);
  const at = precision.fp16 || precision.bf16 ? precisionEvidenceAt(source, precision.fp16 ? 'fp16' : 'bf16') : undefined;
  const autocastOff = AUTOCAST_OFF.test(source);
  const fullAt = fullPrecisionAt(source);
  return {
    precision,
    ...(at ? { at } : {}),
    ...(fullAt ? { fullAt } : {}),
    ...(autocastOff ? { autocastOff } : {}),
    frameworks: frameworksOf(source),
  };
}

/** Facts of the files a lint has looked at (each file's version is asked once per lint, not once per question). */
const factsPerLint = new WeakMap<ModuleLink, Map<string, ImporterFacts | undefined>>();

function factsOf(link: ModuleLink, candidate: string): ImporterFacts | undefined {
  let seen = factsPerLint.get(link);
  if (!seen) factsPerLint.set(link, (seen = new Map()));
  if (seen.has(candidate)) return seen.get(candidate);
  const facts = link.workspace.textFacts(candidate, readFacts);
  seen.set(candidate, facts);
  return facts;
}

/** Whether `importer` imports the module at `target` (by any form of import statement). */
export function importsFile(files: WorkspaceFiles, importer: string, facts: ImporterFacts, target: string): boolean {
  for (const imp of facts.imports) {
    for (const base of moduleBases(files, importer, imp.level)) {
      if (moduleFile(files, base, imp.parts) === target) return true;
      for (const name of imp.names) if (moduleFile(files, base, [...imp.parts, name]) === target) return true;
    }
  }
  return false;
}

/**
 * The workspace files near the linted one (its directory, those above it, and the directories beside those), the
 * candidates an importer walk looks at, whether or not they import it; at most MAX_CANDIDATES. Files a caller reads
 * must be noted as dependencies by that caller.
 */
export function nearbyFiles(link: ModuleLink): readonly string[] {
  if (!link.workspace.files.listPython) return [];
  return candidates(link, false);
}

/** The candidates of one lint: those near the linted file, and (once asked for) all of them. */
interface Candidates {
  readonly near: readonly string[];
  all?: readonly string[];
}

/** The linted file's directory and those above it, nearest first. */
function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirOf(path); ; dir = dirOf(dir)) {
    out.push(dir);
    if (dir === '') return out;
  }
}

/**
 * The files that may import the linted one, nearest first: its directory and those above it (`near`: only
 * those), then the directories beside those (`scripts/` next to `models/`) when the workspace can list
 * directories; at most MAX_CANDIDATES, each list made once per lint.
 */
function candidates(link: ModuleLink, near: boolean): readonly string[] {
  const files = link.workspace.files;
  const ancestors = ancestorsOf(link.path);
  const add = (out: string[], dir: string): void => {
    for (const f of files.listPython?.(dir) ?? []) if (f !== link.path && out.length < MAX_CANDIDATES) out.push(f);
  };
  let known = candidatesPerLint.get(link);
  if (!known) {
    const nearOnes: string[] = [];
    for (const dir of ancestors) add(nearOnes, dir);
    candidatesPerLint.set(link, (known = { near: nearOnes }));
  }
  if (near) return known.near;
  if (known.all) return known.all;
  const out = [...known.near];
  if (files.listDirs) {
    let listed = 0;
    for (const dir of ancestors) {
      for (const sibling of files.listDirs(dir)) {
        if (out.length >= MAX_CANDIDATES || ++listed > MAX_SIBLING_DIRS) break;
        if (!ancestors.includes(sibling)) add(out, sibling);
      }
    }
  }
  return (known.all = out);
}

const candidatesPerLint = new WeakMap<ModuleLink, Candidates>();

/** The module name every import of a file spells (`masks` for pkg/masks.py, `pkg` for pkg/__init__.py). */
function moduleNameOf(path: string): string | undefined {
  const stem = path.replace(/\.py$/, '').split('/');
  return stem[stem.length - 1] === '__init__' ? stem[stem.length - 2] : stem[stem.length - 1];
}

/** A file a walk may find imported, with the module name every import of it spells. */
interface Target {
  readonly path: string;
  readonly name: string | undefined;
}

/**
 * Which of `targets` `candidate` (with its facts) imports, if any: a test on the names first (a star import passes
 * it when `star`), then the resolution.
 */
function importedTarget(files: WorkspaceFiles, candidate: string, facts: ImporterFacts, targets: readonly Target[], star: boolean): string | undefined {
  for (const { path, name } of targets) {
    if (name === undefined || !facts.imports.some((i) => i.parts.includes(name) || i.names.includes(name) || (star && i.names.includes('*')))) continue;
    if (importsFile(files, candidate, facts, path)) return path;
  }
  return undefined;
}

/** What a walk over the importing files does after a file it reached: go on from it, not from it, or stop. */
type Then = 'follow' | 'leaf' | 'stop';

/**
 * The walk every question about importing files makes: the candidates (all, or only the `near` ones: the linted
 * file's directory and those above it), in order, hop by hop; at each hop the files that import the linted file
 * or a file the previous hop reached and followed (`imported`: which). Each file reached is noted as a dependency
 * of the lint, then visited.
 */
function walkImporters(
  link: ModuleLink,
  options: { hops: number; near: boolean; star: boolean },
  visit: (candidate: string, facts: ImporterFacts, imported: string) => Then,
): void {
  const files = link.workspace.files;
  if (!files.listPython) return;
  const within = candidates(link, options.near);
  const reached = new Set<string>([link.path]);
  let frontier: string[] = [link.path];
  for (let hop = 0; hop < options.hops && frontier.length > 0; hop++) {
    const next: string[] = [];
    const targets = frontier.map((path) => ({ path, name: moduleNameOf(path) }));
    for (const candidate of within) {
      if (reached.has(candidate)) continue;
      const facts = factsOf(link, candidate);
      const imported = facts ? importedTarget(files, candidate, facts, targets, options.star) : undefined;
      if (!facts || imported === undefined) continue;
      reached.add(candidate);
      link.deps.set(candidate, files.version(candidate));
      const then = visit(candidate, facts, imported);
      if (then === 'stop') return;
      if (then === 'follow') next.push(candidate);
    }
    frontier = next;
  }
}

/** Files between the linted one and the file that sets half precision, at most (model ← layers ← net ← train). */
const MAX_CHAIN = 3;

/**
 * Half-precision evidence from a workspace file that imports the linted one, directly or through a chain of up
 * to MAX_CHAIN importing files (a trainer importing the network that imports the attention module), found in
 * the linted file's directory, those above it and the directories beside those; or undefined. A file of the
 * chain that turns autocast off (`autocast(enabled=False)`, the attention run in float32) stops it there, the
 * linted file too. Failing that, a file of the chain whose code sets full precision (`fp16=False`,
 * `dtype=torch.float32`): evidence of float32 (`float32From`), which outranks the linted file's prose. The files read
 * are noted as dependencies of the lint.
 */
export function importerPrecision(link: ModuleLink, source: string): PrecisionEvidence | undefined {
  if (AUTOCAST_OFF.test(source)) return undefined;
  const lintedFrameworks = frameworksOf(source);
  // Each file reached → the file of the chain it imports (the linted file for a direct importer).
  const imports = new Map<string, string>();
  let found: PrecisionEvidence | undefined;
  let float32From: PrecisionEvidence['float32From'];
  walkImporters(link, { hops: MAX_CHAIN, near: false, star: true }, (candidate, _imports, target) => {
    imports.set(candidate, target);
    const facts = link.workspace.textFacts(candidate, readPrecisionFacts);
    if (!facts) return 'leaf';
    if (!float32From && facts.fullAt && !facts.at && !otherFramework(lintedFrameworks, facts.frameworks)) float32From = { path: candidate, ...facts.fullAt };
    if ((facts.precision.fp16 || facts.precision.bf16) && facts.at && !otherFramework(lintedFrameworks, facts.frameworks)) {
      // The files between: the one that imports the linted file first.
      const via: string[] = [];
      for (let f = target; f !== link.path; f = imports.get(f) ?? link.path) via.unshift(f);
      const from = { path: candidate, line: facts.at.line, column: facts.at.column, ...(via.length > 0 ? { via } : {}) };
      found = { fp16: facts.precision.fp16, bf16: facts.precision.bf16, ...autocastOnly(facts.precision), from };
      return 'stop';
    }
    return facts.autocastOff ? 'leaf' : 'follow';
  });
  // No importer runs the file in half precision, and one sets full precision in its code: that code is the evidence.
  return found ?? (float32From ? { fp16: false, bf16: false, float32From } : undefined);
}

/** A class of the file deriving from a torch module (`class Net(nn.Module)`): the file builds a model of its own. */
const OWN_MODULE_CLASS = /^[ \t]*class[ \t]+\w+[ \t]*\([^)]*\b(?:nn\.|torch\.nn\.)?Module[ \t]*[,)]/m;

/** Whether any import statement of `path` names a module of the workspace (a file or a package it holds). */
function importsWorkspaceModule(files: WorkspaceFiles, path: string, facts: ImporterFacts): boolean {
  for (const imp of facts.imports) {
    for (const base of moduleBases(files, path, imp.level)) {
      if (moduleFile(files, base, imp.parts) !== undefined) return true;
      for (const name of imp.names) if (moduleFile(files, base, [...imp.parts, name]) !== undefined) return true;
    }
  }
  return false;
}

/**
 * Half-precision evidence from the training loop of the linted file's package: a module beside it (same directory)
 * whose code runs in float16 or bfloat16 (`autocast()`, `GradScaler()`, `.half()`, as sourcePrecision reads it) and
 * that runs a model it is given, not one it names: it imports no workspace module and defines no torch module class
 * of its own (`def train(model, loader, scaler)`, `Trainer.__init__(self, model, ...)` then `self.model(batch)` under
 * autocast), so the only model it can run is the package's. Asked only when no importing file decides the precision
 * (importerPrecision) and the linted file says nothing of its precision, in code or prose; only in a package (an
 * `__init__.py` beside the file: a folder of standalone scripts is no package whose model one of them trains). Not a file of another framework, nor one that turns autocast off anywhere (part of what it
 * runs is then float32 on purpose), nor `__init__.py`. The files read are noted as dependencies of the lint.
 */
export function packageTrainerPrecision(link: ModuleLink, source: string): PrecisionEvidence | undefined {
  const files = link.workspace.files;
  if (!files.listPython || AUTOCAST_OFF.test(source)) return undefined;
  const lintedFrameworks = frameworksOf(source);
  const beside = files.listPython(dirOf(link.path));
  // A package (its `__init__.py` beside the file), not a folder of standalone scripts each running its own code.
  if (!beside.some(isPackageInit)) return projectTrainerPrecision(link, lintedFrameworks);
  for (const candidate of beside) {
    if (candidate === link.path || isPackageInit(candidate)) continue;
    const facts = factsOf(link, candidate);
    const prec = link.workspace.textFacts(candidate, readPrecisionFacts);
    if (!facts || !prec) continue;
    link.deps.set(candidate, files.version(candidate));
    const p = prec.precision;
    if (!(p.fp16 || p.bf16) || p.fromProse || !prec.at || prec.autocastOff || otherFramework(lintedFrameworks, prec.frameworks)) continue;
    if (importsWorkspaceModule(files, candidate, facts)) continue;
    if (link.workspace.textFacts(candidate, (src) => OWN_MODULE_CLASS.test(src))) continue;
    return { fp16: p.fp16, bf16: p.bf16, ...autocastOnly(p), from: { path: candidate, line: prec.at.line, column: prec.at.column, package: true } };
  }
  return projectTrainerPrecision(link, lintedFrameworks);
}

/** The importing file's evidence is CUDA autocast's only (precision.ts): carried with it. */
function autocastOnly(p: PrecisionEvidence): { autocastOnly?: true } {
  return p.autocastOnly ? { autocastOnly: true } : {};
}

/** A training loop: a gradient step written in the file (`loss.backward()`, `scaler.scale(loss).backward()`). */
const TRAINING_STEP = /\.backward[ \t]*\(/;
/** Past these many directories beside the linted file's, or files read, the project is too large to have one loop. */
const MAX_PROJECT_DIRS = 12;
const MAX_PROJECT_FILES = 60;

/**
 * Half-precision evidence from the project's only training loop, in a folder beside the linted file's
 * (`transformer/attention.py` with `training/trainer.py`, `modelling/attention.py` with `run/train_model.py`) or in
 * their parent: among the Python files of the linted file's directory, of its parent and of the parent's other
 * directories, exactly one takes a gradient step (`.backward(`), and that one runs in float16 or bfloat16 in its
 * code the model it is given, as packageTrainerPrecision requires of a trainer beside the file (it imports no
 * workspace module, defines no torch module of its own, never turns autocast off, is no file of another framework).
 * The project then trains only through that loop, and the only model it can run is the project's. Not when a second
 * file takes a gradient step (a float32 loop, another model's trainer: which runs this file is not shown), when the
 * linted file is at the workspace root, or when the parent holds more than MAX_PROJECT_DIRS directories or the files
 * read exceed MAX_PROJECT_FILES (a repository of many projects). Every file read is noted as a dependency.
 */
function projectTrainerPrecision(link: ModuleLink, lintedFrameworks: ReturnType<typeof frameworksOf>): PrecisionEvidence | undefined {
  const files = link.workspace.files;
  const own = dirOf(link.path);
  if (!files.listPython || !files.listDirs || own === '') return undefined;
  const parent = dirOf(own);
  const dirs = files.listDirs(parent);
  if (dirs.length > MAX_PROJECT_DIRS + 1) return undefined;
  const candidates = [...files.listPython(parent)];
  for (const d of dirs) {
    candidates.push(...files.listPython(d));
    if (candidates.length > MAX_PROJECT_FILES) return undefined;
  }
  let trainer: string | undefined;
  for (const candidate of candidates) {
    if (candidate === link.path) continue;
    link.deps.set(candidate, files.version(candidate));
    if (!link.workspace.textFacts(candidate, (src) => TRAINING_STEP.test(src))) continue;
    if (trainer !== undefined || dirOf(candidate) === own) return undefined;
    trainer = candidate;
  }
  if (trainer === undefined) return undefined;
  const facts = factsOf(link, trainer);
  const prec = link.workspace.textFacts(trainer, readPrecisionFacts);
  if (!facts || !prec) return undefined;
  const p = prec.precision;
  if (!(p.fp16 || p.bf16) || p.fromProse || !prec.at || prec.autocastOff || otherFramework(lintedFrameworks, prec.frameworks)) return undefined;
  if (importsWorkspaceModule(files, trainer, facts)) return undefined;
  if (link.workspace.textFacts(trainer, (src) => OWN_MODULE_CLASS.test(src))) return undefined;
  return { fp16: p.fp16, bf16: p.bf16, ...autocastOnly(p), from: { path: trainer, line: prec.at.line, column: prec.at.column, project: true } };
}

/**
 * Workspace files that import the linted one directly or through at most `hops - 1` importing files between (a
 * generate.py importing the model that imports the attention module), nearest first, at most `max`; the same
 * candidates as importerPrecision. Each file reached is noted as a dependency of the lint.
 */
export function importingChain(link: ModuleLink, hops: number, max: number): string[] {
  return importing(link, { hops, near: false, star: true }, max);
}

/**
 * Workspace files that import the linted file, at most `max`; each noted as a dependency. Found in its directory and
 * those above, and with `beside` also in the directories beside them (a model in models/ importing a layer of
 * layers/), nearest first. Read as the import resolution reads them (workspace.ts, cross-file.ts): a star import
 * counts (`from pkg.model import *`, `from . import *`), and a package's `__init__.py` that imports the linted file
 * (star or by name) passes it on, so the files importing that package are its importers too (`from pkg import *`,
 * `from pkg import Encoder`).
 */
export function importingFiles(link: ModuleLink, max: number, beside = false): string[] {
  const out: string[] = [];
  if (max <= 0) return out;
  // The second hop goes only through a package's __init__.py (a re-export), never through an ordinary module.
  walkImporters(link, { hops: 2, near: !beside, star: true }, (candidate) => {
    out.push(candidate);
    if (out.length >= max) return 'stop';
    return isPackageInit(candidate) ? 'follow' : 'leaf';
  });
  return out;
}

const isPackageInit = (path: string): boolean => path === '__init__.py' || path.endsWith('/__init__.py');

/** The files a walk reaches, every one followed, at most `max`. */
function importing(link: ModuleLink, options: { hops: number; near: boolean; star: boolean }, max: number): string[] {
  const out: string[] = [];
  if (max <= 0) return out;
  walkImporters(link, options, (candidate) => {
    out.push(candidate);
    return out.length >= max ? 'stop' : 'follow';
  });
  return out;
}
