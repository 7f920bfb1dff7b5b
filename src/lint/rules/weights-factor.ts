// What the code shows about a factor that ATT004 knows only by its name (`self.tau`, `alpha`, `v_scale`, `keep_scale`)
// when it multiplies or divides the attention weights after the softmax. A scale-like name alone made false findings
// on correct code of three classes (session 38's probes): a coefficient of a blend of attention maps (`attn *
// self.alpha + prev * (1 - self.alpha)`), a factor a function is handed and no code in view binds (an FP8 kernel's
// `v_scale`, the values' dequantisation scale, moved onto the weights), and a factor computed from the scores
// themselves (`keep_scale = torch.sigmoid(torch.logsumexp(s, -1) - self.sink)`, an attention sink's share). The
// true case the path exists for (dalle-mini's Swin-v2 `attn_weights / jnp.maximum(self.tau, 0.01)`, a learned
// temperature applied to the weights alone) shows the factor's value, and the weights it divides reach the values.
import type { Evaluator } from '../analysis/evaluator';
import type { Ctx, ScaleSite } from '../analysis/facts';
import { heldValue } from '../analysis/call';
import { importingFiles } from '../analysis/importers';
import { callsNamed, MAX_CALLEES_PER_FILE } from '../analysis/importer-calls';
import type { ParamInfo } from '../analysis/scopes';
import { childByField, namedChildren, unparen, type PyNode } from '../syntax/tree';

/**
 * The names a factor reads as values: identifiers that are neither a call's function, an attribute's field, a
 * keyword's name nor an import (`torch.clamp(self.tau, min=0.01)` reads `self.tau`; `lse - self.sink` reads `lse` and
 * `self.sink`). `self.x` is one name.
 */
function readNames(ev: Evaluator, node: PyNode): PyNode[] {
  const out: PyNode[] = [];
  const visit = (n: PyNode): void => {
    if (n.type === 'call') {
      // The callee's own names are no values (`torch.sigmoid`), but a method's receiver is (`lse.exp()`).
      const fn = childByField(n, 'function');
      const receiver = fn?.type === 'attribute' ? childByField(fn, 'object') : undefined;
      for (const part of [receiver, childByField(n, 'arguments')]) if (part) visit(part);
    } else if (n.type === 'keyword_argument') {
      const value = childByField(n, 'value');
      if (value) visit(value);
    } else if (n.type === 'attribute') {
      const obj = childByField(n, 'object');
      if (obj?.type === 'identifier' && ev.text(obj) === 'self') out.push(n);
      else if (obj) visit(obj);
    } else if (n.type === 'identifier') {
      if (!(ev.resolve(n, ev.text(n)) ?? []).some((d) => d.kind === 'import')) out.push(n);
    } else for (const c of n.children) visit(c);
  };
  visit(node);
  return out;
}

/**
 * Every name the factor reads is a parameter of the function that no call in view binds and that has no default
 * (`def fp8_attention(q, k, v, v_scale)` then `p * v_scale`), or a name the file never binds (`from config import *`):
 * its value, and so its role, is a name only.
 */
function onlyUnboundParameters(ev: Evaluator, factor: PyNode, ctx: Ctx): boolean {
  return readNames(ev, factor).every((n) => {
    if (n.type !== 'identifier') return false;
    const name = ev.text(n);
    if (ctx.bindings?.has(name)) return false;
    // A name the file never binds (a star import's) shows no value either.
    return (ev.resolve(n, name) ?? []).every(
      (d) => d.kind === 'param' && !!d.param && !d.param.default && !passedByACall(ev, d.scope.name, d.param, d.scope.ownerClass !== undefined),
    );
  });
}

/**
 * A call of the function `fn` in this file or in a file importing it passes an argument for `param` (`attend(q, k, v,
 * self.tau)` in model.py for ops.py's `def attend(q, k, v, temperature)`): the caller shows what the factor holds.
 */
