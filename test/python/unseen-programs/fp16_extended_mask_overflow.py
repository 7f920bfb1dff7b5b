# label: buggy
# why: the extended mask is built in float16 from -1e9, which overflows to -inf in that dtype
# requires: torch2
import torch
import torch.nn as nn


class HalfEncoderLayer(nn.Module):
    def __init__(self, hidden=64, heads=4):
        super().__init__()
        self.heads = heads
        self.head_size = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.head_size).permute(0, 2, 1, 3)

    def forward(self, hidden_states, extended_attention_mask):
        q = self.split(self.query(hidden_states))
        k = self.split(self.key(hidden_states))
        v = self.split(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / self.head_size ** 0.5
        scores = scores + extended_attention_mask  # expect: ATT007
        probs = nn.functional.softmax(scores, dim=-1)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3)
        return ctx.reshape(hidden_states.shape)


def get_extended_attention_mask(attention_mask, dtype):
    ext = attention_mask[:, None, None, :].to(dtype)
    return (1.0 - ext) * -1e9


if __name__ == "__main__":
    torch.manual_seed(19)
    ids = torch.tensor([[2, 14, 9, 3, 0, 0], [2, 8, 8, 31, 17, 3]])
    attention_mask = (ids != 0).long()
    emb = nn.Embedding(40, 64, padding_idx=0).half()
    layer = HalfEncoderLayer().half()
    with torch.no_grad():
        ext = get_extended_attention_mask(attention_mask, torch.float16)
        out = layer(emb(ids), ext)
    print(out.dtype, out.shape, torch.isfinite(out).all().item())
