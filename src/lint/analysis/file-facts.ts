// Facts about a whole file that rules consult at every site, computed once per file, on first use. Asked
// per site (a regex over the whole source, a loop over every definition or comment), they made lint time
// grow with sites × file size: a 40,000-line file took over a minute.
import type { PyNode, PyTree } from '../syntax/tree';
import type { Def, ScopeResult } from './scopes';

export class FileFacts {
  private readonly flags = new Map<string, boolean>();
  private defsByName: Map<string, Def[]> | undefined;
  private defsByScopeAndName: Map<number, Map<string, Def[]>> | undefined;
  private readonly perNodeMemo = new Map<string, Map<number, unknown>>();

  constructor(
    private readonly tree: PyTree,
    private readonly sr: ScopeResult,
  ) {}

  private flag(key: string, re: RegExp): boolean {
    let v = this.flags.get(key);
    if (v === undefined) {
      v = re.test(this.tree.source);
      this.flags.set(key, v);
    }
    return v;
  }

  /** `import math` or `from math import ...` at the start of some line. */
  get importsMath(): boolean {
    return this.flag('math', /^[ \t]*import[ \t]+math\b|^[ \t]*from[ \t]+math[ \t]+import\b/m);
  }

  /** `import math` (the module itself, so `math.sqrt` is available). */
  get importsMathModule(): boolean {
    return this.flag('math module', /^[ \t]*import[ \t]+math\b/m);
  }

  /**
   * The file names a normalisation of a row: a softmax or log-softmax of any framework, or a logsumexp (the word, in
   * code or prose). A -inf entry becomes NaN only through one of these.
   */
  get namesRowNormaliser(): boolean {
    return this.flag('row normaliser', /softmax|logsumexp|log_sum_exp/i);
  }

  /** The file imports torch (or something from it). */
  get importsTorch(): boolean {
    return this.flag('torch', /^[ \t]*(import|from)[ \t]+torch/m);
  }

  /**
   * The array library a file without torch computes in, by its imports (jax before tensorflow, mlx, numpy): what
   * a message names as the dtype's minimum there. Undefined when it imports none of them.
   */
  get arrayLibrary(): 'jax' | 'tensorflow' | 'mlx' | 'numpy' | undefined {
    if (this.flag('jax', /^[ \t]*(import|from)[ \t]+(jax|flax)\b/m)) return 'jax';
    if (this.flag('tensorflow', /^[ \t]*(import|from)[ \t]+(tensorflow|keras)\b/m)) return 'tensorflow';
    if (this.flag('mlx', /^[ \t]*(import|from)[ \t]+mlx\b/m)) return 'mlx';
    if (this.flag('numpy', /^[ \t]*(import|from)[ \t]+numpy\b/m)) return 'numpy';
    return undefined;
  }

  /**
   * The file builds T5's bucketed relative position bias (`config.relative_attention_num_buckets`, read in code as
   * an attribute, not on a comment line): the T5 family's attention, unscaled by design, whatever its classes are
   * called.
   */
  get buildsT5RelativeBias(): boolean {
    return this.flag('t5 relative bias', /^[^#\n]*[.\w]relative_attention_num_buckets\b/m);
  }

  /** Every definition of `name` in the file, any scope, in source order (of their targets). */
  defsNamed(name: string): readonly Def[] {
    if (!this.defsByName) {
      this.defsByName = new Map();
      for (const defs of this.sr.defsOfScope.values()) {
        for (const d of defs) {
          const list = this.defsByName.get(d.name);
          if (list) list.push(d);
          else this.defsByName.set(d.name, [d]);
        }
      }
      for (const list of this.defsByName.values()) list.sort((a, b) => a.target.start - b.target.start);
    }
    return this.defsByName.get(name) ?? [];
  }

  /** Whether `name` is defined (any scope) by a target starting strictly between `after` and `before`. */
  definedBetween(name: string, after: number, before: number): boolean {
    const defs = this.defsNamed(name);
    let lo = 0;
    let hi = defs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((defs[mid]?.target.start ?? Infinity) <= after)
        lo = mid + 1; // lo <= mid < hi <= defs.length
      else hi = mid;
    }
    const first = defs[lo]; // the first definition after `after`, if any
    return first !== undefined && first.target.start < before;
  }

  /** The definitions of `name` in one scope, in source order. */
  defsInScope(scopeId: number, name: string): readonly Def[] {
    if (!this.defsByScopeAndName) {
      this.defsByScopeAndName = new Map();
      for (const [id, defs] of this.sr.defsOfScope) {
        const byName = new Map<string, Def[]>();
        for (const d of defs) {
          const list = byName.get(d.name);
          if (list) list.push(d);
          else byName.set(d.name, [d]);
        }
        this.defsByScopeAndName.set(id, byName);
      }
    }
    return this.defsByScopeAndName.get(scopeId)?.get(name) ?? [];
  }

  /** `compute()` once per (kind, node): for facts of a function or class that every site inside it asks. */
  perNode<T>(kind: string, node: PyNode, compute: () => T): T {
    let memo = this.perNodeMemo.get(kind);
    if (!memo) {
      memo = new Map();
      this.perNodeMemo.set(kind, memo);
    }
    if (memo.has(node.id)) return memo.get(node.id) as T;
    const v = compute();
    memo.set(node.id, v);
    return v;
  }

  /** The comments inside [start, end), in source order (binary search: comments are sorted). */
  commentsWithin(start: number, end: number): readonly PyNode[] {
    const comments = this.tree.comments;
    let lo = 0;
    let hi = comments.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((comments[mid]?.start ?? Infinity) < start) lo = mid + 1;
      else hi = mid;
    }
    const out: PyNode[] = [];
    for (let i = lo; i < comments.length; i++) {
      const c = comments[i];
      if (!c || c.start >= end) break;
      if (c.end <= end) out.push(c);
    }
    return out;
  }
}
