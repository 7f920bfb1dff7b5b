from torch import matmul, nn, softmax


class MultiheadedAttention(nn.Module):
    def __init__(self, d_model, heads=2):
        super().__init__()
        self.heads = heads
        self.heads_dim = int(d_model / heads)
        self.to_query = nn.Linear(d_model, heads * self.heads_dim, bias=False)
        self.to_key = nn.Linear(d_model, heads * self.heads_dim, bias=False)
        self.to_value = nn.Linear(d_model, heads * self.heads_dim, bias=False)
        self.unify_heads = nn.Linear(heads * self.heads_dim, d_model, bias=False)

    def forward(self, inputs, mask=None, kv=None):
        bs, seq, _ = inputs.shape
        kv = inputs if kv is None else kv
        kv_bs, kv_seq, _ = kv.size()
        q = self.to_query(inputs).view(bs, seq, self.heads, self.heads_dim).transpose(1, 2)
        k = self.to_key(kv).view(kv_bs, kv_seq, self.heads, self.heads_dim).transpose(1, 2)
        v = self.to_value(kv).view(kv_bs, kv_seq, self.heads, self.heads_dim).transpose(1, 2)
        # scale before the dot product: q / fourth_root(head_dim) and k / fourth_root(head_dim)
        q = q / (self.heads_dim ** 1 / float(4))  # expect: ATT004
        k = k / (self.heads_dim ** 1 / float(4))
        scores = matmul(q, k.transpose(-1, -2))
        if mask is not None:
            scores = scores.masked_fill(mask == 1, value=-1e9)  # mask: 1 where a position is hidden
        weights = softmax(scores, dim=-1)
        out = matmul(weights, v).transpose(1, 2).contiguous().view(bs, seq, self.heads * self.heads_dim)
        return self.unify_heads(out)
