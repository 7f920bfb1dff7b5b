// What a recorded run says about the sites the static linter judges: a runtime finding confirms a static one of
// the same code at the same site; a check that ran on the recorded values and found the site fine is evidence
// against one. A site is the user's lines of one recorded call (its call line and, for a hand-written chain,
// every op's line), so "the scores are unscaled" on the softmax line and the measured scale of the chain that
// ends there meet. Only positive evidence counts as fine: a check that had nothing to judge says nothing. Pure.
import type { RuleCode } from '../lint/types';
import { measuredOnce, type CallMeasures, type RuntimeFinding } from './diagnose';
import type { CapturedTensor } from './tensors';
import { inWorkspace, type TraceCall, type TraceIndex } from './trace';
import type { AttentionView } from './view';
import { msg, renderMessage, type MessageParts } from '../protocol/message';
import { RUNTIME_MESSAGES as M } from './messages';

export interface RuntimeEvidence {
  code: RuleCode;
  /** 'confirmed': the run shows the bug; 'fine': the run measured this site and it is right. */
  kind: 'confirmed' | 'fine';
  /** The user's file and the 1-based lines of the site. */
  path: string;
  lines: number[];
  callId: number;
  /** What was measured (the runtime finding's message, or why the site is fine), in English and as parts. */
  message: string;
  messageParts: MessageParts;
  /** 'confirmed': the line of the runtime finding itself (one of `lines`). */
  at?: number;
}

/** The user's lines of a call in the file of its user frame: the call's line and its ops' lines there. */
export function siteLines(trace: TraceIndex, call: TraceCall): { path: string; lines: number[] } | null {
  const user = call.site.user;
  const path = user?.path ?? call.ops.find((o) => o.path !== null && inWorkspace(trace.program, o.path))?.path ?? null;
  if (!path) return null;
  const lines = new Set<number>();
  if (user && user.path === path && user.line > 0) lines.add(user.line);
  for (const op of [...call.ops, ...call.afterSoftmax]) if (op.path === path && op.line !== null && op.line > 0) lines.add(op.line);
  return lines.size > 0 ? { path, lines: [...lines].sort((a, b) => a - b) } : null;
}

/** Checks that ran on the call's values and found it right, by rule code, with what they measured. */
export function fineChecks(trace: TraceIndex, call: TraceCall, measures: CallMeasures): { code: RuleCode; message: string; messageParts: MessageParts }[] {
  const out: { code: RuleCode; message: string; messageParts: MessageParts }[] = [];
  const fine = (code: RuleCode, messageParts: MessageParts) => out.push({ code, message: renderMessage(messageParts), messageParts });
  if (call.kind === 'manual' && !call.failed) {
    const softmaxOp = call.ops.find((o) => o.kind === 'softmax');
    const own = softmaxOp?.path ? inWorkspace(trace.program, softmaxOp.path) : false;
    if (own && call.softmax && call.contracted && call.softmax.role === call.contracted.role) {
      fine('ATT001', msg(M.fineSoftmaxAxis, call.softmax.dim));
    }
    const m = own ? measures.scale : null;
    if (m && m.dk >= 2 && Math.abs(m.scale * Math.sqrt(m.dk) - 1) <= 1e-2) {
      const message = msg(M.fineScale, Number(m.scale.toPrecision(4)), m.dk);
      fine('ATT003', message);
      fine('ATT004', message);
    }
  }
  const { view } = measures;
  if (view) {
    const padding = paddingHidden(view);
    if (padding) fine('ATT002', padding);
    else if (causalTriangle(view)) fine('ATT002', msg(M.fineCausal));
  }
  return out;
}

/** A message when the batch had padding (by the embedding's padding_idx) and the mask, as the API read it, hid
 * every padding key from every real query while masking no real key at or before it; else null. */
function paddingHidden(view: AttentionView): MessageParts | null {
  const { ids, T, S, allowed } = view;
  const off = view.queryOffset;
  if (!ids || ids.paddingIdx === null || !allowed || off === null) return null;
  const perB = view.batch.slice(1).reduce((a, b) => a * b, 1);
  let padded = 0;
  for (let sl = 0; sl < allowed.length / (T * S); sl++) {
    const b = Math.floor(sl / perB);
    const pad = (s: number) => ids.data[b * S + s] === ids.paddingIdx;
    let any = false;
    for (let s = 0; s < S && !any; s++) any = pad(s);
    if (!any) continue;
    padded++;
    for (let t = 0; t < T; t++) {
      if (pad(t + off)) continue;
      for (let s = 0; s < S; s++) {
        const a = allowed[(sl * T + t) * S + s];
        if (pad(s) ? a === 1 : a === 0 && s <= t + off) return null;
      }
    }
  }
  return padded > 0 ? msg(M.finePadding, ids.paddingIdx) : null;
}

function causalTriangle(view: AttentionView): boolean {
  const { T, S, allowed } = view;
  if (!allowed || T !== S || T < 3) return false;
  for (let base = 0; base < allowed.length; base += T * S) {
    for (let t = 0; t < T; t++) for (let s = 0; s < S; s++) if (allowed[base + t * S + s] !== (s <= t ? 1 : 0)) return false;
  }
  return true;
}

/** The evidence one call gives: its runtime findings (confirmed) and its fine checks whose code it did not find. */
export function callEvidence(
  trace: TraceIndex,
  call: TraceCall,
  tensors: Map<string, CapturedTensor>,
  findings: readonly RuntimeFinding[],
  measures: CallMeasures = measuredOnce(trace, call, tensors),
): RuntimeEvidence[] {
  const site = siteLines(trace, call);
  if (!site) return [];
  const out: RuntimeEvidence[] = findings.map((f) => ({
    code: f.code,
    kind: 'confirmed',
    ...site,
    callId: call.id,
    message: f.message,
    messageParts: f.messageParts,
    ...(f.path === site.path ? { at: f.line } : {}),
  }));
  for (const c of fineChecks(trace, call, measures)) {
    if (!findings.some((f) => f.code === c.code))
      out.push({ code: c.code, kind: 'fine', ...site, callId: call.id, message: c.message, messageParts: c.messageParts });
  }
  return out;
}
