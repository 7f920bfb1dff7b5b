// File-level evidence of the floating-point precision the code runs in. float16 and bfloat16 break different
// fills: float16's range ends at -65504 (so -1e9 overflows), bfloat16 keeps float32's exponent range but its
// largest finite value (3.3895e38) is below float32's (3.4028e38), so only fills such as
// torch.finfo(torch.float32).min overflow there.
import { msg, type MessageParts } from '../message';
import { PHRASES } from './phrases';

export interface PrecisionEvidence {
  /** The file runs (some of) its code in float16: .half(), torch.float16, fp16 flags (not one set to False: `fp16=False`, `fp16: bool = False`), CUDA autocast without a dtype, GradScaler, apex amp, Lightning precision=16. */
  readonly fp16: boolean;
  /** The file runs (some of) its code in bfloat16. */
  readonly bf16: boolean;
  /** Only comments or docstrings say so (no code does): corroboration, which code evidence elsewhere outranks. */
  readonly fromProse?: boolean;
  /**
   * The code's only evidence of float16 is CUDA autocast (`autocast(...)` calls, torch.cuda.amp's `GradScaler`, which
   * scales the losses of autocast training): autocast runs the ops it lists (products, linear layers, convolutions) in
   * float16 and leaves every other tensor in the dtype it was made in, so a mask a caller hands in (an integer token
   * mask, a float32 one) stays as it was. Not `.half()`, a float16 dtype, an fp16 flag, apex or Lightning precision,
   * which may run whole models and their inputs in float16.
   */
  readonly autocastOnly?: boolean;
  /**
   * A workspace file importing this one sets full precision in its code (`fp16=False`, `dtype=torch.float32`) and
   * none runs it in half: where (fp16 and bf16 are then false, whatever this file's prose says).
   */
  readonly float32From?: { readonly path: string; readonly line: number; readonly column: number };
  /**
   * When the evidence is in another workspace file that imports this one (a trainer with GradScaler or
   * autocast): that file's path and where the evidence is (1-based line and column).
   */
  readonly from?: {
    readonly path: string;
    readonly line: number;
    readonly column: number;
    /** The files between, when the import is indirect: the linted file's importer first (`model.py` of train ← model ← attention). */
    readonly via?: readonly string[];
    /**
     * The file does not import the linted one: it is the training loop of its package, running the model it is given
     * (importers.ts: packageTrainerPrecision).
     */
    readonly package?: true;
    /**
     * The file does not import the linted one: it is the project's only training loop, in a folder beside the linted
     * file's, running the model it is given (importers.ts: projectTrainerPrecision).
     */
    readonly project?: true;
  };
}

/** The precision evidence of a whole source text (its code and, failing that, its comments and docstrings). */
export function sourcePrecision(src: string): PrecisionEvidence {
  return precisionEvidence(withoutDtypeTests(stripComments(src)), proseOf(src));
}

/**
 * A dtype compared with float16 (`x.dtype == torch.float16`, `dtype in (jnp.float16, jnp.bfloat16)`; any order:
 * DTYPE_MEMBERSHIP) asks what
 * the data is, often to cast it to float32 (`x.astype(jnp.float32) if x.dtype == jnp.float16 else x`): a question,
 * not evidence that the file runs in float16. Blanked to spaces (same offsets).
 */
