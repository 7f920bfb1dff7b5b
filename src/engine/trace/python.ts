// The debugger's switches as PyTorch: the lines that compute one head's five steps (scores, × scale,
// + mask, softmax, · V) the way the trace does, so a learner sees what each switch means in code. Pure.
import type { MaskChoice, ScaleChoice, TraceOptions } from './options';

export interface PythonStepsContext {
  /** Which head of the model's q, k, v projections (for the comment and the slicing of a seeded model's). */
  head: number;
  /**
   * True when `x`, `W_q`, `W_k`, `W_v`, `d_model` and `n_heads` are defined by the seeded model's snippet
   * just above: the head's q, k, v are sliced from nn.MultiheadAttention's in-projection. Otherwise q, k,
   * v are left for the user to take from their own model.
   */
  seeded: boolean;
}

const NEG_INF = 'float("-inf")';

function scaleLines(scale: ScaleChoice | undefined): string[] {
  switch (scale?.kind ?? 'inv-sqrt-dk') {
    case 'inv-sqrt-dk':
      return ['scale = 1 / math.sqrt(d_k)                           # the standard scale'];
    case 'inv-dk':
      return ['scale = 1 / d_k                                      # the bug: the scale is 1/sqrt(d_k); 1/d_k flattens the softmax'];
    case 'none':
      return ['scale = 1.0                                          # no scale: scores vary about sqrt(d_k), the softmax saturates'];
    case 'custom':
      return [`scale = ${pythonFloat((scale as { value: number }).value)}`];
    case 'model': {
      const value = (scale as { value?: number }).value;
      return [
        value === undefined
          ? "scale = model_scale                                  # the model's own scale, from its config.json"
          : `scale = ${pythonFloat(value)}                              # the model's own scale, from its config.json`,
      ];
    }
  }
}

function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'float("nan")';
  if (!Number.isFinite(x)) return x > 0 ? 'float("inf")' : NEG_INF;
  const s = String(x);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

function maskLines(choice: MaskChoice): string[] {
  switch (choice.kind) {
    case 'none':
      return [];
    case 'causal':
      return choice.align === 'top-left'
        ? [
            '# causal, top-left aligned (SDPA is_causal=True): query i sees keys j <= i',
            `mask = mask.masked_fill(torch.ones(L, S, dtype=torch.bool).triu(1), ${NEG_INF})`,
          ]
        : [
            '# causal, bottom-right aligned (KV cache): query i sees keys j <= i + (S - L)',
            `mask = mask.masked_fill(torch.ones(L, S, dtype=torch.bool).triu(1 + S - L), ${NEG_INF})`,
          ];
    case 'padding': {
      const inverted = (choice.builtAs === 'true-means-pad') === (choice.passedTo === 'sdpa');
      const out = [
        `is_pad = torch.arange(S) >= S - ${choice.padLast}                   # the last ${choice.padLast} keys are padding`,
        choice.builtAs === 'true-means-pad'
          ? 'padding_mask = is_pad                                # built with True = padding'
          : 'padding_mask = ~is_pad                               # built with True = real token',
      ];
      if (choice.passedTo === 'mha') {
        out.push('# passed to nn.MultiheadAttention(key_padding_mask=...), which reads True = ignore this key');
        out.push(`mask = mask.masked_fill(padding_mask[None, :], ${NEG_INF})`);
      } else {
        out.push('# passed to F.scaled_dot_product_attention(attn_mask=...), which reads True = attend');
        out.push(`mask = mask.masked_fill(~padding_mask[None, :], ${NEG_INF})`);
      }
      if (inverted) out.push('# ^ the mask is read the other way round from how it was built: every query sees only the padding');
      return out;
    }
    case 'explicit':
      return ['# (an explicit mask tensor is added here: bool masks give -inf where a key may not be attended)'];
    case 'sliding-window':
      return [
        `# sliding window: query i sees only keys i - ${choice.size} < j`,
        `mask = mask.masked_fill(torch.arange(L)[:, None] - torch.arange(S)[None, :] >= ${choice.size}, ${NEG_INF})`,
      ];
  }
}

/** The five steps of one head as PyTorch, with the trace options' scale, temperature, masks and softmax dim. */
export function pythonSteps(options: TraceOptions, ctx: PythonStepsContext): string {
  const masks: readonly MaskChoice[] = options.mask == null ? [] : Array.isArray(options.mask) ? options.mask : [options.mask as MaskChoice];
  const temperature = options.temperature ?? 1;
  const dim = options.softmaxDim ?? -1;
  const lines: string[] = [`# Head ${ctx.head}, step by step, with the debugger's switches.`];
  if (ctx.seeded) {
    lines.push(
      'd_k = d_model // n_heads',
      `h = ${ctx.head}`,
      "q = (x @ W_q.T)[:, h * d_k:(h + 1) * d_k]             # (T, d_k): this head's slice of the in-projection",
      'k = (x @ W_k.T)[:, h * d_k:(h + 1) * d_k]             # (T, d_k)',
      'v = (x @ W_v.T)[:, h * d_k:(h + 1) * d_k]             # (T, d_k)',
    );
  } else {
    lines.push('import math, torch', "# q: (L, d_k), k: (S, d_k), v: (S, d_v): this head's tensors, taken from your model", 'd_k = q.shape[-1]');
  }
  lines.push(
    'L, S = q.shape[0], k.shape[0]',
    '',
    'scores = q @ k.T                                     # 1 · (L, S)',
    ...scaleLines(options.scale),
    temperature === 1
      ? 'scaled = scores * scale                              # 2'
      : `scaled = scores * scale / ${pythonFloat(temperature)}                # 2 · divided by the temperature`,
    'mask = torch.zeros(L, S)                             # additive: 0 = may attend, -inf = masked',
    ...masks.flatMap(maskLines),
    'masked = scaled + mask                               # 3',
    dim === -1
      ? 'weights = torch.softmax(masked, dim=-1)              # 4 · over the keys: each row sums to 1'
      : 'weights = torch.softmax(masked, dim=-2)              # 4 · the bug: over the queries, so the columns sum to 1, not the rows',
  );
  if (options.fullyMaskedRows === 'zero')
    lines.push("weights = weights.nan_to_num(0.0)                    # SDPA's safe softmax: a row with no visible key gets 0, not NaN");
  lines.push('out = weights @ v                                    # 5 · (L, d_v)', '');
  return lines.join('\n');
}
