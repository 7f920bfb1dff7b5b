import math

import torch
import torch.nn.functional as F

from seqenc.attention import CausalSelfAttention


def reference_attention(x, mask, qkv, out, n_heads):
    """Key padding and causal mask as one boolean keep mask (True = may attend)."""
    B, T, d_model = x.shape
    hd = d_model // n_heads
    q, k, v = F.linear(x, qkv.weight).chunk(3, dim=-1)
    q, k, v = (t.view(B, T, n_heads, hd).transpose(1, 2) for t in (q, k, v))
    am = mask[:, None, None, :] & torch.ones(T, T, dtype=torch.bool).tril()[None, None]
    if hasattr(F, "scaled_dot_product_attention"):
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=am)
    else:
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
        y = torch.softmax(scores.masked_fill(~am, float("-inf")), dim=-1) @ v
    return F.linear(y.transpose(1, 2).reshape(B, T, d_model), out.weight)


def test_matches_reference():
    torch.manual_seed(0)
    attn = CausalSelfAttention(d_model=16, n_heads=2).eval()
    x = torch.randn(3, 5, 16)
    mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 0]], dtype=torch.bool)
    expected = reference_attention(x, mask, attn.W, attn.final_proj, 2)
    torch.testing.assert_close(attn(x, mask), expected, rtol=1e-5, atol=1e-5)
