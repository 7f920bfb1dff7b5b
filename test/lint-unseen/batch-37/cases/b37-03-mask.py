# case: b37-03-mask
# modelled-on: lucidrains/fast-transformer-pytorch https://github.com/lucidrains/fast-transformer-pytorch/commit/294899bc741ebded7d9e7162529d5d92010f10c5
# label: buggy
# class: real-bug
# pattern: Fastformer additive attention (Wu et al. 2021): per head, queries are projected to one logit each, scaled, masked and softmaxed over the sequence to pool a global query; the keys are multiplied by it, projected to logits, masked and softmaxed again to pool a global key that multiplies the values; the model passes a (b, n) boolean mask, True on real tokens (the README calls it with mask = torch.ones(1, 4096).bool()), and the layer fills masked_fill(mask, -finfo.max)
# why: buggy: masked_fill fills where its mask is True, and this mask is True on the tokens to keep, so every real token's logit is set to -finfo.max and the pooling attends only to padding (with an all-True mask every logit is filled and the softmax is uniform); the author's next commit (1629c68, "invert mask") changes both calls to masked_fill(~mask, mask_value)
# source: https://github.com/lucidrains/fast-transformer-pytorch https://github.com/lucidrains/fast-transformer-pytorch/commit/294899bc741ebded7d9e7162529d5d92010f10c5 fast_transformer_pytorch/fast_transformer_pytorch.py
import torch
from torch import nn, einsum
from einops import rearrange


class AdditiveAttention(nn.Module):
    def __init__(self, dim, *, heads=8, dim_head=64):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.qkv = nn.Linear(dim, inner * 3, bias=False)
        self.q_logit = nn.Linear(dim_head, 1, bias=False)
        self.k_logit = nn.Linear(dim_head, 1, bias=False)
        self.out = nn.Linear(inner, dim)

    def forward(self, x, mask=None):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, 'b n (h d) -> b h n d', h=self.heads) for t in (q, k, v))

        neg = -torch.finfo(x.dtype).max
        mask = rearrange(mask, 'b n -> b () n')

        # pool the queries into one global query per head
        q_logits = rearrange(self.q_logit(q), 'b h n () -> b h n') * self.scale
        q_logits = q_logits.masked_fill(mask, neg)  # expect: ATT002
        q_weights = q_logits.softmax(dim=-1)
        global_q = einsum('b h n, b h n d -> b h d', q_weights, q)
        k = k * rearrange(global_q, 'b h d -> b h () d')

        # pool the query-modulated keys into one global key per head
        k_logits = rearrange(self.k_logit(k), 'b h n () -> b h n') * self.scale
        k_logits = k_logits.masked_fill(mask, neg)  # expect: ATT002
        k_weights = k_logits.softmax(dim=-1)
        global_k = einsum('b h n, b h n d -> b h d', k_weights, k)

        v = v * rearrange(global_k, 'b h d -> b h () d')
        return self.out(rearrange(v, 'b h n d -> b n (h d)'))


class AdditiveLM(nn.Module):
    def __init__(self, *, num_tokens, dim, depth, max_seq_len, heads=8, dim_head=64):
        super().__init__()
        self.tok = nn.Embedding(num_tokens, dim)
        self.pos = nn.Embedding(max_seq_len, dim)
        self.blocks = nn.ModuleList([])
        for _ in range(depth):
            self.blocks.append(nn.ModuleList([
                nn.LayerNorm(dim),
                AdditiveAttention(dim, heads=heads, dim_head=dim_head),
                nn.LayerNorm(dim),
                nn.Sequential(nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim)),
            ]))
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_tokens))

    def forward(self, ids, mask=None):
        n = ids.shape[1]
        x = self.tok(ids) + self.pos(torch.arange(n, device=ids.device))[None]
        for norm1, attn, norm2, ff in self.blocks:
            x = attn(norm1(x), mask=mask) + x
            x = ff(norm2(x)) + x
        return self.head(x)


if __name__ == '__main__':
    model = AdditiveLM(num_tokens=20000, dim=512, depth=2, max_seq_len=4096)
    ids = torch.randint(0, 20000, (1, 4096))
    keep = torch.ones(1, 4096).bool()
    logits = model(ids, mask=keep)
