import torch
import torch.nn as nn

# Half precision is not supported by this layer yet; run it in float32.


class KeyPaddedAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, pad):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = torch.bmm(q, k.transpose(1, 2)) / q.size(-1) ** 0.5
        scores = scores.masked_fill(pad[:, None, :], -1e9)
        return torch.bmm(scores.softmax(dim=-1), v)


model = KeyPaddedAttention(128).cuda()
