// What the code shows about a size the linter first met as a NAME (`dim`, `d_model`, `head`, a helper's `d_k`):
// read from the source text of the file, of the classes that build a class, and of the workspace files around it,
// so that a rule reports a size's role only where the code, not the name, states it (session 35, branch prec-scale36).
import { heldValue } from './call';
import type { Evaluator } from './evaluator';
import type { Ctx } from './facts';
import { importingFiles } from './importers';
import { constantNumber } from './module-constants';
import { dimOfName, isHeadCountName } from './names';
import type { ClassInfo, ParamInfo } from './scopes';
import { childByField, namedChildren, unparen, type PyNode } from '../syntax/tree';

const DOTTED = /^[A-Za-z_][\w.]*$/;

/** Its last dotted part, without `self.` and spaces (`self.cfg.d_model` → `d_model`); an expression stays whole. */
export function fieldOf(t: string): string {
  const b = t.replace(/^self\./, '').replace(/\s+/g, '');
  return DOTTED.test(b) ? (b.split('.').pop() ?? b) : b;
}

/** Arguments split at the commas outside brackets. */
export function splitArguments(args: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of args) {
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** The text from `start` (just after an opening parenthesis) to its matching closing parenthesis, or to the end. */
export function balancedFrom(src: string, start: number): string {
  let depth = 0;
  for (let i = start; i < src.length; i++) {
    const ch = src.charAt(i);
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) {
      if (depth === 0) return src.slice(start, i);
      depth--;
    }
  }
  return src.slice(start);
}

/**
 * The source divides `name` (or `self.name`, `cfg.name`) by a head count, with `/` or `//`, possibly under `int(...)`:
 * `self.d_head = int(d_model / num_heads)`, `dim // heads`. The count is a name read as one (`num_heads`, `self.h`).
 */
export function headQuotientOf(source: string, name: string): boolean {
  if (!/^[A-Za-z_]\w*$/.test(name)) return false;
  const re = new RegExp(`(?<![\\w])(?:[A-Za-z_]\\w*\\.)*${name}\\s*//?\\s*((?:[A-Za-z_]\\w*\\.)*[A-Za-z_]\\w*)`, 'g');
  for (const m of source.matchAll(re)) if (isHeadCountName(m[1] ?? '')) return true;
  return false;
}

/**
 * A width the code divides by a head count (`dim // num_heads`, `view(B, T, h, d_model // h)`), in this file (its
 * recorded splits, `ev.modelDimTexts`, or its text) or in a workspace file read for it (a base class's module): the
 * code, not the name, says it is the width split into heads.
 */
export function splitByHeadCount(ev: Evaluator, t: string): boolean {
  const want = fieldOf(t);
  if ([...ev.modelDimTexts].some((m) => fieldOf(m) === want) || headQuotientOf(ev.tree.source, want)) return true;
  return someDependencySource(ev, (source) => headQuotientOf(source, want));
}

/** Whether `test` holds for the source of a workspace file this file imports (the first 16 of them). */
function someDependencySource(ev: Evaluator, test: (source: string) => boolean): boolean {
  const link = ev.link;
  if (!link) return false;
  return [...link.deps.keys()]
    .filter((p) => p !== link.path)
    .slice(0, 16)
    .some((p) => test(link.workspace.module(p)?.tree.source ?? ''));
}

/**
 * The source uses the count `name` (`num_heads`, `h` of `self.h`) as a number of heads: a size divided by it (`dim //
 * num_heads`, `int(d_model / self.h)`), or a size of a reshape or of an einops pattern (`view(B, T, self.n_head, -1)`,
 * `rearrange(x, "b n (h d) -> b h n d", h=heads)`). Read off the source text: the definitions that set such a size often
 * hold no attention code, so the analysed tree may have left them out.
 */
