# case: causal-xtransformers-attend-kv-len-mask
# modelled-on: lucidrains/x-transformers https://github.com/lucidrains/x-transformers/commit/cb50439bbd7b6463b79f600f544faec0c79851f7
# label: correct
# pattern: the same attend helper after the fix: whenever there are more keys than queries (a KV cache) and the flag is set, it builds the bottom-right aligned causal mask itself, folds it into the key mask (or uses it alone), and resets the local flag to False; only then is the flag passed to SDPA's is_causal
# why: is_causal=True now reaches SDPA only when k_len == q_len (no cache), where top-left and bottom-right alignment agree; with a cache the explicit bottom-right mask (`triu(j - i + 1)` marks the masked positions) lets the new token see the whole prefix
# looks-like: ATT008, ATT002
import torch
import torch.nn.functional as F
from torch import nn
from einops import rearrange


def exists(val):
    return val is not None


def create_causal_mask(i, j, device):
    # True above the bottom-right aligned diagonal: positions to mask out
    return torch.ones((i, j), device=device, dtype=torch.bool).triu(j - i + 1)


class Attend(nn.Module):
    def __init__(self, causal=False, dropout=0.0):
        super().__init__()
        self.causal = causal
        self.dropout = dropout

    def forward(self, q, k, v, mask=None):
        batch, heads, q_len, k_len, device = q.shape[0], q.shape[1], q.shape[-2], k.shape[-2], q.device

        causal = self.causal

        if exists(mask):
            mask = mask.expand(batch, heads, q_len, k_len)

        # a KV cache (more keys than queries): build the bottom-right causal mask here
        if k_len > q_len and causal:
            causal_mask = create_causal_mask(q_len, k_len, device)
            mask = ~causal_mask if not exists(mask) else mask & ~causal_mask
            causal = False

        # a key mask was given: fold the causal mask into it by hand
        if exists(mask) and causal:
            causal_mask = create_causal_mask(q_len, k_len, device)
            mask = mask & ~causal_mask
            causal = False

        return F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=mask,
            dropout_p=self.dropout if self.training else 0.0,
            is_causal=causal,
        )


class Attention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, causal=False):
        super().__init__()
        self.heads = heads
        inner = heads * dim_head
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_kv = nn.Linear(dim, inner * 2, bias=False)
        self.to_out = nn.Linear(inner, dim, bias=False)
        self.attend = Attend(causal=causal)

    def forward(self, x, mask=None, cache=None):
        h = self.heads
        q = rearrange(self.to_q(x), 'b n (h d) -> b h n d', h=h)
        k, v = self.to_kv(x).chunk(2, dim=-1)
        k, v = (rearrange(t, 'b n (h d) -> b h n d', h=h) for t in (k, v))

        if exists(cache):
            ck, cv = cache
            k = torch.cat((ck, k), dim=-2)
            v = torch.cat((cv, v), dim=-2)

        if exists(mask):
            mask = rearrange(mask, 'b j -> b 1 1 j')

        out = self.attend(q, k, v, mask=mask)
        out = rearrange(out, 'b h n d -> b n (h d)')
        return self.to_out(out), (k, v)


class Decoder(nn.Module):
    def __init__(self, dim, depth, heads=8):
        super().__init__()
        self.layers = nn.ModuleList([Attention(dim, heads=heads, causal=True) for _ in range(depth)])

    def forward(self, x, mask=None):
        new_cache = []
        for layer in self.layers:
            out, kv = layer(x, mask=mask)
            x = x + out
            new_cache.append(kv)
        return x, new_cache

    @torch.no_grad()
    def decode_step(self, x_last, cache):
        # cached decoding: one new token, keys and values of the prefix from the cache, no mask
        new_cache = []
        for layer, layer_cache in zip(self.layers, cache):
            out, kv = layer(x_last, cache=layer_cache)
            x_last = x_last + out
            new_cache.append(kv)
        return x_last, new_cache
