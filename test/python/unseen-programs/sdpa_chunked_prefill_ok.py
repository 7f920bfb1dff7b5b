# label: correct
# why: chunked prefill with fewer queries than keys uses a bottom-right aligned mask (tril with diagonal = k_len - q_len)
# requires: torch2
import torch
import torch.nn as nn
import torch.nn.functional as F


def chunk_mask(q_len, k_len):
    return torch.ones(q_len, k_len, dtype=torch.bool).tril(diagonal=k_len - q_len)


class Layer(nn.Module):
    def __init__(self, d=32, heads=2):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)

    def forward(self, x, past=None):
        B, T, D = x.shape
        hd = D // self.heads
        q = self.q(x).view(B, T, self.heads, hd).transpose(1, 2)
        k, v = self.kv(x).view(B, T, 2, self.heads, hd).permute(2, 0, 3, 1, 4)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        mask = chunk_mask(T, k.size(2))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return out.transpose(1, 2).reshape(B, T, D), (k, v)


if __name__ == "__main__":
    torch.manual_seed(25)
    layer = Layer()
    document = torch.randn(1, 12, 32)
    past = None
    outputs = []
    for chunk in document.split(4, dim=1):
        out, past = layer(chunk, past)
        outputs.append(out)
    full, _ = layer(document)
    print(torch.allclose(torch.cat(outputs, dim=1), full, atol=1e-5))
