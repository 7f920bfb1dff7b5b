# case: causal-openlm-torch-attn-length-branches
# modelled-on: mlfoundations/open_lm https://github.com/mlfoundations/open_lm/commit/e01685554b04624ffdb2d86c1970485232c14e9f
# label: correct
# pattern: a language model's block calls its attention with is_causal=True (a literal at the call); the attention joins the tuple cache past_key_value[0]/[1] in front of the new keys with torch.cat on the sequence axis (dim=1, layout (B, S, H, D)) and hands the flag to a module-level torch_attn helper, which branches on the lengths: more keys than queries and more than one query -> an explicit bottom-right additive mask; a single query -> no mask at all; otherwise (as many queries as keys) -> SDPA with is_causal
# why: is_causal reaches SDPA only in the last branch, where the query and key lengths are equal (no cache, or a prefill), so top-left and bottom-right alignment agree; with a cache the helper either builds the bottom-right mask itself (tril over the last q_len columns) or lets a single new token see every key
# looks-like: ATT008
import torch
import torch.nn as nn
import torch.nn.functional as F


def rectangular_causal_mask(shape, q_seq_len, k_seq_len, device, dtype):
    # queries are the last q_seq_len positions of the key sequence
    keep = torch.ones((q_seq_len, k_seq_len), device=device, dtype=torch.bool)
    keep[:, -q_seq_len:] = torch.tril(keep[:, -q_seq_len:], diagonal=0)
    return torch.zeros((*shape, q_seq_len, k_seq_len), device=device, dtype=dtype).masked_fill(~keep, float("-inf"))


def torch_attn(queries, keys, values, is_causal):
    # q, k, v: (batch, seq, heads, dim)
    if is_causal and keys.shape[1] > queries.shape[1] > 1:
        bias = rectangular_causal_mask((1, 1), queries.shape[1], keys.shape[1], queries.device, queries.dtype)
        out = F.scaled_dot_product_attention(queries.transpose(1, 2), keys.transpose(1, 2), values.transpose(1, 2), attn_mask=bias)
    elif queries.shape[1] == 1:
        out = F.scaled_dot_product_attention(queries.transpose(1, 2), keys.transpose(1, 2), values.transpose(1, 2))
    else:
        out = F.scaled_dot_product_attention(queries.transpose(1, 2), keys.transpose(1, 2), values.transpose(1, 2), is_causal=is_causal)
    return out.transpose(1, 2).contiguous()


class CustomAttn(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.in_proj = nn.Linear(dim, 3 * dim, bias=False)
        self.out_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x, is_causal=True, past_key_value=None, use_cache=False):
        batchsize, q_len, _ = x.shape
        queries, keys, vals = self.in_proj(x).chunk(3, dim=-1)
        queries = queries.view(batchsize, q_len, self.n_heads, self.head_dim)
        keys = keys.view(batchsize, q_len, self.n_heads, self.head_dim)
        vals = vals.view(batchsize, q_len, self.n_heads, self.head_dim)

        if past_key_value is not None and use_cache:
            keys = torch.cat([past_key_value[0], keys], dim=1)
            vals = torch.cat([past_key_value[1], vals], dim=1)
        if use_cache:
            past_key_value = [keys, vals]

        output = torch_attn(queries, keys, vals, is_causal=is_causal)
        return self.out_proj(output.view(batchsize, q_len, -1)), past_key_value


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.attention = CustomAttn(dim, n_heads)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x, past_key_value=None, use_cache=False):
        h, past_key_value = self.attention(self.norm(x), is_causal=True, past_key_value=past_key_value, use_cache=use_cache)
        return x + h, past_key_value
