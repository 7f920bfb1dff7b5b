# case: causal-xtransformers-attend-flag-no-mask-cache
# modelled-on: lucidrains/x-transformers https://github.com/lucidrains/x-transformers/commit/cb50439bbd7b6463b79f600f544faec0c79851f7
# label: buggy
# pattern: an attend helper module keeps `self.causal` from its constructor (a decoder builds it with causal=True through an attention layer); its forward copies the flag to a local, folds a bottom-right causal mask into the key mask and resets the local to False only when a mask is given, and passes the local to SDPA's is_causal; the attention layer joins cached keys/values in front of the new ones with torch.cat, and the decoder's cached decoding step passes no mask
# why: on a cached decoding step no mask is passed, so the flag stays True while the keys include the cache; SDPA's is_causal is top-left aligned, so the new query sees only the first cached key instead of the whole prefix (issue #187; the fix builds the bottom-right causal mask whenever k_len > q_len)
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
            # a key mask was given: fold the causal mask into it by hand
            if causal:
                causal_mask = create_causal_mask(q_len, k_len, device)
                mask = mask & ~causal_mask
                causal = False

        return F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=mask,
            dropout_p=self.dropout if self.training else 0.0,
            is_causal=causal,  # expect: ATT008
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
