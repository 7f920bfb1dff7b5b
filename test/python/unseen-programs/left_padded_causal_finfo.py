# label: correct
# why: left-padded batch with causal + padding mask filled with finfo.min: pad query rows are uniform (finite) and ignored, real queries never see padding
import torch
import torch.nn as nn

PAD = 0


def build_mask(ids, dtype):
    T = ids.size(1)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    allowed = causal[None, None, :, :] & (ids != PAD)[:, None, None, :]
    mask = torch.zeros(allowed.shape, dtype=dtype)
    return mask.masked_fill(~allowed, torch.finfo(dtype).min)


class Attention(nn.Module):
    def __init__(self, d=32, h=2):
        super().__init__()
        self.h, self.hd = h, d // h
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x, mask):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.h, self.hd).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.hd).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, self.hd).transpose(1, 2)
        w = torch.matmul(q, k.transpose(2, 3)) * self.hd ** -0.5 + mask
        w = w.softmax(dim=-1)
        return torch.matmul(w, v).transpose(1, 2).reshape(B, T, D)


if __name__ == "__main__":
    torch.manual_seed(21)
    prompts = [[5, 9, 2], [3, 3, 7, 1, 8]]
    width = max(len(p) for p in prompts)
    ids = torch.tensor([[PAD] * (width - len(p)) + p for p in prompts])
    emb = nn.Embedding(12, 32, padding_idx=PAD)
    attn = Attention()
    with torch.no_grad():
        x = emb(ids)
        out = attn(x, build_mask(ids, x.dtype))
    print(torch.isnan(out).any().item(), out[:, -1].shape)
