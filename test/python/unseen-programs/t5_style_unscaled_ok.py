# label: correct
# why: T5-style attention has no 1/sqrt(d) on purpose (it is folded into the initialisation of q); relative position bias added to the scores
import torch
import torch.nn as nn
import torch.nn.functional as F


class T5Attention(nn.Module):
    def __init__(self, d_model=32, n_heads=4, num_buckets=8):
        super().__init__()
        self.n_heads, self.d_kv = n_heads, d_model // n_heads
        self.num_buckets = num_buckets
        self.q = nn.Linear(d_model, d_model, bias=False)
        self.k = nn.Linear(d_model, d_model, bias=False)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)
        self.relative_attention_bias = nn.Embedding(num_buckets, n_heads)
        nn.init.normal_(self.q.weight, std=(d_model * self.d_kv) ** -0.5)  # the scale lives here

    def position_bias(self, T):
        rel = torch.arange(T)[None, :] - torch.arange(T)[:, None]
        buckets = rel.abs().clamp(max=self.num_buckets - 1)
        return self.relative_attention_bias(buckets).permute(2, 0, 1)[None]  # [1, H, T, T]

    def forward(self, x, mask):
        B, T, D = x.shape
        shape = lambda t: t.view(B, T, self.n_heads, self.d_kv).transpose(1, 2)
        q, k, v = shape(self.q(x)), shape(self.k(x)), shape(self.v(x))
        scores = torch.matmul(q, k.transpose(3, 2))
        scores = scores + self.position_bias(T) + mask
        attn = F.softmax(scores.float(), dim=-1).type_as(scores)
        return self.o(torch.matmul(attn, v).transpose(1, 2).reshape(B, T, D))


if __name__ == "__main__":
    torch.manual_seed(52)
    ids = torch.tensor([[37, 423, 19, 1, 0, 0], [8, 55, 140, 2, 91, 1]])
    emb = nn.Embedding(500, 32, padding_idx=0)
    mask = (ids == 0)[:, None, None, :].float() * torch.finfo(torch.float32).min
    print(T5Attention()(emb(ids), mask).shape)