function countUsedAsHeads(source: string, name: string): boolean {
  if (!/^[A-Za-z_]\w*$/.test(name)) return false;
  const ref = `(?:[A-Za-z_]\\w*\\.)*${name}\\b(?!\\s*\\()`;
  // A name, an attribute or a closing bracket divided by it (not a literal: `1.0 / num_heads` is no split).
  if (new RegExp(`(?:[A-Za-z_][\\w.]*|[\\])])\\s*//?\\s*(?:int\\(|float\\()?${ref}`).test(source)) return true;
  const asSize = new RegExp(`(?<![\\w.])${ref}`);
  for (const m of source.matchAll(/\b(?:view|reshape|unflatten|rearrange|Rearrange)\s*\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/g))
    if (asSize.test(String(m[1]))) return true;
  return false;
}

/**
 * The code uses the count written `text` (`self.h`, `(heads)`) as a number of heads (countUsedAsHeads): in this file
 * outside `except`, the scaling that divides by it (`/ math.sqrt(self.heads)` splits nothing), or in a workspace file
 * it imports (a base class that splits the heads). A name read as a head count is no evidence by itself that it
 * counts heads (`h` is as often a hidden width).
 */
export function headCountUsed(ev: Evaluator, text: string, except: PyNode): boolean {
  const name = fieldOf(text.replace(/^\((.*)\)$/, '$1'));
  const source = ev.tree.source;
  if (countUsedAsHeads(source.slice(0, except.start) + source.slice(except.end), name)) return true;
  return someDependencySource(ev, (dep) => countUsedAsHeads(dep, name));
}

/** The last size of every `view(...)` / `reshape(...)` of the source that is written as a name (`self.head_dim` → `head_dim`). */
export function lastReshapeSizes(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/\.(?:view|reshape)\s*\(((?:[^()]|\([^()]*\))*)\)/g)) {
    const args = splitArguments(m[1] ?? '');
    const name = /^(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)$/.exec(args[args.length - 1]?.trim() ?? '')?.[1];
    if (name && args.length > 1) out.add(name);
  }
  return out;
}

/** A dense layer's construction: `nn.Linear(...)`, `Dense(...)`, `tf.layers.dense(...)`, `Linear(...)` of a class of the file. Group 1: its arguments. */
const DENSE_CALL = /\b(?:Linear|LazyLinear|Dense|dense)\s*\(((?:[^()]|\([^()]*\))*)\)/g;
const WIDTH_KEYWORD = /^\s*(?:in_features|out_features|units|features|input_dim|output_dim|in_dim|out_dim)\s*=\s*/;

/**
 * The name is, by itself, the input or output width of a dense layer that `cls` builds, or that a class of the file
 * building `cls` builds (`nn.Linear(n_embd, 3 * n_embd)`, `tf.layers.dense(x, units=self.d_model)`, the multi-head
 * module's `nn.Linear(d_model, n_head * d_k)` beside `ScaledDotProduct(temperature=np.power(d_model, 0.5))`): a
 * feature width of the module's tokens. A product's piece is no such width (`nn.Linear(K * d, K * d)` names no `d`).
 */
export function classLayerWidth(ev: Evaluator, cls: ClassInfo | undefined, t: string): boolean {
  if (!cls) return false;
  const builds = new RegExp(`(?<![\\w.])${cls.name}\\s*\\(`);
  const want = fieldOf(t);
  return ev.sr.classes
    .filter((c) => c === cls || (c.name !== cls.name && builds.test(ev.text(c.node))))
    .some((c) =>
      [...ev.text(c.node).matchAll(DENSE_CALL)].some((m) =>
        splitArguments(m[1] ?? '')
          .slice(0, 3)
          .some((a) => {
            const v = a.replace(WIDTH_KEYWORD, '').trim();
            return DOTTED.test(v) && fieldOf(v) === want;
          }),
      ),
    );
}

