// The metamorphic harness on a directory of repositories (`--repos DIR`): real code without labels. Each
// repository's Python files that hold attention code are one workspace case (a large repository is cut into
// several cases of at most MAX_CASE_FILES files, in path order); the repository's other Python files stay
// readable to the linter (imports, importers) but are neither rewritten nor linted. Every finding the rewritten
// form gains is false by construction (the rewrite keeps the meaning), unless the rewrite changed it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseContext, MetaCase } from './harness';

/** What makes a file hold attention code: a mask API, an attention kernel, or a softmax beside a product. */
const MASK_OR_KERNEL = /masked_fill|attn_mask|attention_mask|key_padding_mask|is_causal|scaled_dot_product_attention/;
const SOFTMAX = /softmax/;
const PRODUCT = /@|matmul|einsum|\bbmm\(|\.dot\(/;

export function holdsAttentionCode(text: string): boolean {
  return MASK_OR_KERNEL.test(text) || (SOFTMAX.test(text) && PRODUCT.test(text));
}

/** Files longer than this are left out (generated tables, vendored bundles); the linter's dense-file bench is 4,900 lines. */
export const MAX_FILE_LINES = 5000;
/** At most this many attention files per case. */
export const MAX_CASE_FILES = 40;
const SKIP_DIRS = new Set(['.git', 'node_modules', '__pycache__', '.tox', '.venv', 'venv', 'site-packages']);

/** Every `.py` file under root, '/'-separated relative paths, sorted. */
export function listPythonFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(join(root, rel)).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const r = rel === '' ? n : `${rel}/${n}`;
      let st;
      try {
        st = statSync(join(root, r));
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(n)) walk(r);
      } else if (st.isFile() && n.endsWith('.py')) out.push(r);
    }
  };
  walk('');
  return out;
}

/** A case of the repos mode: its attention files (rewritten, linted) and where the rest of the repository is read from. */
export type RepoCase = MetaCase & { context: CaseContext };

/** A seeded shuffle (mulberry32), so a `--limit` sample is the same on every run. */
export function seededOrder<T>(xs: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const rnd = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export interface RepoOptions {
  /** How many repositories (after the seeded shuffle). */
  limit?: number;
  /** Only repositories whose directory name matches. */
  grep?: RegExp;
  seed?: number;
}

/** The cases of a directory of repositories (one subdirectory per repository). */
export function loadRepoCases(dir: string, opts: RepoOptions = {}): { cases: RepoCase[]; repos: string[]; skipped: string[] } {
  let repos = readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isDirectory())
    .sort();
  if (opts.grep) repos = repos.filter((r) => opts.grep!.test(r));
  repos = seededOrder(repos, opts.seed ?? 32);
  if (opts.limit !== undefined) repos = repos.slice(0, opts.limit);
  repos.sort();
  const cases: RepoCase[] = [];
  const skipped: string[] = [];
  for (const repo of repos) {
    const root = join(dir, repo);
    const pythonPaths = listPythonFiles(root);
    const attention: Array<{ path: string; text: string }> = [];
    for (const p of pythonPaths) {
      let text: string;
      try {
        text = readFileSync(join(root, p), 'utf8');
      } catch {
        continue;
      }
      if (!holdsAttentionCode(text)) continue;
      if (text.split('\n').length > MAX_FILE_LINES) {
        skipped.push(`${repo}/${p}`);
        continue;
      }
      attention.push({ path: p, text });
    }
    for (let i = 0; i < attention.length; i += MAX_CASE_FILES) {
      const part = attention.length > MAX_CASE_FILES ? `#${i / MAX_CASE_FILES + 1}` : '';
      cases.push({
        set: 'repos',
        name: `${repo}${part}`,
        files: attention.slice(i, i + MAX_CASE_FILES),
        expected: new Set(),
        label: 'correct',
        context: { root, pythonPaths },
      });
    }
  }
  return { cases, repos, skipped };
}
