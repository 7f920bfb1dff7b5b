// A recording's diagnosis as it grows: the parts (calls from..to, diagnosed in the engine worker) added in call
// order, and the analysis they make so far. Pure, and light: the extension host keeps one while the worker
// diagnoses (types only from the modules that read tensors).
import type { RuntimeFinding } from './diagnose';
import type { RuntimeEvidence } from './evidence';
import type { TraceCall, TraceIndex } from './trace';

export interface CallSummary {
  id: number;
  kind: TraceCall['kind'];
  /** The user's file and line (the innermost frame in the workspace), or the library's when there is none. */
  path: string | null;
  line: number | null;
  module: string | null;
  shapes: Record<string, number[] | null>;
  dtype: string | null;
}

export interface TraceAnalysis {
  calls: CallSummary[];
  findings: RuntimeFinding[];
  /** Calls whose tensors could not be read (a TraceError each); their other calls are still diagnosed. */
  problems: string[];
  /** What the run says about the sites the static linter judges (confirmed bugs, sites measured fine). */
  evidence: RuntimeEvidence[];
}

export function summariseCall(call: TraceCall): CallSummary {
  const frame = call.site.user ?? call.site.library;
  return { id: call.id, kind: call.kind, path: frame?.path ?? null, line: frame?.line ?? null, module: call.module, shapes: call.shapes, dtype: call.dtype };
}

/** What the calls [from, to) of a trace say: their findings (every one), problems and evidence (not merged). */
export interface CallsDiagnosis {
  from: number;
  to: number;
  findings: RuntimeFinding[];
  problems: string[];
  evidence: RuntimeEvidence[];
}

/**
 * The parts of a trace's diagnosis, added in call order, as one analysis: findings on one line from several
 * calls (layers, repeats) reported once, in file and line order; evidence merged.
 */
export class TraceDiagnosis {
  private readonly findings: RuntimeFinding[] = [];
  private readonly seen = new Set<string>();
  private readonly problems: string[] = [];
  private readonly evidence: RuntimeEvidence[] = [];
  /** Calls [0, done) are diagnosed. */
  done = 0;

  constructor(private readonly trace: TraceIndex) {}

  add(part: CallsDiagnosis): void {
    if (part.from !== this.done) throw new Error(`the diagnosis of calls ${part.from}..${part.to} does not follow calls 0..${this.done}`);
    this.done = part.to;
    for (const f of part.findings) {
      const key = `${f.path}\0${f.line}\0${f.code}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.findings.push(f);
    }
    this.problems.push(...part.problems);
    this.evidence.push(...part.evidence);
  }

  get complete(): boolean {
    return this.done >= this.trace.calls.length;
  }

  analysis(): TraceAnalysis {
    const findings = [...this.findings].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column));
    return { calls: this.trace.calls.map(summariseCall), findings, problems: [...this.problems], evidence: mergeEvidence(this.evidence) };
  }
}

/** One entry per (file, site, code, kind) — layers and repeats of one site say the same — with a site where
 * some call confirmed a code never also counted as fine for it. */
export function mergeEvidence(all: readonly RuntimeEvidence[]): RuntimeEvidence[] {
  const key = (e: RuntimeEvidence) => `${e.path}\0${e.lines.join(',')}\0${e.code}`;
  const confirmed = new Set(all.filter((e) => e.kind === 'confirmed').map(key));
  const seen = new Set<string>();
  const out: RuntimeEvidence[] = [];
  for (const e of all) {
    if (e.kind === 'fine' && confirmed.has(key(e))) continue;
    const k = `${key(e)}\0${e.kind}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(e);
  }
  return out;
}