function passedByACall(ev: Evaluator, fn: string, param: ParamInfo, method: boolean): boolean {
  const at = param.index === undefined ? undefined : param.index - (method ? 1 : 0);
  const passes = (cev: Evaluator): boolean =>
    callsNamed(cev, (name) => name === fn, MAX_CALLEES_PER_FILE).some((call) => {
      /* c8 ignore next -- the grammar gives every call its arguments; the type makes the field optional */
      const args = namedChildren(childByField(call, 'arguments') ?? call).filter((a) => a.type !== 'comment');
      const keywordName = (a: PyNode): string | undefined => {
        const name = childByField(a, 'name');
        /* c8 ignore next -- the grammar gives every keyword_argument a name; the type makes the field optional */
        return name ? cev.text(name) : undefined;
      };
      const byKeyword = args.some((a) => a.type === 'keyword_argument' && keywordName(a) === param.name);
      const positional = args.filter((a) => !['keyword_argument', 'list_splat', 'dictionary_splat'].includes(a.type));
      return byKeyword || (at !== undefined && positional.length > at);
    });
  if (passes(ev)) return true;
  const link = ev.link;
  if (!link) return false;
  return importingFiles(link, 8, true).some((path) => {
    const m = link.workspace.module(path);
    /* c8 ignore next -- importingFiles lists files the workspace read, each with its analysis; the type allows none */
    return m !== undefined && passes(m.ev);
  });
}

/**
 * The factor's value is computed, through locals each assigned once (up to three steps), from the names the softmax's
 * input or the weights read (`keep_scale = torch.sigmoid(lse - self.sink)`, `lse = torch.logsumexp(s, -1)` beside
 * `attn = s.softmax(-1)`): a function of this attention's own scores, not a scale applied to them.
 */
function computedFromTheScores(ev: Evaluator, site: ScaleSite): boolean {
  const softmax = site.target.attn?.softmax?.site;
  const sources = new Set<string>();
  const opNode = unparen(site.op.node);
  for (const side of [childByField(opNode, 'left'), childByField(opNode, 'right'), childByField(childByField(opNode, 'function') ?? opNode, 'object')])
    if (side && unparen(side).id !== unparen(site.op.factorNode).id && unparen(side).type === 'identifier') sources.add(ev.text(unparen(side)));
  if (softmax) for (const n of readNames(ev, softmax)) if (n.type === 'identifier') sources.add(ev.text(n));
  let frontier = readNames(ev, site.op.factorNode);
  for (let step = 0; step < 3 && frontier.length > 0; step++) {
    const next: PyNode[] = [];
    for (const n of frontier) {
      if (n.type !== 'identifier') continue;
      const held = heldValue(ev, n);
      if (!held) continue;
      for (const r of readNames(ev, held)) {
        if (r.type === 'identifier' && sources.has(ev.text(r))) return true;
        next.push(r);
      }
    }
    frontier = next;
  }
  return false;
}

/**
 * The scaled weights are one term of a sum or a difference (`attn * self.alpha + prev_attn * (1 - self.alpha)`): the
 * factor is a blend's coefficient, and the blend of two distributions is a distribution again.
 */
function blendTerm(node: PyNode): boolean {
  let n = node;
  while (n.parent?.type === 'parenthesized_expression') n = n.parent;
  const p = n.parent;
  if (p?.type !== 'binary_operator') return false;
  const operator = p.children.find((c) => c.type === '+' || c.type === '-');
  return operator !== undefined;
}

/**
 * A factor read as a scale of the weights by its name alone that the code shows to be something else, or does not show
 * at all: a blend's coefficient, a parameter nothing binds, or a value computed from these very scores.
 */
export function namedWeightsFactorUnshown(ev: Evaluator, site: ScaleSite): boolean {
  return blendTerm(site.op.node) || onlyUnboundParameters(ev, site.op.factorNode, site.ctx) || computedFromTheScores(ev, site);
}