const DTYPE_TEST = /(?:==|!=|\bis(?:\s+not)?|\bin)\s*\(?\s*(?:(?:torch|jnp|np|numpy|tf|mx)\.)?(?:float16|half)\b/g;
/**
 * A dtype tested for membership in a written collection of dtypes (`k.dtype in (jnp.bfloat16, jnp.float16)`,
 * `x.dtype not in {torch.float16, torch.bfloat16}`): a question about the data whichever half dtype comes first, not
 * evidence that the file runs in either. Blanked as the dtype tests are.
 */
const DTYPE_MEMBERSHIP =
  /\bin\s*[([{]\s*(?:(?:torch|jnp|np|numpy|tf|mx)\.(?:b?float(?:16|32|64)|half|float)\s*,\s*)*(?:torch|jnp|np|numpy|tf|mx)\.(?:b?float(?:16|32|64)|half|float)\s*,?\s*[)\]}]/g;
/**
 * float16's own limits (`np.finfo(np.float16).min`, `torch.finfo(torch.half).min`, `tf.float16.min`) are the fill that
 * fits float16, named for when the data is float16 (`_NEG_INF_FP16 = np.finfo(np.float16).min`, chosen by a dtype
 * test): the code supports half precision, as a dtype test or an "fp16-safe" comment says, and does not show it runs
 * in it. Blanked as the dtype tests are.
 */
const FLOAT16_LIMIT =
  /\b(?:torch|jnp|np|numpy|tf|mx)\.finfo\(\s*(?:(?:torch|jnp|np|numpy|tf|mx)\.)?(?:float16|half)\s*\)|\b(?:tf|jnp|np|numpy)\.float16\.(?:min|max)\b/g;
/**
 * Import statements (`from torch.cuda.amp import GradScaler, autocast`, `from apex import amp`) name what a file may
 * use, not what it runs: a trainer importing GradScaler and never calling it trains in float32. What counts is the use
 * (`GradScaler()`, `autocast(...)`, `amp.initialize`). Blanked as the dtype tests are.
 */
const IMPORT_STATEMENT = /^[ \t]*(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+(?:\([^)]*\)|[^\n]*)/gm;
/**
 * `.half()` of a parameter's storage (`m.weight.data = m.weight.data.half()`, `l.w.data.half()`, `p.bias.half()`), or
 * on a line that handles a state dict (`torch.save({k: v.half() for k, v in model.state_dict().items()}, path)`):
 * chosen weights stored in float16 (to save memory or a checkpoint), not a model or its inputs run in it; what the
 * forward computes in is what it casts the weights to (`self.w.type_as(x)`). Blanked as the dtype tests are.
 */
const STORED_HALF = /\.(?:data|weight|bias)\.half\(\)|^[^\n]*\bstate_dict\b[^\n]*$/gm;
/**
 * Apex amp's optimisation level "O0" is pure float32 training (O1 and O2 are mixed precision, O3 float16): code whose
 * every `opt_level` is the literal "O0" (`amp.initialize(model, optimizer, opt_level="O0")`) calls apex amp and runs
 * in float32, and its `amp.scale_loss` scales by 1. Then the apex calls (`amp.initialize`, `amp.scale_loss`, any
 * `amp.<name>` of the module imported bare, not `torch.cuda.amp.…`) and the `opt_level` keywords are no evidence of
 * half precision, and are blanked as the dtype tests are. An `opt_level` taken from elsewhere (`opt_level=args.opt_level`,
 * `--opt_level` with a default of "O1") keeps them as evidence: which level runs is then not written here.
 */
const OPT_LEVEL = /\bopt_level\b/g;
const OPT_LEVEL_O0 = /\bopt_level\s*=\s*["']O0["']/g;
const APEX_AMP_USE = /(?<![\w.])amp\.(?!autocast\b|GradScaler\b)\w+|\bopt_level\s*=\s*["']O0["']/g;
function withoutApexO0(code: string, blank: (m: string) => string): string {
  const levels = code.match(OPT_LEVEL)?.length ?? 0;
  if (levels === 0 || (code.match(OPT_LEVEL_O0)?.length ?? 0) !== levels) return code;
  return code.replace(APEX_AMP_USE, blank);
}
/**
 * A command-line option for half precision declared off (`parser.add_argument('--use_amp', action='store_true',
 * default=False)`, `'--fp16'`, `'--mixed_precision'`; `store_true` without `default=True`, or a default of False, None
 * or 0) says the script offers half precision, not that it runs in it: argument lists copied from a library keep
 * options nothing reads. What runs it is the code acting on the option (`autocast(enabled=args.use_amp)`,
 * `Trainer(fp16=args.fp16)`, a `GradScaler`), which stays evidence. Blanked whole (the call, its help text included).
 */
const OPTION_DECLARATION = /\badd_argument\s*\((?:[^()]|\([^()]*\))*\)/g;
const HALF_OPTION_NAME = /["']--?(?:use_amp\w*|amp|fp16|half|mixed_precision|half_precision\w*|mixed-precision|half-precision)["']/;
function withoutOffOptions(code: string, blank: (m: string) => string): string {
  return code.replace(OPTION_DECLARATION, (m) => {
    if (!HALF_OPTION_NAME.test(m)) return m;
    const storeTrue = /\baction\s*=\s*["']store_true["']/.test(m) && !/\bdefault\s*=\s*True\b/.test(m);
    const defaultOff = /\bdefault\s*=\s*(?:False\b|None\b|0(?![\w.]))/.test(m) && !/store_false/.test(m);
    return storeTrue || defaultOff ? blank(m) : m;
  });
}
/**
 * A dtype of Triton's kernel language (`q.to(tl.float16)` before `tl.dot`, `tl.bfloat16`): how a `@triton.jit` kernel
 * computes one step, not what the torch code of the file runs in (a reference function beside the kernel, called
 * with float32 tensors). Blanked as the dtype tests are.
 */
const TRITON_DTYPE = /\b(?:tl|triton\.language)\.b?float16\b/g;
/**
 * A config dict's entry that turns a half-precision mode off (`"fp16": {"enabled": False}` in a DeepSpeed config written
 * in the training script, `"fp16": False`, `'amp': None`): the option exists and is off there, which says nothing of
 * float16 (the key's name alone would). An entry on (`{"enabled": True}`, `"auto"`) stays evidence. Blanked as the dtype
 * tests are.
 */
const OFF_CONFIG_ENTRY =
  /["'](?:fp16|half|amp|use_amp|mixed_precision|half_precision)["']\s*:\s*(?:False\b|None\b|0(?![\w.])|\{[^{}]*?["']enabled["']\s*:\s*(?:False\b|0(?![\w.]))[^{}]*\})/g;
/**
 * Names bound to False by every assignment the code writes of them (`USE_AMP = False`, `use_amp: bool = False`) and bound
 * no other way (not assigned another value, `USE_AMP = args.amp`; not a parameter, a loop or `with ... as` target, or an
 * item of a tuple assignment).
 */
function namesAlwaysFalse(code: string): ReadonlySet<string> {
  const values = new Map<string, string[]>();
  for (const m of code.matchAll(/^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[ \t]*[\w.]+[ \t]*)?=(?!=)[ \t]*([^\n]*)$/gm)) {
    const [, name, value] = m;
    if (name && value !== undefined) values.set(name, [...(values.get(name) ?? []), value.trim()]);
  }
  const out = new Set<string>();
  for (const [name, vs] of values) {
    if (!vs.every((v) => v === 'False')) continue;
    const otherBinding = new RegExp(
      String.raw`\bfor\b[^\n:]*\b${name}\b[^\n:]*\bin\b|\bas[ \t]+${name}\b|\bdef[ \t]+\w+[ \t]*\([^)]*\b${name}\b|\b${name}\b[ \t]*,[^\n=]*=(?!=)|,[ \t]*${name}\b[^\n=]*=(?!=)|\b${name}\b[ \t]*(?:[-+*/|&]|\bor|\band)=|\bglobal\b[^\n]*\b${name}\b`,
    );
    if (!otherBinding.test(code)) out.add(name);
  }
  return out;
}
/**
 * An autocast or GradScaler call switched off (`GradScaler(enabled=False)`, `torch.autocast("cuda", enabled=USE_AMP)`
 * with `USE_AMP = False` the only binding of the name): it runs nothing in float16 and scales no loss, so it is no
 * evidence of half precision, as an autocast with `enabled=False` written out is not. Blanked as the dtype tests are.
 */
function withoutSwitchedOff(code: string, blank: (m: string) => string): string {
  // Most files have no such call: skip the scan (and the file-wide binding scan, made only for a flag that needs it).
  if (!/autocast|GradScaler/.test(code)) return code;
  let off: ReadonlySet<string> | undefined;
  return code.replace(/\b[\w.]*(?:autocast|GradScaler)\s*\((?:[^()]|\([^()]*\))*\)/g, (m) => {
    const flag = /\benabled\s*=\s*([A-Za-z_][\w.]*)/.exec(m)?.[1];
    if (flag === undefined) return m;
    if (flag === 'False') return blank(m);
    off ??= namesAlwaysFalse(code);
    return off.has(flag) ? blank(m) : m;
  });
}
function withoutDtypeTests(code: string): string {
  const blank = (m: string): string => m.replace(/[^\n]/g, ' ');
  const storedHalf = (m: string): string => m.replace(/\.half\(\)/g, blank);
  return withoutSwitchedOff(withoutOffOptions(withoutApexO0(code, blank), blank), blank)
    .replace(OFF_CONFIG_ENTRY, blank)
    .replace(IMPORT_STATEMENT, blank)
    .replace(DTYPE_MEMBERSHIP, blank)
    .replace(DTYPE_TEST, blank)
    .replace(FLOAT16_LIMIT, blank)
    .replace(TRITON_DTYPE, blank)
    .replace(STORED_HALF, storedHalf);
}

/**
 * 1-based line and column of the first evidence of half precision in a source's code, if any: of float16 for a file
 * that runs in it (the range fills are judged against first), so that a dtype choice `"bfloat16" if bf16_ok else
 * "float16"` is shown at its float16 arm, not at the bfloat16 one; of bfloat16 for a file that runs only in that.
 */
export function precisionEvidenceAt(src: string, which: 'fp16' | 'bf16' = 'fp16'): { line: number; column: number } | undefined {
  // Docstrings and comments blanked (same offsets), so positions stay those of the source.
  const code = withoutDtypeTests(src.replace(/("""|''')[\s\S]*?\1|#[^\n]*/g, (m) => m.replace(/[^\n]/g, ' ')));
  let best: number | undefined;
  for (const re of which === 'fp16' ? [FP16_CODE, HALF_FLAG_CODE, AUTOCAST_ON] : [BF16_CODE, HALF_FLAG_CODE, AUTOCAST_ON]) {
    const m = re.exec(code);
    if (m && (best === undefined || m.index < best)) best = m.index;
  }
  if (best === undefined) return undefined;
  const lineStart = code.lastIndexOf('\n', best - 1) + 1;
  return { line: code.slice(0, best).split('\n').length, column: best - lineStart + 1 };
}

/**
 * Comments and docstrings (triple-quoted strings) next to the code. The file's leading comment block (a licence,
 * a description of the file) is left out: it says what the file is, not how a line of it runs.
 */
function proseOf(src: string): string {
  const lead = /^(?:[ \t]*(?:#[^\n]*)?\r?\n)*/.exec(src)?.[0].length ?? 0;
  // Pieces apart by a blank line: a sentence (withoutOptions) never runs from one comment or docstring into the next.
  return (src.slice(lead).match(/("""|''')[\s\S]*?\1|#[^\n]*/g) ?? []).join('\n\n');
}

/** The source without docstrings (triple-quoted strings) and comments: what the code itself says. */
function stripComments(src: string): string {
  return src.replace(/("""|\'\'\')[\s\S]*?\1/g, '').replace(/#[^\n]*/g, '');
}

const FP16_CODE =
  /\.half\(\)|(?<![A-Za-z])float16|torch\.half\b|\bfp16\b(?!\s*(?::\s*bool\s*)?=\s*(?:False|None|0)\b)|GradScaler|\bamp\.(?:initialize|scale_loss)|from\s+apex\s+import\s+amp|\bopt_level\b|precision\s*=\s*(?:16\b|["']16(?:-mixed|-true)?["'])|["']16-mixed["']/;
/**
 * Flags that say "mixed/half precision" without saying which half: float16 unless the file names bfloat16. The
 * `autocast` module of `amp` (`from torch.cuda.amp.autocast_mode import autocast`) is an import path, not a flag:
 * what counts is how autocast is called. A flag set to False, None or 0 (`use_amp=False`, `mixed_precision: bool =
 * False`) with no other mention is no evidence: its name says only that the option exists.
 */
const HALF_FLAG_CODE = /(?:use_amp\w*|\bmixed_precision|half_precision\w*)(?!\w)(?!\s*(?::\s*bool\s*)?=\s*(?:False|None|0)\b)|\bamp\.(?!autocast)/;
const BF16_CODE = /bfloat16|\bbf16\b(?!\s*(?::\s*bool\s*)?=\s*(?:False|None|0)\b)|["']bf16-(?:mixed|true)["']/;
/**
 * What the authors wrote in comments and docstrings about how the code runs: "runs in fp16", "--fp16", "half
 * precision", "mixed precision", autocast. The dtype's own name alone (`float16`) is no such statement: docstrings list
 * it among the dtypes a module accepts ("Can be one of jax.numpy.float32, jax.numpy.float16 (on GPUs) and
 * jax.numpy.bfloat16"), and comments quote other code with it ("Llama does x.to(float16) * w whilst Gemma2 is
 * (x * w).to(float16)"): a mention of what exists, not of what this file runs in.
 */
const FP16_PROSE = /--fp16\b|\bfp16\b|half[- ]precision|mixed[- ]precision|autocast/i;
/**
 * Prose that names fp16 only as something the code stays compatible with (`.to(dtype=self.dtype)  # fp16
 * compatibility`, copied with BERT's extended attention mask into many models), or guards against (`# softmax in
 * float32 for fp16 stability`, "more stable with f16 than dividing afterwards", "would overflow in fp16"): it says the
 * code supports half precision, not that this file runs in it.
 */
const FP16_COMPATIBILITY =
  /\b(?:fp16|float16|f16|half[- ]precision)[- ](?:compatib\w*|compat\b|safe\b|friendly\b|stab\w*|overflow\w*|underflow\w*|robust\w*|support\w*)|\b(?:fits?|fitting|safe|safer|representable|finite|range|stab\w*|overflow\w*|underflow\w*|robust\w*)\s+(?:(?:in|into|for|with|under|of|on)\s+)?(?:fp16|float16|f16|half(?:[- ]precision)?)\b/gi;

/**
 * Prose that names half precision as one of several dtypes the code handles, full precision among them (`# cast to
 * fp32/fp16 then replace 1's with -inf`, "works with fp16 or fp32", "fp32, fp16 and bf16"): it says which dtypes the
 * code is written for, as a docstring listing the dtypes a module accepts does, not that this file runs in half
 * precision. A list of half dtypes only (`fp16/bf16`) still says the code runs in half precision. Blanked where the
 * compatibility phrases are.
 */
const DTYPE_WORD = String.raw`(?:fp|float|f)(?:16|32|64)\b|bf16\b|bfloat16\b|half\b`;
const DTYPE_ALTERNATIVES = new RegExp(String.raw`\b(?:${DTYPE_WORD})(?:\s*(?:\/|,|\bor\b|\band\b)\s*(?:${DTYPE_WORD}))+`, 'gi');
function withoutDtypeLists(prose: string, blank: (m: string) => string): string {
  return prose.replace(DTYPE_ALTERNATIVES, (m) => (/(?:32|64)\b/.test(m) ? blank(m) : m));
}

/**
 * Code that sets full precision on purpose: a half-precision flag passed or set False (`Trainer(model, fp16=False)`,
 * `use_amp = False`), float32 named as a dtype (`.to(device, dtype=torch.float32)`, `torch_dtype=torch.float32`,
 * `torch.set_default_dtype(torch.float32)`), Lightning's `precision=32`. In a file importing the linted one it is
 * code evidence that outranks the linted file's prose ("runs in fp16"): code outranks prose.
 */
const FULL_PRECISION_CODE =
  /\b(?:fp16|bf16|use_amp\w*|amp|mixed_precision|half_precision\w*)\s*(?::\s*bool\s*)?=\s*False\b|\b(?:torch_)?dtype\s*=\s*(?:(?:torch|np|numpy|jnp)\.float32\b|["']float32["'])|set_default_dtype\(\s*torch\.float32\b|\bprecision\s*=\s*(?:32\b|["']32(?:-true)?["'])/;

/** 1-based line and column of the first code setting full precision on purpose (FULL_PRECISION_CODE), if any. */
export function fullPrecisionAt(src: string): { line: number; column: number } | undefined {
  const code = src.replace(/("""|\'\'\')[\s\S]*?\1|#[^\n]*/g, (m) => m.replace(/[^\n]/g, ' '));
  const m = FULL_PRECISION_CODE.exec(code);
  if (!m) return undefined;
  const lineStart = code.lastIndexOf('\n', m.index - 1) + 1;
  return { line: code.slice(0, m.index).split('\n').length, column: m.index - lineStart + 1 };
}

/** An `autocast(` call that does not turn autocast off (`autocast(enabled=False)` runs its body in float32). */
const AUTOCAST_ON = /autocast\s*\((?![^)]*\benabled\s*=\s*False\b)/;

/** The argument text of each `autocast(...)` call (balanced parentheses), and what the call is written as before it. */
function autocastArgs(code: string): { args: string; callee: string }[] {
  const out: { args: string; callee: string }[] = [];
  const re = /([\w.]*)autocast\s*\(/g;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    while (i < code.length && depth > 0) {
      const ch = code[i];
      if (ch === '(') depth++;
      else if (ch === ')') depth--;
      i++;
    }
    out.push({ args: code.slice(start, i - 1), callee: m[1] ?? '' });
  }
  return out;
}

/**
 * The device an autocast call names by an expression the code does not spell (`torch.autocast(device_type=device)`,
 * `torch.autocast(x.device.type)`): CUDA's autocast runs in float16, the CPU's in bfloat16, so which one is not
 * known. A call under `torch.cuda` (`torch.cuda.amp.autocast(...)`) or with no device at all (`autocast()` imported
 * from `torch.cuda.amp`) is CUDA's; a string names its device.
 */
function deviceUnknown(args: string, callee: string): boolean {
  if (/\bcuda\.(?:amp\.)?$/.test(callee)) return false;
  const kw = /\bdevice_type\s*=\s*([^,]+)/.exec(args)?.[1];
  const first = args.trim().split(',')[0]?.trim() ?? '';
  const device = kw ?? (first !== '' && !/^\w+\s*=/.test(first) ? first : undefined);
  return device !== undefined && !/^["']/.test(device.trim());
}

/**
 * A sentence of prose that offers half precision as an option rather than saying the code runs in it: a modal verb or
 * an option's wording next to it ("This can be used to enable mixed-precision training or half-precision inference on
 * GPUs or TPUs", the docstring of every Flax model of Hugging Face, whose `dtype` field defaults to float32; "fp16 may
 * be passed", "optionally in half precision", "if you want fp16"). What code may do is no evidence of what it does.
 * Likewise a sentence that says what the code avoids or guards against there, hedged ("Using -1e9 avoids potential NaN
 * issues on some GPUs or mixed precision setups", on the fill it justifies): the setups it is written to survive, not
 * the one it runs in.
 */
const OPTION_WORDING = /\b(?:can|could|may|might|optional(?:ly)?|if\s+you|avoid(?:s|ed|ing)?|prevent(?:s|ed|ing)?|potential(?:ly)?)\b/i;
/**
 * A sentence that says the code does not run in half precision, or not yet: a note left for later (`# TODO: fp16
 * training`, FIXME, XXX), or a clause of it (between semicolons and parentheses) that names half precision with a
 * negation (`# fp16 is not supported yet`, "no fp16 here", "never", "without autocast"), or switched off or failing
 * there (`# FIXME: NaNs under autocast, disabled for now`, "(fp16 diverged)", "broken"). What the code avoids or has
 * not done yet is no evidence of what it runs in; a negation in another clause (`(half with --fp16); 1 = do not
 * attend`) says nothing of it.
 */
const NOTE_WORDING = /\b(?:TODO|FIXME|XXX)\b/;
const NOT_RUN_WORDING = /\b(?:not|no|never|without|disabled?|disabling|unsupported|diverge[sd]?|diverging|broken|instead\s+of|rather\s+than)\b|n't\b/i;
function saysNotRun(sentence: string): boolean {
  return NOTE_WORDING.test(sentence) || sentence.split(/[;()]/).some((clause) => FP16_PROSE.test(clause) && NOT_RUN_WORDING.test(clause));
}
/** A sentence: up to a full stop, question or exclamation mark followed by a space or the end (not `jax.numpy.float16`), or a blank line. */
const SENTENCE = /(?:[^.!?\n]|[.!?](?!\s|$)|\n(?![ \t#]*\n))+[.!?]?/g;

/** `text` with each sentence that offers half precision as an option blanked to spaces (same offsets). */
function withoutOptions(text: string): string {
  return text.replace(SENTENCE, (sentence) =>
    (OPTION_WORDING.test(sentence) || saysNotRun(sentence)) && FP16_PROSE.test(sentence) ? sentence.replace(/[^\n]/g, ' ') : sentence,
  );
}

/**
 * `code` is the source without comments and docstrings; `prose` is the comments and docstrings only.
 * Autocast counts as float16 when its dtype says so or it has none on CUDA (`torch.autocast("cuda")`,
 * `torch.cuda.amp.autocast()`); `dtype=torch.bfloat16` or a CPU autocast (bfloat16 by default) counts as bfloat16;
 * one on a device the code does not spell (`torch.autocast(device_type=device)`) and with no dtype counts as neither.
 */
export function precisionEvidence(code: string, prose: string): PrecisionEvidence {
  let fp16 = FP16_CODE.test(code);
  let bf16 = BF16_CODE.test(code);
  if (!bf16 && HALF_FLAG_CODE.test(code)) fp16 = true;
  for (const { args, callee } of autocastArgs(code)) {
    if (/bfloat16|bf16/.test(args)) bf16 = true;
    else if (/float16|\bhalf\b|fp16/.test(args)) fp16 = true;
    else if (/["']cpu["']|device_type\s*=\s*["']cpu["']/.test(args)) bf16 = true;
    else if (deviceUnknown(args, callee)) continue;
    else if (/\bdtype\s*=/.test(args)) {
      // dtype from a variable: whatever the file spells elsewhere
      if (!bf16) fp16 = true;
    } else if (/\benabled\s*=\s*False\b/.test(args)) continue;
    else fp16 = true;
  }
  if (!fp16 && !bf16 && FP16_PROSE.test(withoutOptions(withoutDtypeLists(prose.replace(FP16_COMPATIBILITY, ''), () => ''))))
    return { fp16: true, bf16, fromProse: true };
  return { fp16, bf16, ...(fp16 && autocastOnlyCode(code) ? { autocastOnly: true } : {}) };
}

/**
 * `GradScaler` (torch.cuda.amp's, or `torch.amp.GradScaler("cuda")`), with the `amp.` it is reached through: the loss
 * scaler of autocast training.
 */
const GRAD_SCALER = /(?:\bamp\.)?\bGradScaler\b/g;

/**
 * Whether every float16 evidence of `code` (comments and docstrings stripped) is an `autocast(...)` call or a
 * `GradScaler`: blanked, nothing else says float16 (no `.half()`, dtype, fp16 flag, apex, Lightning precision).
 */
function autocastOnlyCode(code: string): boolean {
  let rest = code.replace(GRAD_SCALER, (m) => ' '.repeat(m.length));
  // Each autocast call with its arguments (a dtype named there is autocast's).
  for (const { args } of autocastArgs(rest)) rest = rest.replace(args, ' '.repeat(args.length));
  return !FP16_CODE.test(rest) && !HALF_FLAG_CODE.test(rest);
}

/**
 * Where `source` shows the precision `precisionEvidence` found: the first code that says so (`.half()`,
 * `torch.float16`, `GradScaler`, an `autocast(` call, a bf16 flag), else a comment or docstring that does.
 * UTF-16 offsets into `source`; undefined when nothing is found.
 */
export function precisionSource(source: string, which: 'fp16' | 'bf16'): { start: number; end: number } | undefined {
  // Comments and docstrings blanked to spaces of the same length, so offsets stay those of the source.
  const blanked = source.replace(/("""|''')[\s\S]*?\1|#[^\n]*/g, (m) => m.replace(/[^\n]/g, ' '));
  const code = withoutDtypeTests(blanked);
  const patterns = which === 'fp16' ? [FP16_CODE, HALF_FLAG_CODE, /autocast\s*\(/] : [BF16_CODE, /autocast\s*\(/];
  for (const re of patterns) {
    const m = re.exec(code);
    if (m) return { start: m.index, end: m.index + m[0].length };
  }
  if (which === 'bf16') return undefined;
  const prose = new RegExp(FP16_PROSE.source, 'gi');
  // Option sentences are read in the prose alone (code blanked), so no sentence runs into code (`Optional`).
  const prosePart = source.replace(/("""|''')[\s\S]*?\1|#[^\n]*|[^\n]/g, (m) => (m.length > 1 || m === '#' ? m : ' '));
  const spaces = (m: string): string => m.replace(/[^\n]/g, ' ');
  const options = withoutOptions(withoutDtypeLists(prosePart.replace(FP16_COMPATIBILITY, spaces), spaces));
  const stated = options;
  for (let m = prose.exec(stated); m; m = prose.exec(stated)) {
    if (blanked.charCodeAt(m.index) === 32 && source.charCodeAt(m.index) !== 32) return { start: m.index, end: m.index + m[0].length };
  }
  return undefined;
}

/** "this file runs in half precision", or where the importing file that runs it so says it ("train.py:12"). */
export function runsIn(p: PrecisionEvidence, which: 'fp16' | 'bf16'): MessageParts {
  if (!p.from) return msg(which === 'fp16' ? PHRASES.fileRunsInHalf : PHRASES.fileRunsInBfloat16);
  const at = `${p.from.path}:${p.from.line}`;
  if (p.from.package) return msg(which === 'fp16' ? PHRASES.packageRunsInHalf : PHRASES.packageRunsInBfloat16, p.from.path, at);
  if (p.from.project) return msg(which === 'fp16' ? PHRASES.projectRunsInHalf : PHRASES.projectRunsInBfloat16, p.from.path, at);
  if (p.from.via && p.from.via.length > 0)
    return msg(which === 'fp16' ? PHRASES.importerRunsInHalfVia : PHRASES.importerRunsInBfloat16Via, p.from.path, at, p.from.via.join(', '));
  return msg(which === 'fp16' ? PHRASES.importerRunsInHalf : PHRASES.importerRunsInBfloat16, p.from.path, at);
}
