// Pass 1: scopes and reaching definitions.
//
// Walks every statement once, in order, keeping an environment name → definitions that can reach this
// point (branches fork the environment and join it again; a branch that ends in return/raise/break/continue
// does not flow on; loop bodies are walked twice so loop-carried definitions reach the top). Every name that
// is read gets the list of definitions reaching it. Attributes of `self` inside methods are tracked as
// pseudo-names ('self.scale'), so `self.scale = ...` in `__init__` is found from `forward`.
//
// Also collects classes (methods, `self.x = ...` definitions, `register_buffer`) and the facts a statement
// states about a variable's rank (`B, T, C = x.size()` says x has 3 dimensions).
//
// This file holds the pass's results (the types) and its driver. The walk is split by what it knows:
// ./scope-walk.ts (the tables being filled, definitions, fork/join), ./scope-statements.ts (control flow,
// defs and classes), ./scope-expressions.ts (names read, walrus, lambdas, comprehensions),
// ./scope-assignments.ts (assignment targets, in-place calls, buffers, rank facts), ./scope-imports.ts,
// ./scope-params.ts (parameters, decorators).
import type { PyNode, PyTree } from '../syntax/tree';
import { walkBlock } from './scope-statements';
import { ScopeWalk, type Env } from './scope-walk';

export type DefKind =
  'assign' | 'aug' | 'param' | 'for' | 'with' | 'import' | 'inplace' | 'setitem' | 'funcdef' | 'classdef' | 'comp' | 'walrus' | 'except' | 'buffer';

export interface ParamInfo {
  name: string;
  /** Position among positional parameters (self included); undefined for keyword-only and splats, and for a class method's `cls`. */
  index: number | undefined;
  kind: 'positional' | 'keyword-only' | 'star' | 'kwstar';
  default?: PyNode;
  node: PyNode;
}

export interface Def {
  readonly id: number;
  /** Variable name, or 'self.attr' for attributes of a method's self. */
  readonly name: string;
  readonly kind: DefKind;
  /** The target node (identifier/attribute), or the statement for imports. */
  readonly target: PyNode;
  /** Right-hand side / iterable / with-value / in-place call / buffer value. */
  readonly value?: PyNode;
  /** Tuple-unpacking path into the value. */
  readonly path: number[];
  readonly star?: boolean;
  /** Augmented operator without '=' ('/', '*', ...). */
  readonly op?: string;
  /** Definitions reaching just before an aug/in-place/setitem definition. */
  readonly prev?: Def[];
  readonly scope: Scope;
  readonly param?: ParamInfo;
  /** Qualified module path for imports: `import torch.nn.functional as F` → ['torch','nn','functional']. */
  readonly importPath?: string[];
  /**
   * For `from M import name`: how many leading parts of importPath are the module M (the rest is the name),
   * and M's leading dots (`from ..pkg import f`: level 2). Absent for `import a.b [as m]` (all of it is a module).
   */
  readonly importFrom?: { readonly moduleParts: number; readonly level: number };
  /** The scope created by a def/class/lambda statement. */
  readonly defines?: Scope;
}

export type ScopeKind = 'module' | 'function' | 'class' | 'lambda' | 'comprehension';

export interface ClassInfo {
  name: string;
  node: PyNode;
  scope: Scope;
  methods: Map<string, Scope>;
  /** 'self.x' → definitions in any method (mostly __init__), each evaluated in its own method. */
  attrDefs: Map<string, Def[]>;
  bases: PyNode[];
}

export interface Scope {
  readonly id: number;
  readonly kind: ScopeKind;
  readonly node: PyNode;
  readonly parent: Scope | undefined;
  readonly name: string;
  readonly params: ParamInfo[];
  /** Environment when the scope finished (what inner functions and later code see). */
  envAtEnd: Map<string, Def[]>;
  /** Enclosing environment where this scope was defined (closures). */
  readonly outerEnv: Map<string, Def[]> | undefined;
  /** For methods: the class, and the name of the first parameter (usually 'self'). */
  readonly ownerClass?: ClassInfo;
  readonly selfName?: string;
  /** For class scopes. */
  classInfo?: ClassInfo;
  /** Return-statement expressions (lambda: its body). */
  readonly returns: PyNode[];
  readonly children: Scope[];
}

export interface ScopeResult {
  module: Scope;
  scopes: Scope[];
  classes: ClassInfo[];
  /** Reaching definitions for each read of a name (indexed by node id). Absent: not defined in its own scope. */
  uses: (Def[] | undefined)[];
  /** The scope each name-reading node sits in (indexed by node id). */
  useScope: (Scope | undefined)[];
  /** Rank facts: def id → number of dimensions stated by `a, b, c = x.shape` and similar. */
  rankFacts: Map<number, number>;
  /** Def ids whose first axis the code names as the batch (`B, T, C = x.shape`, first target `B`, `bs` or `batch`). */
  batchFirst: Set<number>;
  /** Definitions by target node id (for finding the def a target creates). */
  defsByTarget: Map<number, Def[]>;
  /** Scope created by a function/lambda/class node (by node id). */
  scopeOfNode: Map<number, Scope>;
  /** Definitions made in each scope (by scope id), in order. */
  defsOfScope: Map<number, Def[]>;
  /** Statement-level expressions of each scope that are not definitions (calls, returns, conditions). */
  exprsOfScope: Map<number, PyNode[]>;
  /**
   * The names bound when the module has run (the environment its walk ends with). `module.envAtEnd` holds only the
   * names bound before the module's first top-level compound statement (`try: import flash_attn`, `if not
   * hasattr(tl, "sort"):`), which joins its arms into a new environment; the evaluator reads this one for the
   * functions defined after such a statement that can hold a site (evaluator.ts lateFunction).
   */
  moduleExitEnv?: Map<string, Def[]>;
}

export function analyseScopes(tree: PyTree): ScopeResult {
  const w = new ScopeWalk(tree);
  const moduleScope = w.newScope({ kind: 'module', node: tree.root, parent: undefined, name: '<module>', params: [], outerEnv: undefined });
  const moduleEnv: Env = new Map();
  const atExit = walkBlock(w, tree.root, moduleEnv, moduleScope);
  moduleScope.envAtEnd = moduleEnv;
  return { ...w.result(moduleScope), moduleExitEnv: atExit ?? moduleEnv };
}
