# case: t35bb-07-clean
# modelled-on: llm-random/llm-random https://github.com/llm-random/llm-random/commit/b65a1e35023f87e5420c12c0c1d7faface160505
# label: correct
# class: clean
# pattern: a research LLM codebase's attention with a muP option: a fused projection viewed as (B, L, heads, 3 * dhead) and transposed to (B, heads, L, 3 * dhead) then chunked into q, k, v; the non-flash path transposes them back to (B, L, heads, dhead) and forms the scores with `einsum("... l h d, ... L h d -> ... h l L")`, multiplies them by `attn_scale`, fills `tril(ones_like(a)) == 0` with -inf in place, softmax(dim=-1) over L, and reads the values with `einsum("... h l L, ... L h d -> ... l h d")`; `attn_scale` is parsed in the constructor from a command-line option ("sqrt" -> 1/sqrt(dhead), "dhead" -> 1/dhead for muP, or a float), the flash path hands it to SDPA's `scale=`
# why: correct: the heads-after-tokens layout is read by the einsum's own labels (scores h l L, softmax over L, the key axis, and the product with the values sums over L); 1/dhead is the muP attention scaling (Yang et al., Tensor Programs V), chosen deliberately by the "dhead" option that a muP run sets, and 1/sqrt(dhead) is the default; the causal mask is a keep triangle (tril) whose zeros are filled with -inf, and the diagonal is never masked
# looks-like: ATT001, ATT002, ATT004
# source: https://github.com/llm-random/llm-random https://github.com/llm-random/llm-random/commit/b65a1e35023f87e5420c12c0c1d7faface160505 lizrd/core/llm.py
import torch
import torch.nn as nn
import torch.nn.functional as F


def attention_mechanism(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    dhead: int,
    causal: bool,
    flash: bool,
    attn_scale: float = None,
):
    if flash:
        with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False, enable_mem_efficient=False):
            output = F.scaled_dot_product_attention(
                query=query.contiguous(),
                key=key.contiguous(),
                value=value.contiguous(),
                attn_mask=None,
                is_causal=causal,
                scale=attn_scale,
            )
    else:
        # implementation without flash assumes other dim order
        query = query.transpose(1, 2)
        key = key.transpose(1, 2)
        value = value.transpose(1, 2)

        a = torch.einsum("... l h d, ... L h d -> ... h l L", query, key)
        if attn_scale is None:
            a = a * (1 / dhead**0.5)
        else:
            a = a * attn_scale
        if causal:
            a.masked_fill_(torch.tril(torch.ones_like(a)) == 0, float("-inf"))  # mask out future tokens
        a = torch.softmax(a, dim=-1)
        output = torch.einsum("... h l L, ... L h d -> ... l h d", a, value)
        output = output.transpose(1, 2)

    return output


class AttentionMechanism(nn.Module):
    def __init__(self, use_flash_attention: bool):
        super().__init__()
        self.use_flash_attention = use_flash_attention

    def forward(self, query, key, value, dhead: int, causal: bool, attn_scale: float = None):
        return attention_mechanism(
            query=query, key=key, value=value, dhead=dhead, causal=causal,
            flash=self.use_flash_attention, attn_scale=attn_scale,
        )


class Attention(nn.Module):
    def __init__(self, dmodel, heads, causal, dhead=None, flash=False, attn_scale: str = None):
        super().__init__()
        if dhead is None:
            assert dmodel % heads == 0
            dhead = dmodel // heads
        self.heads = heads
        self.dhead = dhead
        self.causal = causal
        self.flash = flash
        self.attn_scale = self.parse_attention_scale(attn_scale)
        self.input_projection = nn.Linear(dmodel, 3 * heads * dhead, bias=False)
        self.output_projection = nn.Linear(heads * dhead, dmodel, bias=False)
        self.attention_mechanism = AttentionMechanism(use_flash_attention=flash)

    def forward(self, x):
        projected = self.input_projection(x)
        batch, seq_len = x.shape[:-1]
        projected = projected.view(batch, seq_len, self.heads, 3 * self.dhead).transpose(1, 2)
        q, k, v = torch.chunk(projected, chunks=3, dim=-1)
        attention_output = self.attention_mechanism(
            query=q, key=k, value=v, dhead=self.dhead, causal=self.causal, attn_scale=self.attn_scale,
        )
        return self.output_projection(attention_output.transpose(1, 2).flatten(-2))

    def parse_attention_scale(self, attn_scale: str):
        if attn_scale is None or attn_scale == "sqrt":
            return 1.0 / self.dhead**0.5
        elif attn_scale == "dhead":
            return 1.0 / self.dhead
        else:
            try:
                return float(attn_scale)
            except ValueError:
                raise ValueError(f"Invalid attention normalization value: {attn_scale}")