/**
 * `name` is the projection width `w` (`nn.Linear(d_model, d_model)`), also written times 1 (`dim * 1`) or through a name
 * the class binds once, to it (`inner = dim` then `nn.Linear(query_dim, inner)`).
 */
export function sameProjectionWidth(ev: Evaluator, cls: ClassInfo | undefined, w: string, t: string): boolean {
  const plain = w
    .replace(/\s*\*\s*1(?![\w.])/, '')
    .replace(/^1\s*\*\s*/, '')
    .trim();
  if (fieldOf(plain) === fieldOf(t)) return true;
  if (!cls || !/^[A-Za-z_]\w*$/.test(plain)) return false;
  const all = [...ev.text(cls.node).matchAll(new RegExp(`^[ \\t]*${plain}[ \\t]*=[ \\t]*((?:self\\.)?[A-Za-z_]\\w*)[ \\t]*$`, 'gm'))];
  return all.length === 1 && fieldOf(all[0]?.[1] ?? '') === fieldOf(t);
}

/**
 * The workspace calls the helper `fn` (in this file or in an importing file) with an argument for `param` that is not
 * itself a plain dimension: `math.sqrt(self.dh)`, or a name the calling function only passes on (its own parameter,
 * `f1(q, k, v, d)` → `attend(q, k, v, d)`). The value reaching the parameter is then not the one its name says. Calls
 * that all pass a plain dimension (`attend(q, k, v, self.head_dim)`) leave the name's reading standing.
 */
export function calledWithUnshownArgument(ev: Evaluator, fn: string, param: ParamInfo, method: boolean): boolean {
  const call = new RegExp(`(?<![\\w])${fn}\\s*\\(`, 'g');
  const at = param.index !== undefined ? param.index - (method ? 1 : 0) : -1;
  const keyword = new RegExp(`^\\s*${param.name}\\s*=(?!=)\\s*(.+)$`, 's');
  const unshown = (src: string): boolean =>
    [...src.matchAll(call)]
      .filter((m) => !/\bdef\s+$/.test(src.slice(Math.max(0, m.index - 8), m.index)))
      .some((m) => {
        const args = splitArguments(balancedFrom(src, m.index + m[0].length));
        const positional = args.filter((a) => !/^\s*\*|^\s*[A-Za-z_]\w*\s*=(?!=)/.test(a));
        const arg = (args.map((a) => keyword.exec(a)?.[1]).find((v) => v !== undefined) ?? positional[at] ?? '').trim();
        if (!DOTTED.test(arg) || dimOfName(arg) === undefined) return true;
        // A bare name that the calling function takes as a parameter: passed on, not shown.
        const defs = [...src.slice(0, m.index).matchAll(/\bdef\s+\w+\s*\(([^)]*)\)/g)];
        const params = splitArguments(defs[defs.length - 1]?.[1] ?? '').map((p) => p.replace(/[:=][\s\S]*$/, '').trim());
        return !arg.includes('.') && params.includes(arg);
      });
  if (unshown(ev.tree.source)) return true;
  const link = ev.link;
  if (!link) return false;
  return importingFiles(link, 8, true).some((path) => unshown(link.workspace.module(path)?.tree.source ?? ''));
}

/**
 * What the call that made `ctx` passes for the parameter `n` names: the value's own text (when it is a size), and the
 * argument as written at the call (`attention_full_width(q, k, v, C)` binds `d_model` to `C`, which the caller splits,
 * `C // n_heads`), each to be checked like the name.
 */
export function boundSizeTexts(ev: Evaluator, n: PyNode, ctx: Ctx): string[] {
  const name = ev.text(n);
  const v = ctx.bindings?.get(name);
  const out = v?.kind === 'number' && v.dimPow ? [v.dimPow.dim.text] : [];
  const param = (ev.resolve(n, name) ?? []).find((d) => d.kind === 'param')?.param;
  const call = ctx.callSite;
  if (!param || call?.type !== 'call') return out;
  const all = namedChildren(childByField(call, 'arguments') ?? call);
  const kw = all.find((a) => a.type === 'keyword_argument' && ev.text(childByField(a, 'name') ?? a) === name);
  const at = (param.index ?? -1) - (ctx.scope.ownerClass ? 1 : 0);
  const arg = kw ? childByField(kw, 'value') : all.filter((a) => a.type !== 'keyword_argument')[at];
  return arg ? [...out, ev.text(arg)] : out;
}

