# case: t29v-01-clean
# modelled-on: deniskirbaba/nlp-vk https://github.com/deniskirbaba/nlp-vk/commit/20d81864a8ee3a53befcd95a4d1aa12a0dd20b90
# label: correct
# class: clean
# pattern: an NLP course homework's grouped-query scaled dot-product attention on [batch, seq, heads, dim] tensors: the last axis of the query is unpacked as `embed_dim`, the scale is embed_dim ** -0.5, the kv heads are repeat_interleave'd up to the query heads, the logits are an einsum "bqhd,bkhd->bhqk" (no transpose), a tril(seq_len, kv_seq_len) causal mask is filled with -inf, and F.softmax(..., dim=-1) normalises; the output einsum goes back to [batch, seq, heads, dim]
# why: correct: despite its name, `embed_dim` is the last axis of a [batch, seq, heads, dim] query, i.e. one head's width, so embed_dim ** -0.5 is 1/sqrt(d_head); the einsum output is "bhqk", so dim=-1 is the key axis, and the einsum contracts d without any transpose; the causal mask follows PyTorch's own is_causal convention (top-left aligned tril(L, S)), which the homework compares against, and there is no KV cache in this function
# looks-like: ATT004, ATT001, ATT005
# source: https://github.com/deniskirbaba/nlp-vk https://github.com/deniskirbaba/nlp-vk/commit/20d81864a8ee3a53befcd95a4d1aa12a0dd20b90 Homework/03/gqa.py
import torch
import torch.nn.functional as F


def scaled_dot_product_gqa(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    is_causal: bool = True,
    need_weights: bool = False,
):
    """Grouped scaled dot-product attention.

    query: [batch, seq, num_heads, dim]
    key, value: [batch, kv_seq, num_kv_heads, dim]
    returns the output [batch, seq, num_heads, dim] and, if asked, the weights
    [batch, num_heads, seq, kv_seq]
    """
    _, seq_len, num_heads, embed_dim = query.shape
    _, kv_seq_len, kv_heads, _ = key.shape

    if num_heads % kv_heads != 0:
        raise ValueError("num_heads must be a multiple of kv_heads")

    group = num_heads // kv_heads
    scale = embed_dim ** -0.5

    if kv_heads < num_heads:
        key = key.repeat_interleave(group, dim=2)
        value = value.repeat_interleave(group, dim=2)

    logits = torch.einsum("bqhd,bkhd->bhqk", query, key) * scale

    if is_causal:
        keep = torch.tril(torch.ones(seq_len, kv_seq_len, dtype=torch.bool, device=query.device))
        logits = logits.masked_fill(~keep, float("-inf"))

    weights = F.softmax(logits, dim=-1)
    out = torch.einsum("bhqk,bkhd->bqhd", weights, value)

    if need_weights:
        return out, weights
    return out, None


if __name__ == "__main__":
    q = torch.randn(2, 6, 8, 16)
    k = torch.randn(2, 6, 2, 16)
    v = torch.randn(2, 6, 2, 16)
    out, w = scaled_dot_product_gqa(q, k, v, need_weights=True)
    print(out.shape, w.shape)
