# case: b13-04-clean
# modelled-on: shreyansh26/Attention-Mask-Patterns https://github.com/shreyansh26/Attention-Mask-Patterns/commit/289059a21b27bfb80e332cd5de2db3a5be4cfb56
# label: correct
# class: clean
# pattern: a benchmark of attention-mask patterns: FlexAttention mask_mods in their own module (prefix-LM as causal | in_prefix, a causal sliding window as causal & near, per-document causal masks) turned into a block mask for flex_attention and, with torch.nn.attention.flex_attention.create_mask, into a dense boolean mask handed to SDPA as attn_mask; the plain causal baseline is SDPA with is_causal=True on equal-length q, k, v under the flash backend
# why: correct: mask_mods return True where attention is allowed, and SDPA's boolean attn_mask means exactly that (True = take part in attention), so the dense mask has the right polarity with no inversion; every row keeps its diagonal (q_idx >= kv_idx holds at q_idx == kv_idx, and the window and document terms hold there too), so no row is empty; is_causal=True is used with queries and keys of the same length and no cache, where top-left and bottom-right alignment coincide; what a naive linter could misread: ATT002 (a boolean attn_mask that is an OR of a causal and a prefix mask, built in another module, never inverted), ATT008 (is_causal=True next to an explicit mask)
# looks-like: ATT002, ATT008
# source: https://github.com/shreyansh26/Attention-Mask-Patterns https://github.com/shreyansh26/Attention-Mask-Patterns/commit/289059a21b27bfb80e332cd5de2db3a5be4cfb56 prefix_lm.py
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.nn.attention.flex_attention import create_block_mask, create_mask, flex_attention
from torch.nn.functional import scaled_dot_product_attention
from triton.testing import do_bench

from mask_mods import pick

B, H, S, D = 8, 16, 4096, 64


def run(name: str) -> dict:
    q, k, v = [torch.randn(B, H, S, D, requires_grad=True, dtype=torch.float16, device="cuda") for _ in range(3)]
    mask_mod = pick(name, S)
    block_mask = create_block_mask(mask_mod, B=B, H=None, Q_LEN=S, KV_LEN=S)
    dense = create_mask(mask_mod, B=1, H=1, Q_LEN=S, KV_LEN=S, device="cuda")

    flex = torch.compile(flex_attention)
    times = {
        "flex_fwd": do_bench(lambda: flex(q, k, v, block_mask=block_mask).sum()),
        "sdpa_mask_fwd": do_bench(lambda: scaled_dot_product_attention(q, k, v, attn_mask=dense).sum()),
        "sdpa_mask_bwd": do_bench(lambda: scaled_dot_product_attention(q, k, v, attn_mask=dense).sum().backward()),
    }
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        times["fa_causal_fwd"] = do_bench(lambda: scaled_dot_product_attention(q, k, v, is_causal=True).sum())
        times["fa_causal_bwd"] = do_bench(lambda: scaled_dot_product_attention(q, k, v, is_causal=True).sum().backward())

    ref = scaled_dot_product_attention(q, k, v, attn_mask=dense)
    out = flex(q, k, v, block_mask=block_mask)
    times["max_err"] = (ref - out).abs().max().item()
    return times


if __name__ == "__main__":
    for pattern in sys.argv[1:] or ["prefix", "window", "docs"]:
        print(pattern, run(pattern))