/**
 * `factor` is a name whose one definition computes it from the other operand of `node` (`alpha * log_alpha` with
 * `log_alpha = torch.where(alpha > eps, alpha.log(), 0)`): a function of that operand (an entropy's p·log p), not a
 * factor applied to it.
 */
export function computedFromTheOperand(ev: Evaluator, node: PyNode, factor: PyNode): boolean {
  const held = heldValue(ev, factor);
  const n = unparen(node);
  if (!held || n.type !== 'binary_operator') return false;
  const other = [childByField(n, 'left'), childByField(n, 'right')].map((x) => x && unparen(x)).find((x) => x?.id !== unparen(factor).id);
  return other?.type === 'identifier' && new RegExp(`(?<![\\w.])${ev.text(other)}(?![\\w])`).test(ev.text(held));
}

/**
 * `factor` is a helper's parameter (`def attend(q, k, v, d_k)`) read as the size `dimText` by its name alone (this
 * parameter's, or a parameter's of a helper up the chain that passed it on, `f1(q, k, v, d)` → `attend(q, k, v, d_k)`),
 * not a value a caller shows (`self.d_k`, `q.size(-1)`, `64`), and the workspace calls the helper with something else
 * than a plain dimension for it (calledWithUnshownArgument): what each caller passes decides, not the name.
 */
export function helperParamOnlyByName(ev: Evaluator, factor: PyNode, dimText: string, ctx: Ctx): boolean {
  const u = unparen(factor);
  if (u.type !== 'identifier' || !/^[A-Za-z_]\w*$/.test(dimText) || constantNumber(ev, dimText) !== undefined) return false;
  const bound = ctx.bindings?.get(ev.text(u));
  if (bound && (bound.kind !== 'number' || bound.dimPow?.dim.text !== dimText || bound.num !== undefined)) return false;
  const defs = ev.resolve(u, ev.text(u)) ?? [];
  const d = defs.length === 1 ? defs[0] : undefined;
  return (
    d?.kind === 'param' &&
    !!d.param &&
    d.scope.name !== '__init__' &&
    // No call in view at all (session 48: no context binds it, no call of its name in the file or an importing one):
    // what an unseen caller passes is not shown either (ATT003 leaves such a helper's missing scale to its callers).
    (calledWithUnshownArgument(ev, d.scope.name, d.param, d.scope.ownerClass !== undefined) ||
      (!ctx.bindings && !ctx.calledAt && !calledInView(ev, d.scope.name)))
  );
}

/**
 * The workspace names `fn` somewhere beside its `def`: a call (`fn(`, `self.fn(`), a function handed on (`vmap(fn)`), or
 * an import of it in a file importing this one (`from pkg.utils import fn as alias`, whose calls use the alias). A
 * module's `forward` (or Keras `call`) is called through its instance, never by its name: named.
 */
function calledInView(ev: Evaluator, fn: string): boolean {
  if (fn === 'forward' || fn === '__call__' || fn === 'call') return true;
  const mention = new RegExp(`(?<![\\w])${fn}\\b`, 'g');
  const named = (src: string): boolean => [...src.matchAll(mention)].some((m) => !/\bdef\s+$/.test(src.slice(Math.max(0, m.index - 8), m.index)));
  if (named(ev.tree.source)) return true;
  const link = ev.link;
  if (!link) return false;
  return importingFiles(link, 8, true).some((path) => named(link.workspace.module(path)?.tree.source ?? ''));
}
