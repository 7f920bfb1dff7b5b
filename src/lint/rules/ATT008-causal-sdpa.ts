// ATT008: causal pitfalls of F.scaled_dot_product_attention.
import type { Ctx, FillSite, MaskSite, MatmulSite, SdpaSite, SoftmaxSite } from '../analysis/facts';
import { alternatives } from './evidence';
import type { Def } from '../analysis/scopes';
import { bufferReadOfQueryCount, cacheReachesKeys, truthWithCache, type FlagReader } from '../analysis/kv-cache';
import {
  causalForCausalModule,
  causalOffWithCache,
  functionScope,
  maskSkippedWithCache,
  runsOnlyWithCache,
  runsOnlyWithCallerMask,
  runsOnlyWithoutCache,
} from '../analysis/cache-paths';
import { discardedSite } from '../analysis/discarded';
import { truthOf } from '../analysis/flags';
import { originRef } from '../analysis/portable';
import type { AValue, MaskInfo } from '../analysis/values';
import { cacheColumnsAfter, topLeftRectangleSizes } from '../analysis/masks';
import { comparesLengths, ordersLengths, provesEqualLengths, provesSeveralQueries } from '../analysis/length-guards';
import { childByField, childrenByField, enclosingFunction, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';
import { earlyExitCondition } from '../syntax/python';
import { defineTemplates, msg, type MessageParts } from '../message';
import { apiName, quote, type RelatedSpec, type Rule, type RuleContext } from './rule';
import { cacheAttached, cacheJoined, definitions, maskBuilt, MASK_NAMES } from './related';

const T = defineTemplates({
  setHere: '{0} is set here',
  flagTrueOnSomeCalls: '{0} (True on some calls)',
  bothCausalAndMask:
    '{0} is passed together with attn_mask={1}: {2} raises an error when both are set. Fold the causal mask into attn_mask, or pass only one of them.',
  maskPassedAsWell: 'attn_mask is passed here as well',
  flagTrueWithCache: '{0} (True whenever the cache is used)',
  flagTrueForCausalModule: '{0} (True whenever the module is built causal, as a module decoding with this cache is)',
  flagTrueForCausalModuleWhen: '{0} (True whenever the module is built causal, as a module decoding with this cache is, and {1})',
  flagTrueAsCalled: '{0} (True as this file calls it)',
  flagTrueAsImporterCalls: '{0} (True in the module built and called at {1})',
  flagSetTrueHere: 'the flag is set to {0} here',
  causalOnCachedKeys:
    '{0} on keys {1} that include a KV cache: the causal mask is top-left aligned, so with fewer queries than keys the new tokens cannot see the most recent cached keys. Build a bottom-right aligned mask (tril(diagonal=S - L)) or use causal_lower_right.',
  theKeysCode: 'the keys {0}',
  theKeys: 'the keys',
  theKeysOfScores: 'the keys of these scores',
  topLeftBufferOnCache:
    '{0} is a causal mask aligned top-left over {1} queries and {2} keys, and the keys of these scores include a KV cache: query i sees only keys 0..i, so the new tokens cannot see the most recent cached keys. Align it bottom-right (rows {2} - {1}:{2} of the causal buffer, or tril(diagonal={2} - {1})).',
  scoresAgainstCachedKeys: 'the scores of the queries against the cached keys are formed here',
  causalOnlyWithoutCache:
    '{0} is the causal mask, applied only when no KV cache is passed, and the keys come from a cache filled in place ({1}): the prompt can only reach that cache through a call with the cache attached and several queries, where no mask is applied, so each prompt token sees the tokens after it (and the leaked states are cached). Apply the causal mask whenever there is more than one query, aligned bottom-right over the cached keys.',
  causalOffWithCache:
    '{0} turns the causal mask off whenever a KV cache is passed, and the keys come from a cache filled in place ({1}): the prompt can only reach that cache through a call with the cache attached and several queries, which then attend without a causal mask, so each prompt token sees the tokens after it (and the leaked states are cached). Pass a causal mask whenever there is more than one query, aligned bottom-right over the cached keys.',
  topLeftBiasOnCache:
    '{0} is a causal mask aligned top-left, and the keys {1} include a KV cache: with fewer queries than keys query i sees only keys 0..i, so the new tokens cannot see the most recent cached keys (a single new token sees only the first). Use the bottom-right aligned form, {2}.',
  cacheColumnsAfterTriangle:
    "{0} joins the causal triangle over the {1} new tokens with the {2} columns of the cache after it, but {3} hold the cached keys first: the triangle lies over the first cached keys and the new tokens see the columns after it, their own future tokens among them. Put the {2} columns of the cache first, before the triangle (first in torch.cat, or as F.pad's left padding).",
  topLeftMaskOnCache:
    '{0} is a causal mask aligned top-left over {1} queries and {2} keys, and the keys {3} include a KV cache: query i sees only keys 0..i, so the new tokens cannot see the most recent cached keys. Align it bottom-right (tril(diagonal={2} - {1}), or rows {2} - {1}:{2} of a causal buffer).',
});

export const ATT008: Rule = {
  meta: {
    code: 'ATT008',
    name: 'causal-sdpa',
    severity: 'error',
    fix: 'none',
    docs: {
      summary: 'is_causal=True together with attn_mask, or on a KV-cache path where query and key lengths differ.',
      whatItDoes:
        "Reports `F.scaled_dot_product_attention(..., is_causal=True)` when an `attn_mask` is passed as well (not provably None, nor a parameter every call in view leaves None, nor a mask the code has just tested to be None: the arm of `if attn_mask is None:`, the `else` of `if attn_mask is not None:`, past such an `if` that returns or raises, or past `assert attn_mask is None`, with no assignment to it in between; `self.attn(x)` of a `forward(self, x, mask=None)` that hands the mask to SDPA, while a call in view that passes a mask, in this file or one importing it, keeps it reported; a flag passed by name counts when the code shows it True somewhere, as this file calls the code or, where the evaluator does not follow the call, by a keyword, assignment, default or loop over literals that sets a flag of that name True in the file's code (`layer(x, state, prefill=True)`, `for causal in (False, True):`; not in a comment or a string, which are prose), and unless the code sets it to False itself or returns or raises earlier whenever it is True, as in `if causal: return F.scaled_dot_product_attention(q, k, v, is_causal=causal)`; a flag that nothing in view sets True, such as a parameter with a default of False and no caller, is not reported; a name set True counts only where it may set this flag: a keyword of a call of this function or class or of a callable the file neither defines nor imports (not `F.scaled_dot_product_attention(q, k, v, is_causal=True)` elsewhere in the file, nor any call of an imported function or of a module's attribute: their parameters are another module's), an assignment, a default of this function or of a method of its class, not another function's default (`def sample(logits, causal=True)`) nor a keyword of a call to another function of the file (`make_mask(T, causal=True)`); and where calls in view give the flag its value, those calls decide, not the names), and when the keys come from a KV cache (`torch.cat([past_k, k], dim=-2)`, `torch.cat([cache[0], k])`, pieces unpacked from a `layer_past` and then concatenated (`old_k, old_v = layer_past; k = torch.cat([old_k, k], dim=-2)`), `k, v = self.kv_cache.update(...)` (a method of a cache object counts when it is handed the new keys, by two tensors or more, `k = cache.extend(k)`, or by an earlier statement, `cache.append(layer, k, v)` then `k, v = cache.get(layer)`; `k, v = kv_cache.get(layer_idx)` alone is a name; an `update` method of an object neither named nor built as a cache, `k, v = self.stats.update(k, v)` of a running statistic, is a method name, not a cache) (also with `self.kv_cache = None` the class's only assignment, when code of this file or of a workspace file importing it, directly or through one file between, attaches the cache: `model.kv_cache = KVCache(...)`, `for blk in model.blocks: blk.attn.kv_cache = ...`), Llama's preallocated buffer written and read back (`self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk; keys = self.cache_k[:bsz, : start_pos + seqlen]`; a read only up to the queries' own count with no offset, `self.cache_k[:B, :, :T]` in a prefill for T queries, holds as many keys as queries and is not reported) (also one buffer per layer, `self.k_cache[layer_idx][:B, :, :start_pos + T]`), the buffer of a cache object the function has handed tensors by one of its methods just before, read from the first position on (`self.kv_cache.update_cache(seq_id, positions, k, v)` then `keys = self.kv_cache.k_cache[:, :, :positions.max() + 1]`; a read of only the new positions is not), keys repeated for grouped-query attention (`k.repeat_interleave(n_rep, dim=1)`, `repeat_kv(k, n_rep)`, `k[:, :, None].expand(...).reshape(...)`: the key axis and its length are kept), or state a class of this or another file extends by concatenation and stores back, whatever it is called: `k = torch.cat([self.keys, k], dim=-2); self.keys = k` (also a pair kept on the module, `c_k, c_v = self.kv_cache`, `k = torch.cat((c_k, k), dim=-2)`, `self.kv_cache = [k, v]`), also an entry of a store read with `.get(key)` and written back extended under the same key, `old = self.store.get(layer)`, `k = torch.cat([old[0], k], dim=-2)`, `self.store[layer] = (k, v)`, or a container the caller passes that the function fills back in place with the joined keys, `past[:] = [k, v]`, or a parameter whose pieces are joined with the keys and handed back to the caller in the same layout, `k = torch.cat([carry[0], k], dim=2)` then `return y, (k, v)`, whatever it is called; read and joined but never written back nor returned, it is no evidence) while the queries are only the new tokens. A name alone is not evidence: keys unpacked from a `cache` or `layer_past` that nothing in view joins with new keys or writes (`k, v = layer_past` used as they are) may hold as many keys as there are queries, and are not reported; nor does a piece named as a cache joined along an axis the layout shows to be the heads or the features (`torch.cat([memory_k, k], dim=1)` of (B, h, T, d) keys) add keys. The flag need not be a literal: it is read separately for the paths with and without the cache, so `is_causal=cache is not None or self.causal`, `is_causal = True` assigned inside `if past_kv is not None:`, the cache tested being whatever the cached piece of the join is read from, `past` of `torch.cat([past[0], k])`, whatever its name (or in whichever `if`/`elif`/`else` arm joins the keys with the cache, such as `if use_cache:`) and `is_causal=self.is_causal` with `self.is_causal = True` the class's only assignment count, while `is_causal=past is None` (causal only at prefill) does not when the function hands its keys back (`return out, (k, v)`: the caller may run the prompt without a cache), nor a flag whose resetting may be skipped (under a further condition, in a loop or a `try` body). A flag is also read as this file calls the code: `self.causal` set in `__init__` from a constructor argument has the value passed where the module is built (`Attend(causal=True)`, directly, as an attribute of another module or in an `nn.ModuleList`; a default counts only where a call leaves the argument out), `not`, `and` and `or` of known flags are known, `exists(mask)` and `mask is None` are known where the caller passes None, a computed tensor or nothing, and an assignment in an `if` arm whose condition is known False there does not count (also an arm that an earlier `assert past_key_value is None` or `assert not use_cache` in the function rules out, while the name is not bound again in between; `causal = self.causal; if exists(mask): ...; causal = False` is True in a cached decoding step that passes no mask, and per-layer caches fed through `for layer, layer_past in zip(self.layers, past_key_values)` are cached keys); the flag set by a base class's `__init__` through `super().__init__(dim, causal=True)` (or `Base.__init__(self, ..., causal=True)`), passed on through `**kwargs` (`Attention(dim, **attn_kwargs)` in a block built with `causal=True`), or read from a config instance's declared field (a dataclass `causal: bool = True`, as `self.cfg.causal`, with the value its constructor call passes, else the default) counts the same way; a module of this file built and called by another workspace file (`self.attend = Attend(causal=causal)` in a module built there with `causal=True`, fed cached keys) is judged as that file builds and calls it, with the call there as a related location (also one file further: a kernel module called by a module of another file that joins the cache, itself called by a third file, with the parameters that third file's call leaves out at their defaults, `attention_mask=None` passed on to the kernel as no mask); a flag known False where it is called is never reported, and one that depends on the query and key lengths (`self.causal and q.shape[-2] == k.shape[-2]`) stays unknown. A flag that tests for None the very mask the call passes (`attn_mask=attn_mask, is_causal=(attn_mask is None)`, the mask None on some path) never sets both, but is True on every call that passes no mask: on keys a cache extends it is reported as a top-left causal mask over the cached keys, unless a context in view settles the flag (a caller that always passes its mask). It also reports a causal `attn_mask` aligned top-left over L queries and S keys (`torch.tril(torch.ones(L, S))`, `self.bias[:, :, :T, :S]`, the first L rows `[:L]` of a square S×S causal mask) on cached keys; a bottom-right mask (`tril(diagonal=S - L)`, `self.bias[:, :, S - T:S, :S]`, the last rows `[-L:]` or `[S - L:]`) is right. A diagonal offset that reads a parameter the callers pass (`triu(ones(t, S), diagonal=past_length + 1)` with `past_length=0`, the cache length at the cached calls; also through a local name bound from it) shows no alignment: its default is the value of the calls without a cache, so it is not reported; a literal offset (`diagonal=1`) is. A square causal triangle over the T new tokens joined along the key axis with a block of kept columns whose size is written (`torch.zeros(T, start)`: 0 of an additive mask, True of a keep mask) is judged by the side the block goes to, since the keys hold the cached ones first: before the triangle (`torch.cat([torch.zeros(T, start), tri], dim=-1)`, `torch.hstack(...)`, `F.pad(tri, (start, 0))`) it is bottom-right aligned and right; after it (`torch.hstack([tri, torch.zeros(T, start)])`, `F.pad(tri, (0, start), value=True)`) the triangle lies over the first cached keys and the new tokens see their own future, reported at the mask. So are the top-left causal bias objects on cached keys: xformers' `LowerTriangularMask()` passed as `attn_bias` to `memory_efficient_attention` (use `LowerTriangularFromBottomRightMask()`) and `causal_upper_left(L, S)` passed as SDPA's `attn_mask` (use `causal_lower_right(L, S)`); flash-attn's `causal=True` is aligned bottom-right (since flash-attn 2.1) and is not reported. Such an object taken only in an arm that requires a mask parameter the call does not read (`if flash and attn_mask is not None:` in fairseq-style code that substitutes `LowerTriangularMask()` for the causal mask its decoder passes) is the caller's choice: the decoder may pass that mask only without a cache, so it is not reported. The same top-left mask in hand-written attention (`att.masked_fill(self.bias[:, :, :T, :S] == 0, -inf)` on scores whose keys include the cache) is reported too, also when it is made additive and added to the scores (`scores + torch.where(1 - torch.tril(torch.ones(L, S)), -inf, 0)`, reported at the added mask; MLX's `mx.tril`/`mx.where` read as NumPy's), and so is hand-written attention that applies its causal mask only when no cache is passed (`if cache is None: att = att.masked_fill(self.future[:T, :T], -inf)`) on keys a cache object extends in place (`k, v = cache.update(k, v)`, state the class grows): the prompt can only reach such a cache through a call with the cache attached and several queries, which then see the future. The same with a flag the arm joining the keys with the cache requires (`if cache_enabled:` around the join, `if not cache_enabled:` around the fill: the prompt on the empty cache runs with the flag on), unless the condition tests the grown state itself (`prefill = self.kv_cache is None`, then `if not cache_enabled or prefill:`: the prompt meets it empty). The same holds for `is_causal=past_key_value is None` on keys a cache object extends in place (`k, v = past_key_value.update(k, v, self.layer_idx)`, as with a Hugging Face `DynamicCache` that is passed for the prompt too): reported at `is_causal=`. That is left alone when the function hands its keys back (`return out, (k, v)`: the caller may fill the cache itself and pass it only for one-token steps), when the flag tests the state the module grows as the call found it (`prefill = self.kv_cache is None` before the keys are joined with it, then `is_causal=prefill`: the prompt meets that state empty and runs causal), asserts one query (`assert T == 1`; an assert of an `or`, `assert not cache_enabled or T == 1 or self.kv_cache is None`, still lets the prompt through), or masks the same scores again; and, as a call in view passes no mask, when the SDPA call also passes its caller's mask (`attn_mask=mask`), another call in view passes one and the cache there is only possibly attached (`kv_cache = KVCache(...) if use_kv_cache else None`, the masked call under `if use_kv_cache:`): the callers supply the causal mask, and which calls meet the cache is not read. A module's own flag (`is_causal=self.causal`, or `self.causal if mask is None else False`, with `self.causal = causal` an `__init__` parameter) on keys a cache grows is read True when the code shows it True: a default of True (`causal: bool = True`), a file in view that builds the module with `causal=True`, or `causal=True` in a call of the file that builds this class by its name (`Attention(dim, causal=True)`, `functools.partial(Attention, causal=True)`); a `causal=True` of any other call (`flash_attn_func(q, k, v, causal=True)`, a library's layer) builds something else, so it is a name, not this module's value, and counts for nothing; a module decoding with a KV cache is built causal, but a parameter with no default and no builder in view says nothing about its value and is not reported. A call in an `if` arm that runs only without the cache (`if layer_past is None: out = F.scaled_dot_product_attention(q, k, v, is_causal=True)`, the cached step taking the `else` arm, or past an earlier `if` with no other arm that returns or raises with the cache, `if past is not None: return ...`; `self.training` is read False where a cache decodes, so `if self.training or past is None:` runs only without it), or only where the offset a preallocated buffer is read up to is zero (`keys = self.cache_k[:B, :, :start_pos + T]` under `if start_pos == 0:`, as many keys as queries), is not reported, nor one guarded by a comparison of the query and key lengths or by a zero test of the keys' length minus the queries' (`past_len = k.shape[2] - q_len`, then `if past_len == 0:`, `if not past_len:` or the `else` of `if past_len > 0:`), also through a flag bound once to such a test (`use_sdpa = self.training and past_len == 0`, then `if use_sdpa:`; a part of an `or`, or a length read before the keys were joined with the cache, proves nothing), nor one in an `elif`/`else` arm after conditions that order the two lengths (`if k_len > q_len > 1:` with a bottom-right mask, `elif q_len == 1:` with none, `else:` with `is_causal=...`), nor one under a zero test of what the cache object holds (`if cache.offset == 0:`, `past_key_value.get_seq_length() == 0`, `len(cache) == 0`, or a local that is 0 or the cache's length, `past_len = past_key_value[0].size(2)`, then `if past_len > 0: ... else:`). A top-left causal mask or flag on keys joined with the cache that are projected from the last positions of the very input the queries are projected from whole (`q = self.q_proj(x)`, `x_kv = x[:, -1:, :]` under the cache, `k = torch.cat([past_k, self.k_proj(x_kv)], dim=2)`: the whole sequence fed again, only its newest keys taken) is not reported: the queries cover the cached positions too, not only the new tokens, so the keys may be as many as the queries. A top-left causal mask or flag the code applies only for several queries (`if q_len > 1:`, the `else` of `if q.size(2) == 1:`, past `if T == 1: return ...`, with the length read off a tensor) is the prompt's and not reported, as `is_causal = q_len > 1` is not: code that chooses its causal path by the query count treats one query as the decode step and several as the prompt, and whether a call with several queries meets a filled cache (a chunked prefill) is not in view; it is reported when the same arm runs only with the cache (`if past is not None and q_len > 1:`), and a causal mask skipped whenever the cache is passed stays reported.",
      whyIsThisBad:
        'PyTorch raises an error when both `attn_mask` and `is_causal=True` are given (or silently ignores one of them in some backends and versions). `is_causal=True` builds a top-left aligned lower-triangular mask: with L new queries against S > L cached keys, query i may only see keys 0..i, so during generation the new token attends to the first cached tokens instead of all of them.',
      example: `k = torch.cat([past_k, k], dim=-2)
v = torch.cat([past_v, v], dim=-2)
out = F.scaled_dot_product_attention(q, k, v, is_causal=True)`,
      useInstead: `k = torch.cat([past_k, k], dim=-2)
v = torch.cat([past_v, v], dim=-2)
# bottom-right aligned causal mask for L queries over S keys
L, S = q.size(-2), k.size(-2)
mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril(diagonal=S - L)
out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)`,
      whereReported:
        'At `is_causal=`, the use (at the mask argument for a top-left causal mask or bias object: `attn_mask=mask`, `attn_bias=LowerTriangularMask()`). Related locations: where the keys are joined with the KV cache (`torch.cat([past_k, k])`, `cache.update(...)`; in the importing file when that file joined them and passed them in), where a file importing this one attaches a cache the class sets only to None (`model.cache = KVCache(...)` in generate.py), the `attn_mask` passed with it and where it is built, where a causal flag passed by name is set, and, for a flag known True as this file calls the code, the argument that sets it (`causal=True` where the module is built); for one known True as an importing file builds and calls the module, that call in the other file.',
      fixSafety: 'No automatic fix: the right mask depends on how the cache is laid out.',
      references: [
        {
          title: 'torch.nn.functional.scaled_dot_product_attention (is_causal, top-left alignment)',
          url: 'https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html',
        },
        {
          title: 'torch.nn.attention.bias.causal_lower_right',
          url: 'https://pytorch.org/docs/stable/generated/torch.nn.attention.bias.causal_lower_right.html',
        },
      ],
    },
  },

  create(ctx: RuleContext) {
    const ev = ctx.analysis;
    const reported = new Set<number>();
    const flags: FlagReader = { text: (n) => ctx.text(n), definitions: (n) => (n.type === 'identifier' ? ev.resolve(n, ctx.text(n)) : selfAttributeDefs(n)) };

    /**
     * The keys include a KV cache beyond the queries: the code shows the cache reaching them (cacheReachesKeys), and
     * they are not a buffer read back only up to the queries' own count (`self.cache_k[:B, :, :T]` in a prefill at
     * position 0: as many keys as queries).
     */
    const cachedBeyondQueries = (keys: AValue, queries: AValue): boolean => cacheReachesKeys(ev, keys) && !bufferReadOfQueryCount(ev, keys, queries);
    /** Assignments to `self.flag` read at `node`: the method's own reaching ones, else the class's. */
    function selfAttributeDefs(node: PyNode): readonly Def[] | undefined {
      const local = ev.sr.uses[node.id];
      if (local && local.length > 0) return local;
      const obj = node.children.find((c) => c.field === 'object');
      const attr = node.children.find((c) => c.field === 'attribute');
      const scope = functionScope(ev, node);
      if (!obj || !attr || !scope?.ownerClass || !scope.selfName || ctx.text(obj) !== scope.selfName) return undefined;
      const defs = ev.classAttrDefs(scope.ownerClass, `self.${ctx.text(attr)}`);
      // Set by a base class of another file: its nodes are not this file's to read.
      return defs.every((d) => ev.owns(d.scope)) ? defs : undefined;
    }

    /** 'true' for a literal True; 'maybe' for a flag that can be True; undefined when provably False/None. */
    const causalIs = (valueNode: PyNode): 'true' | 'maybe' | undefined => {
      const u = unparen(valueNode);
      const t = ctx.text(u);
      if (t === 'True') return 'true';
      // A flag computed from whether a mask exists (HF: `is_causal = causal_mask is None and q_len > 1`) excludes the mask.
      if (/\bis\s+(not\s+)?None\b/.test(t)) return undefined;
      // ... or its definitions do (`is_causal = attn_mask is None`).
      const defs = u.type === 'identifier' ? ev.resolve(u, t) : undefined;
      if (defs?.some((d) => d.value !== undefined && /\bis\s+(not\s+)?None\b|\bnot\s+\w*mask/.test(ctx.text(d.value)))) return undefined;
      return 'maybe';
    };

    /**
     * Whether the file sets a flag named as one the value reads True anywhere: a keyword argument (`prefill=True`), an
     * assignment (`self.causal = True`), a parameter's default (`causal: bool = True`) or a loop over literals
     * (`for causal in (False, True):`). Names only: where the
     * flag's own value is not known in context, this is the one sign in view that the True path is ever taken.
     */
    function setTrueInFile(valueNode: PyNode): boolean {
      const words = ctx.text(valueNode).split(/[^A-Za-z0-9_]+/);
      const names = new Set(words.filter((n) => /^[A-Za-z_]\w*$/.test(n) && !/^(self|not|and|or|is|None|True|False|if|else)$/.test(n)));
      const source = ev.tree.source;
      for (const name of names) {
        for (const m of source.matchAll(new RegExp(`\\b${name}\\s*(:[^=\\n,)]*)?=\\s*True\\b`, 'g'))) if (mayReach(m.index, valueNode)) return true;
        // A loop over literal values that include True (`for causal in (False, True):`).
        if (new RegExp(`\\bfor\\s+${name}\\s+in\\s+[([][^)\\]]*\\bTrue\\b`).test(source)) return true;
      }
      return false;
    }

    /**
     * Whether the `name = True` written at `offset` may set the flag read at `valueNode`: not the default of a
     * parameter of another function (`def sample(logits, causal=True)`, another class's `__init__`), nor a keyword of a
     * call to a function or class of this file other than the one holding the flag (`make_mask(T, causal=True)`), whose
     * parameter of that name is another flag, nor a keyword of a call of an imported name (`F.scaled_dot_product_attention(
     * q, k, v, is_causal=True)` elsewhere in the file: another module's parameter; `functools.partial` of the flag's own
     * class excepted). The flag's own function, the methods of its class, assignments and keywords of calls of objects
     * the file does not define or import (`layer(x, state, prefill=True)`) may.
     */
    function mayReach(offset: number, valueNode: PyNode): boolean {
      const source = ev.tree.source;
      const fn = enclosingFunction(valueNode);
      const cls = fn?.parent?.parent?.type === 'class_definition' ? fn.parent.parent : undefined;
      // The functions and the class whose names a call may use to set the flag: its own function, the methods of its
      // class (`__init__`'s `causal`) and the class itself.
      const ownNames = new Set([fn, cls, ...(cls ? methodsOf(cls) : [])].flatMap((n) => (n ? childrenByField(n, 'name') : [])).map((n) => ctx.text(n)));
      // Prose is no code: `is_causal=True` in a comment or a docstring sets nothing.
      if (inProse(offset)) return false;
      const open = openingBracket(offset);
      if (source[open] !== '(') return true;
      const before = source.slice(Math.max(0, open - 200), open);
      const def = /\bdef\s+(\w+)\s*$/.exec(before);
      // A parameter's default: of the flag's own function, or of a method of its class (the def inside the class).
      const home = cls ?? fn;
      if (def) return !!home && home.start <= open && open < home.end;
      // A call of an imported function or of a module's attribute (`F.scaled_dot_product_attention(q, k, v, is_causal=True)`,
      // `flash_attn_func(q, k, v, causal=True)`) runs code of another module, whose parameter of that name is its own.
      const dotted = /([A-Za-z_][\w.]*)\s*$/.exec(before)?.[1];
      if (dotted && importedName(dotted.replace(/\..*$/s, ''))) return buildsOwnClass(offset, valueNode);
      const callee = /([A-Za-z_]\w*)\s*$/.exec(before)?.[1];
      if (!callee || !definedInFile(callee)) return true;
      return ownNames.has(callee);
    }

    /**
     * The text at `offset` is in a comment or a string (read from the text, as the keywords are: code outside the
     * attention may be kept unparsed): after a `#` of its line outside quotes, inside a quoted string of its line, or
     * after an odd number of triple quotes of one kind (a docstring's example, `Attention(dim, causal=True)`).
     */
    function inProse(offset: number): boolean {
      const before = ev.tree.source.slice(0, offset);
      if (['"""', "'''"].some((q) => before.split(q).length % 2 === 0)) return true;
      let quote: string | undefined;
      for (const ch of before.slice(before.lastIndexOf('\n') + 1)) {
        if (quote) {
          if (ch === quote) quote = undefined;
        } else if (ch === '"' || ch === "'") quote = ch;
        else if (ch === '#') return true;
      }
      return quote !== undefined;
    }

    /** A module-level name of the file bound only by imports (`F`, `torch`, `from flash_attn import flash_attn_func`). */
    function importedName(name: string): boolean {
      const defs = ev.sr.module.envAtEnd.get(name);
      return !!defs && defs.length > 0 && defs.every((d) => d.kind === 'import');
    }

    /**
     * The bracket the text at `offset` sits in (read from the text: code outside the attention may be kept unparsed),
     * or -1 at the top level of its statement.
     */
    function openingBracket(offset: number): number {
      const source = ev.tree.source;
      let depth = 0;
      for (let i = offset - 1; i >= 0; i--) {
        const ch = source.charAt(i);
        if (')]}'.includes(ch)) depth++;
        else if ('([{'.includes(ch)) {
          if (depth === 0) return i;
          depth--;
        } else if (ch === '\n' && depth === 0 && !/[,(\\]\s*$/.test(source.slice(Math.max(0, i - 200), i))) break;
      }
      return -1;
    }

    /**
     * Whether the keyword at `offset` is an argument of a call that builds the class holding the flag read at
     * `valueNode`: the class called by its name (`Attention(dim, causal=True)`) or bound by `partial(Attention, ...)`.
     */
    function buildsOwnClass(offset: number, valueNode: PyNode): boolean {
      const fn = enclosingFunction(valueNode);
      const cls = fn?.parent?.parent?.type === 'class_definition' ? fn.parent.parent : undefined;
      const name = cls && childByField(cls, 'name');
      const source = ev.tree.source;
      const open = openingBracket(offset);
      if (!name || source[open] !== '(' || inProse(offset)) return false;
      const own = ctx.text(name);
      const callee = /([A-Za-z_][\w.]*)\s*$/.exec(source.slice(Math.max(0, open - 200), open))?.[1];
      if (callee?.split('.').pop() === own) return true;
      return /^(functools\.)?partial$/.test(String(callee)) && new RegExp(`^\\s*${own}\\s*,`).test(source.slice(open + 1, offset));
    }

    /** The methods a class defines (decorated ones too). */
    function methodsOf(cls: PyNode): PyNode[] {
      return childrenByField(cls, 'body')
        .flatMap(namedChildren)
        .flatMap((st) => (st.type === 'decorated_definition' ? childrenByField(st, 'definition') : [st]))
        .filter((d) => d.type === 'function_definition');
    }

    /** A function or class of this file is defined under `name` (read from the text, unparsed code included). */
    function definedInFile(name: string): boolean {
      return new RegExp(`^[ \\t]*(?:async[ \\t]+)?(?:def|class)[ \\t]+${name}\\b`, 'm').test(ev.tree.source);
    }

    function resetToFalse(site: SdpaSite, valueNode: PyNode): boolean {
      const u = unparen(valueNode);
      if (u.type !== 'identifier') return false;
      const name = ctx.text(u);
      for (const d of ev.file.defsInScope(site.ctx.scope.id, name)) if (d.value && /^(False|0)$/.test(ctx.text(d.value))) return true;
      return false;
    }

    /**
     * An earlier `if flag:` of the function (no `else`) ends in a return or raise, so the flag is False where the
     * call is (`if causal: return sdpa(..., is_causal=causal)` and then `sdpa(q, k, v, mask, 0.0, causal)`).
     */
    function falseAfterEarlyExit(call: PyNode, valueNode: PyNode): boolean {
      const flag = ctx.text(unparen(valueNode));
      for (let stmt: PyNode = call, p = call.parent; p && p.type !== 'function_definition'; stmt = p, p = p.parent) {
        if (p.type !== 'block') continue;
        for (const s of p.children) {
          if (s.start >= stmt.start) break;
          const cond = earlyExitCondition(s);
          if (cond && ctx.text(unparen(cond)) === flag) return true;
        }
      }
      return false;
    }

    /** Where a flag known True in the call's context got its value (`causal=True` where the module is built). */
    function flagSetAt(at: PyNode | undefined): RelatedSpec[] {
      if (!at) return [];
      const arg = at.parent?.type === 'keyword_argument' ? at.parent : at;
      return [{ node: arg, message: msg(T.flagSetTrueHere, quote(ctx.text(arg), 30)) }];
    }

    /** A flag known True in the call's context: as this file calls the code, or as an importing file does (names it). */
    function asCalled(valueNode: PyNode, inCtx: AValue): MessageParts {
      const flag = `is_causal=${quote(ctx.text(valueNode), 40)}`;
      return inCtx.setIn ? msg(T.flagTrueAsImporterCalls, flag, originRef(inCtx.setIn)) : msg(T.flagTrueAsCalled, flag);
    }

    /** Where a causal flag passed by name is set (`is_causal = True` in the cache branch). */
    function flagDefinitions(site: SdpaSite, valueNode: PyNode): RelatedSpec[] {
      return definitions(ev, valueNode, site.ctx, (t) => msg(T.setHere, quote(t, 30)));
    }

    /**
     * A causal mask cut or built top-left over L queries and S keys (`sizes`), applied at `node` to the scores formed
     * at `formedAt`: reported at the mask when every product that formed them (in the context the site is judged in)
     * takes keys that include a cache and no guard or flag keeps the cached path away.
     */
    function topLeftOnCache(maskNode: PyNode, m: MaskInfo | undefined, sizes: readonly [string, string], node: PyNode, formedAt: PyNode, siteCtx: Ctx): void {
      const formed = formedIn(formedAt, siteCtx);
      const [first] = formed;
      if (
        !first ||
        !formed.every((mm) => cachedBeyondQueries(mm.b, mm.a) && !mm.a.fromCache) ||
        lengthGuarded(node) ||
        queryCountGuarded(node, first.b.cacheAt)
      )
        return;
      if (runsOnlyWithoutCache(flags, node, first.b.cacheAt)) return;
      reported.add(maskNode.id);
      const [l, sz] = sizes;
      const after = cacheColumnsAfter(m);
      ctx.report({
        node: maskNode,
        message: after
          ? msg(T.cacheColumnsAfterTriangle, quote(ctx.text(maskNode), 40), `\`${l}\``, after, msg(T.theKeysOfScores))
          : msg(T.topLeftBufferOnCache, quote(ctx.text(maskNode), 40), l, sz),
        related: [
          ...maskBuilt(ev, m, msg(MASK_NAMES.theCausalMask)),
          { node: first.node, message: msg(T.scoresAgainstCachedKeys) },
          cacheJoined(ev, first.b, msg(T.theKeys)),
        ],
      });
    }

    /** An additive causal mask aligned top-left (topLeftRectangleSizes) added on the path of `v`, on cached keys. */
    function addedTopLeftOnCache(v: AValue, formedAt: PyNode, siteCtx: Ctx): void {
      for (const alt of alternatives(v)) {
        for (const op of alt) {
          if (op.kind !== 'mask' || op.how !== 'add' || !op.maskNode || reported.has(op.maskNode.id)) continue;
          const m = ev.eval(op.maskNode, siteCtx).mask;
          const sizes = m?.additive ? topLeftRectangleSizes(m) : undefined;
          if (sizes) topLeftOnCache(op.maskNode, m, sizes, op.node, formedAt, siteCtx);
        }
      }
    }

    /**
     * The products that formed the scores, in the context the site is judged in when they were recorded there (a
     * helper called with cached keys: `attend(q, torch.cat([past_k, k], dim=-2), v)`), else in every context.
     */
    function formedIn(formedAt: PyNode, siteCtx: Ctx): readonly MatmulSite[] {
      const all = ev.facts.matmulAt(formedAt);
      const same = all.filter((mm) => mm.ctx === siteCtx);
      return same.length > 0 ? same : all;
    }

    /**
     * The call sits under `if L == S:`-style guards that compare query and key lengths, or in a later arm of an
     * if/elif chain whose earlier conditions order the two lengths (`if k_len > q_len > 1: <bottom-right mask>`,
     * `elif q_len == 1: <no mask>`, `else: is_causal=...`: only equal lengths are left).
     */
    function lengthGuarded(node: PyNode): boolean {
      // The keys the guarded SDPA call attends to: a zero test of their length minus the queries' proves no cache.
      const keys = ev.facts.sdpaAt(node)[0]?.kNode;
      for (let child: PyNode = node, p = node.parent; p; child = p, p = p.parent) {
        // The arm's own condition holds here (length-guards.ts: provesEqualLengths, also `use_sdpa = ... and past_len == 0`).
        const own = (p.type === 'if_statement' || p.type === 'elif_clause') && child.field === 'consequence' ? childByField(p, 'condition') : undefined;
        if (own && provesEqualLengths(ev, own, true, keys)) return true;
        if ((child.type === 'elif_clause' || child.type === 'else_clause') && p.type === 'if_statement') {
          // The conditions of the arms before this one (they end before it starts), which failed here.
          for (const arm of [p, ...p.children.filter((c) => c.type === 'elif_clause')]) {
            const cond = childByField(arm, 'condition');
            if (cond && cond.end <= child.start && (ordersLengths(ev, cond) || provesEqualLengths(ev, cond, false, keys))) return true;
          }
        }
        if (p.type === 'if_statement' || p.type === 'elif_clause' || p.type === 'conditional_expression') {
          const cond = p.type === 'conditional_expression' ? p.children.filter((c) => c.named)[1] : p.children.find((c) => c.field === 'condition');
          if (cond && /==/.test(ctx.text(cond)) && (/shape|size|len|\b[LSTN]\b|q_len|kv_len|seq/i.test(ctx.text(cond)) || comparesLengths(ev, cond)))
            return true;
        }
        if (p.type === 'function_definition') break;
      }
      return false;
    }

    /**
     * The code at `node` runs only for several queries (length-guards.ts: provesSeveralQueries): an enclosing arm
     * whose condition says so (`if q_len > 1:`, the `else` of `if q.size(2) == 1:`), or an earlier `if` of the
     * function (no `else`) that returns or raises for one query (`if T == 1: return sdpa(q, k, v)`). Code that
     * chooses its causal path by the query count treats several queries as the prompt; whether such a call ever
     * meets a filled cache is not in view. It says nothing about a mask skipped with the cache (the prompt still
     * goes through unmasked), so only the top-left alignment findings ask it. Code that also runs only with the cache
     * (`if past is not None and q_len > 1:`) shows several queries meeting the cache, and is not excused.
     */
    function queryCountGuarded(node: PyNode, join: PyNode | undefined): boolean {
      return severalQueriesAt(node) && !runsOnlyWithCache(flags, node, join);
    }

    function severalQueriesAt(node: PyNode): boolean {
      for (let child: PyNode = node, p = node.parent; p && p.type !== 'function_definition'; child = p, p = p.parent) {
        if ((p.type === 'if_statement' || p.type === 'elif_clause') && child.field === 'consequence') {
          const cond = childByField(p, 'condition');
          if (cond && provesSeveralQueries(ev, cond, true)) return true;
        }
        if ((child.type === 'elif_clause' || child.type === 'else_clause') && p.type === 'if_statement') {
          for (const arm of [p, ...p.children.filter((c) => c.type === 'elif_clause')]) {
            const cond = childByField(arm, 'condition');
            if (cond && cond.end <= child.start && provesSeveralQueries(ev, cond, false)) return true;
          }
        }
        // `sdpa(..., is_causal=True) if q_len > 1 else sdpa(...)`: the value taken where the condition holds (first) or fails (last).
        const parts = p.type === 'conditional_expression' ? namedChildren(p) : [];
        const at = parts.indexOf(child);
        const cond = parts[1];
        if (cond && at !== 1 && at >= 0 && provesSeveralQueries(ev, cond, at === 0)) return true;
        if (p.type !== 'block') continue;
        // An earlier `if <one query>: ... return` of the block: past it, there are several queries.
        for (const s of p.children) {
          if (s.start >= child.start) break;
          const cond = earlyExitCondition(s);
          if (cond && provesSeveralQueries(ev, cond, false)) return true;
        }
      }
      return false;
    }

    /**
     * The keys joined with the cache are projected from the last positions of the very input the queries are projected
     * from whole (`q = self.q_proj(x)`, `x_kv = x[:, -1:, :]` under the cache, `k = self.k_proj(x_kv)`, then
     * `torch.cat([past_k, k], dim=2)`): the code feeds the whole sequence again and takes only its newest keys, so the
     * queries cover the cached positions too, not only the new tokens, and as many queries as keys meet a top-left
     * mask that is right. Whether they are as many is not shown either way: silence. Read through the definitions that
     * reach the queries and the join's operands: a slice with a negative start and no stop (`X[:, -n:]`) of a name the
     * queries are built from, not itself on the queries' way.
     */
    function queriesSpanCache(site: SdpaSite): boolean {
      const join = site.k.cacheAt;
      /* c8 ignore next: a call that passes keys passes the queries before them, and keys a cache reaches carry the join's place (origins.ts); the types keep both optional */
      if (!site.qNode || !join) return false;
      const queries = sourcesOf(site.qNode);
      const keys = sourcesOf(join);
      for (const [name, values] of keys) {
        if (queries.has(name)) continue;
        // The slice may be one arm of a conditional (`x[:, -1:] if past is not None else x`).
        if (values.some((value) => newestOf(value, queries))) return true;
      }
      return false;
    }

    /** `value` holds a slice of the last positions (`X[:, -n:]`) of a name in `queries`. */
    function newestOf(value: PyNode, queries: ReadonlyMap<string, unknown>): boolean {
      let found = false;
      walk(value, (v) => {
        if (found || v.type !== 'subscript') return !found;
        // A name the queries are built from (an attribute's text, `self.buf`, is never one of those names).
        if (!queries.has(ctx.text(childByField(v, 'value')!))) return true;
        // A slice from a negative start to the end (only a slice's text ends with its colon).
        found = childrenByField(v, 'subscript').some((p) => /^-[^:]+:$/.test(ctx.text(p).replace(/\s+/g, '')));
        return !found;
      });
      return found;
    }

    /**
     * The names a value is built from, each with the values of its definitions that reach it, followed back through
     * those definitions (a bounded walk of the function's assignments; names of functions, keywords and attributes
     * excluded).
     */
    function sourcesOf(start: PyNode): Map<string, PyNode[]> {
      const out = new Map<string, PyNode[]>();
      const seen = new Set<number>([start.id]);
      const queue: PyNode[] = [start];
      for (let steps = 0; queue.length > 0 && steps < 64; steps++) {
        walk(queue.shift()!, (n) => {
          if (n.type !== 'identifier' || n.field === 'function' || n.field === 'name' || n.field === 'attribute') return;
          const name = ctx.text(n);
          const values = (ev.resolve(n, name) ?? []).flatMap((d) => (d.value && !seen.has(d.value.id) ? [d.value] : []));
          out.set(name, [...(out.get(name) ?? []), ...values]);
          for (const v of values) seen.add(v.id);
          queue.push(...values);
        });
      }
      return out;
    }

    /**
     * The call passes its caller's mask (`attn_mask=mask`, a parameter of the function), some call in view passes one
     * (`attn(x, causal_mask(x))`), and in this context, whose caller passes none, the cache may be absent (built as
     * `KVCache(...) if use_kv_cache else None`): the code shows callers that supply the causal mask, and which calls
     * meet the cache is a correlation of conditions (`if use_kv_cache:` around the masked call) not read here. The
     * prompt reaching the cache with no mask is then not shown (torchtune's fused-attention test script).
     */
    function callersMaskConditionalCache(site: SdpaSite, join: PyNode): boolean {
      const m = site.maskNode && unparen(site.maskNode);
      if (!m || m.type !== 'identifier' || !site.ctx.bindings) return false;
      /* c8 ignore next: a mask that is no parameter (a local) gets here only when None in this context, which no fixture builds */
      if (!(ev.resolve(m, ctx.text(m)) ?? []).some((d) => d.param)) return false;
      const passed = ev.facts.sdpaAt(site.node).some((s) => s.ctx.bindings && s.mask !== undefined && s.mask.kind !== 'none' && !s.mask.maybeNone);
      // The join a cache object extends in place is a call (extendedInPlace): `cache.update(...)`, or `torch.cat([...])`
      // of the state the class grows, whose receiver (`torch`) is never None; a bare `cat(...)` has no receiver (no object field).
      /* c8 ignore next: the grammar gives every call a function; the type makes it optional */
      const fn = unparen(childByField(unparen(join), 'function') ?? join);
      const cache = childByField(fn, 'object');
      return passed && !!cache && !!ev.eval(cache, site.ctx).maybeNone;
    }

    /**
     * The mask, a local or parameter, is None at `call` by the code's own tests: an enclosing arm where `mask is None`
     * holds (or `mask is not None` failed), past an earlier `if mask is not None:` of an enclosing block that returns
     * or raises, or past `assert mask is None`, with no definition of the name between the test and the call.
     */
    function provenNoneAt(call: PyNode, maskNode: PyNode): boolean {
      const u = unparen(maskNode);
      if (u.type !== 'identifier' && u.type !== 'attribute') return false;
      const name = ctx.text(u);
      // The test holds at the call only when every definition reaching it comes before the test (for an attribute,
      // `self.mask`, when no assignment to it lies between the test and the call).
      const defs = u.type === 'identifier' ? (ev.resolve(u, name) ?? []) : [];
      const writes: PyNode[] = [];
      walk(enclosingFunction(call) ?? call, (n) => {
        const left = n.type === 'assignment' || n.type === 'augmented_assignment' ? childByField(n, 'left') : undefined;
        if (left && ctx.text(left) === name) writes.push(n);
      });
      const before = (test: PyNode): boolean =>
        defs.every((d) => d.target.end <= test.start) && !writes.some((w) => w.start >= test.start && w.start < call.start);
      for (let child: PyNode = call, p = call.parent; p && p.type !== 'function_definition'; child = p, p = p.parent) {
        if ((p.type === 'if_statement' || p.type === 'elif_clause') && child.field === 'consequence') {
          const cond = childByField(p, 'condition');
          if (cond && before(cond) && noneIn(cond, name, true)) return true;
        }
        if ((child.type === 'elif_clause' || child.type === 'else_clause') && p.type === 'if_statement') {
          for (const arm of [p, ...p.children.filter((c) => c.type === 'elif_clause')]) {
            const cond = childByField(arm, 'condition');
            if (cond && cond.end <= child.start && before(cond) && noneIn(cond, name, false)) return true;
          }
        }
        if (p.type !== 'block') continue;
        for (const st of p.children) {
          if (st.start >= child.start) break;
          if (st.type === 'assert_statement') {
            const cond = namedChildren(st)[0];
            if (cond && before(st) && noneIn(cond, name, true)) return true;
          }
          const cond = earlyExitCondition(st);
          if (cond && before(st) && noneIn(cond, name, false)) return true;
        }
      }
      return false;
    }

    /** Whether `cond` having the truth value `holds` says `name` is None (`name is None` holding, `name is not None` failing). */
    function noneIn(cond: PyNode, name: string, holds: boolean): boolean {
      const c = unparen(cond);
      if (c.type === 'boolean_operator') {
        const op = c.children.find((ch) => !ch.named)?.type;
        return ((op === 'and' && holds) || (op === 'or' && !holds)) && namedChildren(c).some((part) => noneIn(part, name, holds));
      }
      if (c.type === 'not_operator') {
        const arg = childByField(c, 'argument');
        return !!arg && noneIn(arg, name, !holds);
      }
      const t = ctx.text(c).replace(/\s+/g, ' ');
      return (holds && t === `${name} is None`) || (!holds && t === `${name} is not None`);
    }

    /**
     * Hand-written causal attention masked only when no KV cache is passed, on keys a cache object extends in place
     * (cache-paths.ts: maskSkippedWithCache): reported at the mask.
     */
    function causalOnlyWithoutCache(site: FillSite): boolean {
      const found = maskSkippedWithCache(ev, flags, site, lengthGuarded);
      if (!found || reported.has(found.mask.id)) return false;
      reported.add(found.mask.id);
      ctx.report({
        node: found.mask,
        message: msg(T.causalOnlyWithoutCache, quote(ctx.text(found.mask), 40), quote(ctx.text(found.join), 40)),
        related: [
          ...maskBuilt(ev, site.mask?.mask, msg(MASK_NAMES.theCausalMask)),
          cacheJoined(ev, found.scores.b, msg(T.theKeys)),
          { node: found.scores.node, message: msg(T.scoresAgainstCachedKeys) },
        ],
      });
      return true;
    }

    /**
     * A module's own causal flag taken True on keys a cache grows (cache-paths.ts: causalForCausalModule), unless a
     * file that builds and calls the module says what the flag is (judged in those contexts).
     */
    function causalForCausalModuleHere(site: SdpaSite, valueNode: PyNode): { when?: PyNode } | undefined {
      const settled = ev.facts.sdpaAt(site.node).some((s) => s.ctx !== site.ctx && truthOf(ev.eval(valueNode, s.ctx)) !== undefined);
      // The module's flag itself (`self.causal`) known True in some context of this call: where a file in view builds it.
      const seenTrue = (n: PyNode): boolean => ev.facts.sdpaAt(site.node).some((s) => truthOf(ev.eval(n, s.ctx)) === true);
      // `causal=True` written in the file in a call that builds this very class (`Attention(dim, causal=True)` where the
      // evaluator does not follow the construction, `functools.partial(Attention, causal=True)`): a value for this
      // module's parameter. Not a keyword of any other call (`flash_attn_func(q, k, v, causal=True)`, a layer of a
      // library): which object that builds is not this module, so it is a name, not a value.
      const keywordTrue = (name: string): boolean =>
        [...ev.tree.source.matchAll(new RegExp(`\\b${name}\\s*=\\s*True\\b`, 'g'))].some((m) => buildsOwnClass(m.index, valueNode));
      return settled ? undefined : causalForCausalModule(ev, flags, valueNode, site.k.cacheAt, seenTrue, keywordTrue);
    }

    /**
     * The flag is `m is None` of the very expression the call passes as its attn_mask (`attn_mask=attn_mask,
     * is_causal=attn_mask is None`), a mask that may be None there, and no other context in view settles the flag: it
     * is True on every call that passes no mask. Read from the code's structure, not from names.
     */
    function flagIsOwnMaskAbsent(site: SdpaSite, valueNode: PyNode): boolean {
      const u = unparen(valueNode);
      const left = namedChildren(u)[0];
      const mask = site.maskNode && unparen(site.maskNode);
      if (u.type !== 'comparison_operator' || left?.type !== 'identifier' || mask?.type !== 'identifier') return false;
      if (ctx.text(u).replace(/\s+/g, ' ') !== `${ctx.text(mask)} is None`) return false;
      const maybeNone = site.mask?.kind === 'none' || site.mask?.maybeNone === true;
      return maybeNone && !ev.facts.sdpaAt(site.node).some((s) => s.ctx !== site.ctx && truthOf(ev.eval(valueNode, s.ctx)) !== undefined);
    }

    /**
     * A causal bias object aligned top-left passed as the mask (xformers' `LowerTriangularMask()` as `attn_bias`,
     * `causal_upper_left(L, S)` as SDPA's `attn_mask`, directly or through one assignment), with the bottom-right form
     * that replaces it.
     */
    function topLeftBias(site: SdpaSite): { node: PyNode; instead: string } | undefined {
      const xformers = /xformers/.test(site.display);
      const args = site.node.children.filter((c) => c.type === 'argument_list').flatMap(namedChildren);
      const keyword = args.find((a) => a.type === 'keyword_argument' && ctx.text(a).startsWith('attn_bias'));
      const xformersBias = keyword ? childByField(keyword, 'value') : args.filter((a) => a.type !== 'keyword_argument')[3];
      const node = xformers ? xformersBias : site.maskNode;
      if (!node) return undefined;
      const value = assignedValue(node);
      const name = value?.type === 'call' ? ctx.text(value).replace(/\(.*$/s, '').split('.').pop() : undefined;
      if (xformers && name === 'LowerTriangularMask') return { node, instead: 'LowerTriangularFromBottomRightMask()' };
      if (!xformers && name === 'causal_upper_left') return { node, instead: 'causal_lower_right(L, S)' };
      return undefined;
    }

    /** The expression itself, or for a name the value of its one reaching definition (`bias = LowerTriangularMask()`). */
    function assignedValue(node: PyNode): PyNode | undefined {
      const u = unparen(node);
      if (u.type !== 'identifier') return u;
      const defs = ev.resolve(u, ctx.text(u));
      const only = defs?.length === 1 ? defs[0] : undefined;
      return only?.path.length === 0 ? only.value : undefined;
    }

    /** A top-left causal bias object (topLeftBias) on keys that include a KV cache. */
    function topLeftBiasOnCache(site: SdpaSite): void {
      const bias = topLeftBias(site);
      if (
        !bias ||
        reported.has(bias.node.id) ||
        !cachedBeyondQueries(site.k, site.q) ||
        lengthGuarded(site.node) ||
        queryCountGuarded(site.node, site.k.cacheAt) ||
        runsOnlyWithoutCache(flags, site.node, site.k.cacheAt) ||
        runsOnlyWithCallerMask(ev, site.node)
      )
        return;
      reported.add(bias.node.id);
      /* c8 ignore next: keys include a cache only when the call passes them (kNode); the type keeps the field optional */
      const keys = quote(ctx.text(site.kNode ?? site.node), 30);
      ctx.report({
        node: bias.node,
        message: msg(T.topLeftBiasOnCache, quote(ctx.text(bias.node), 40), keys, bias.instead),
        related: [cacheJoined(ev, site.k, msg(T.theKeysCode, keys)), ...cacheAttached(ev, site.k)],
      });
    }

    return {
      sdpa(site: SdpaSite) {
        topLeftBiasOnCache(site);
        if (site.framework !== 'torch' || !site.causalNode) return;
        if (reported.has(site.node.id)) return;
        // The flag's value: the keyword argument's value, or the positional argument itself.
        const valueNode = site.causalNode.type === 'keyword_argument' ? childByField(site.causalNode, 'value') : site.causalNode;
        /* c8 ignore next: the grammar gives every keyword_argument a value; the types make the field optional */
        if (!valueNode) return;
        // The flag in this evaluation context (flags.ts): `self.causal` of a module built with causal=True, a local
        // reset to False only in an arm that cannot run here (`if exists(mask):` where the caller passes no mask).
        const inCtx = ev.eval(valueNode, site.ctx);
        const known = truthOf(inCtx);
        if (known === false) return;
        const literal = causalIs(valueNode);
        const causal = literal ?? (known === true ? 'maybe' : undefined);
        const setIn = known === true && literal !== 'true' ? flagSetAt(inCtx.setAt) : [];
        // In the default context (no caller's arguments), a mask that every call in view leaves None is no mask: those
        // calls are the code's own uses (`self.attn(x)` where `forward(self, x, mask=None)` passes it to SDPA).
        const others = site.ctx.bindings ? [] : ev.facts.sdpaAt(site.node).filter((s) => s.ctx !== site.ctx);
        const noneWhereCalled = others.length > 0 && others.every((s) => s.mask?.kind === 'none');
        const maskGiven =
          site.maskNode &&
          site.mask &&
          site.mask.kind !== 'none' &&
          unparen(site.maskNode).type !== 'none' &&
          !noneWhereCalled &&
          !provenNoneAt(site.node, site.maskNode);
        // A flag (not a literal True) only counts when the mask is certainly there and the code never resets the
        // flag to False itself (x-transformers: `if exists(mask) and causal: ...; causal = False`) nor returns
        // earlier whenever it is True.
        const flagOk =
          causal === 'true' ||
          known === true ||
          (site.mask?.kind === 'tensor' && !site.mask.maybeNone && !resetToFalse(site, valueNode) && !falseAfterEarlyExit(site.node, valueNode));
        // A flag whose value no code in view gives (a parameter, an attribute set from one) is evidence only when the
        // file sets a flag of that name True somewhere (`prefill=True` where the layers are called, a default of True).
        // Calls in view that give the flag a value (known in their contexts) settle it: the default context's guess from
        // names is not needed (True there is reported there; False there is no error).
        const settledElsewhere =
          !site.ctx.bindings && ev.facts.sdpaAt(site.node).some((s) => s.ctx !== site.ctx && truthOf(ev.eval(valueNode, s.ctx)) !== undefined);
        const flagSeenTrue = causal === 'true' || known === true || (!settledElsewhere && setTrueInFile(valueNode));
        if (causal && maskGiven && flagOk && flagSeenTrue) {
          reported.add(site.node.id);
          const flag =
            causal === 'true' ? 'is_causal=True' : known === true ? asCalled(valueNode, inCtx) : msg(T.flagTrueOnSomeCalls, `is_causal=${ctx.text(valueNode)}`);
          ctx.report({
            node: site.causalNode,
            message: msg(T.bothCausalAndMask, flag, quote(ctx.text(site.maskNode), 40), apiName(site.display)),
            related: [
              { node: site.maskNode, message: msg(T.maskPassedAsWell) },
              ...maskBuilt(ev, site.mask?.mask, msg(MASK_NAMES.attnMask)),
              ...flagDefinitions(site, valueNode),
              ...setIn,
            ],
          });
          return;
        }
        if (
          !site.kNode ||
          !cachedBeyondQueries(site.k, site.q) ||
          site.q.fromCache ||
          lengthGuarded(site.node) ||
          runsOnlyWithoutCache(flags, site.node, site.k.cacheAt)
        )
          return;
        // `is_causal=past_key_value is None` on keys a cache object extends in place: the prompt goes through unmasked.
        const off = maskGiven ? undefined : causalOffWithCache(ev, flags, valueNode, site.k.cacheAt, site.node, lengthGuarded);
        const offAt = off && !callersMaskConditionalCache(site, off) ? off : undefined;
        if (offAt) {
          reported.add(site.node.id);
          const keys = quote(ctx.text(site.kNode), 30);
          ctx.report({
            node: site.causalNode,
            message: msg(T.causalOffWithCache, `is_causal=${quote(ctx.text(valueNode), 40)}`, quote(ctx.text(offAt), 40)),
            related: [cacheJoined(ev, site.k, msg(T.theKeysCode, keys)), ...cacheAttached(ev, site.k), ...flagDefinitions(site, valueNode)],
          });
          return;
        }
        // Past here the findings are of a top-left alignment: a causal path taken only for several queries is the prompt's.
        if (queryCountGuarded(site.node, site.k.cacheAt) || queriesSpanCache(site)) return;
        const withCache = truthWithCache({ ...flags, cacheJoinedAt: site.k.cacheAt }, valueNode).cached;
        // Known True in this context (every path of it, so with the cache too), unless read False with the cache.
        const trueHere = known === true && withCache !== false;
        const forCausal = causal === 'true' || withCache === true || trueHere || known !== undefined ? undefined : causalForCausalModuleHere(site, valueNode);
        if (forCausal) {
          reported.add(site.node.id);
          const flag = `is_causal=${quote(ctx.text(valueNode), 40)}`;
          const keys = quote(ctx.text(site.kNode), 30);
          ctx.report({
            node: site.causalNode,
            message: msg(
              T.causalOnCachedKeys,
              forCausal.when ? msg(T.flagTrueForCausalModuleWhen, flag, quote(ctx.text(forCausal.when), 40)) : msg(T.flagTrueForCausalModule, flag),
              keys,
            ),
            related: [cacheJoined(ev, site.k, msg(T.theKeysCode, keys)), ...cacheAttached(ev, site.k), ...flagDefinitions(site, valueNode)],
          });
          return;
        }
        // `is_causal=attn_mask is None` beside `attn_mask=attn_mask`: the flag is True exactly on the calls that pass no
        // mask, cached ones included, where SDPA's own causal mask is aligned top-left over the cached keys.
        if (causal === undefined && known === undefined && withCache !== false && flagIsOwnMaskAbsent(site, valueNode)) {
          reported.add(site.node.id);
          const keys = quote(ctx.text(site.kNode), 30);
          ctx.report({
            node: site.causalNode,
            message: msg(T.causalOnCachedKeys, msg(T.flagTrueOnSomeCalls, `is_causal=${quote(ctx.text(valueNode), 40)}`), keys),
            related: [cacheJoined(ev, site.k, msg(T.theKeysCode, keys)), ...cacheAttached(ev, site.k)],
          });
          return;
        }
        if (causal === 'true' || withCache === true || trueHere) {
          reported.add(site.node.id);
          const flag =
            causal === 'true'
              ? 'is_causal=True'
              : withCache === true
                ? msg(T.flagTrueWithCache, `is_causal=${quote(ctx.text(valueNode), 40)}`)
                : asCalled(valueNode, inCtx);
          const keys = quote(ctx.text(site.kNode), 30);
          ctx.report({
            node: site.causalNode,
            message: msg(T.causalOnCachedKeys, flag, keys),
            related: [
              cacheJoined(ev, site.k, msg(T.theKeysCode, keys)),
              ...cacheAttached(ev, site.k),
              ...flagDefinitions(site, valueNode),
              ...(withCache === true ? [] : setIn),
            ],
          });
        }
      },
      fill(site: FillSite) {
        if (discardedSite(ev, site) || causalOnlyWithoutCache(site)) return;
        // Hand-written attention: the scores of queries against keys that include a cache, masked with a causal mask
        // cut top-left from a buffer (`att.masked_fill(self.bias[:, :, :T, :S] == 0, -inf)`).
        const m = site.mask?.mask;
        const sizes = topLeftRectangleSizes(m);
        const attn = site.target.attn;
        if (!site.maskNode || !sizes || attn?.stage !== 'scores' || reported.has(site.maskNode.id)) return;
        topLeftOnCache(site.maskNode, m, sizes, site.node, attn.formedAt, site.ctx);
      },
      softmax(site: SoftmaxSite) {
        // Hand-written attention: a causal mask built top-left over L queries and S keys, made additive
        // (`where(1 - tril(ones(L, S)), -inf, 0)`, `(1 - tril(...)) * -1e9`) and added to scores whose keys include
        // a KV cache (`scores = scores + mask`): the same misalignment as the masked_fill form above.
        if (site.input.attn?.stage === 'scores') addedTopLeftOnCache(site.input, site.input.attn.formedAt, site.ctx);
      },
      matmul(site: MatmulSite) {
        // The same, read at the product with the values, in the context that formed the scores: a softmax written as
        // a helper (`softmax(scores, axis=-1)`) is judged in the helper's own context, the scores in their caller's.
        if (site.a.attn?.stage === 'weights') addedTopLeftOnCache(site.a, site.a.attn.formedAt, site.ctx);
      },
      mask(site: MaskSite) {
        if (discardedSite(ev, site)) return;
        // A causal attn_mask cut or built top-left over L queries and S keys (`tril(ones(L, S))`, `bias[..., :L, :S]`)
        // on keys that include a KV cache: the same misalignment as is_causal=True.
        const sizes = topLeftRectangleSizes(site.mask.mask);
        if (site.convention !== 'api' || !sizes || reported.has(site.maskNode.id)) return;
        const sdpa = ev.facts.sdpaAt(site.node).find((s) => s.ctx === site.ctx);
        if (
          !sdpa?.kNode ||
          !cachedBeyondQueries(sdpa.k, sdpa.q) ||
          sdpa.q.fromCache ||
          lengthGuarded(sdpa.node) ||
          queryCountGuarded(sdpa.node, sdpa.k.cacheAt) ||
          queriesSpanCache(sdpa)
        )
          return;
        if (runsOnlyWithoutCache(flags, sdpa.node, sdpa.k.cacheAt)) return;
        reported.add(site.maskNode.id);
        const [l, s] = sizes;
        const keys = quote(ctx.text(sdpa.kNode), 30);
        const after = cacheColumnsAfter(site.mask.mask);
        ctx.report({
          node: site.maskNode,
          message: after
            ? msg(T.cacheColumnsAfterTriangle, quote(ctx.text(site.maskNode), 40), `\`${l}\``, after, msg(T.theKeysCode, keys))
            : msg(T.topLeftMaskOnCache, quote(ctx.text(site.maskNode), 40), l, s, keys),
          related: [...maskBuilt(ev, site.mask.mask, msg(MASK_NAMES.attnMask)), cacheJoined(ev, sdpa.k, msg(T.theKeysCode, keys))],
        });
      },
    };
  },
};
