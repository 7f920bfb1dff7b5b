import torch
from torch import nn

from room.attn import PackedSelfAttention
from room.prims import Dense


class DecoderBlock(nn.Module):
    def __init__(self, width, heads, p_drop=0.1):
        super().__init__()
        self.attn = PackedSelfAttention(width, width, heads)
        self.norm1 = nn.LayerNorm(width)
        self.norm2 = nn.LayerNorm(width)
        self.up = Dense(width, 4 * width)
        self.down = Dense(4 * width, width)
        self.drop = nn.Dropout(p_drop)

    def forward(self, x, key_valid=None):
        h = self.norm1(x + self.drop(self.attn(x, is_causal=True, key_valid=key_valid)))
        return self.norm2(h + self.drop(self.down(torch.relu(self.up(h)))))


@torch.no_grad()
def sample(model, prompt_ids, steps, window, device):
    ids = list(prompt_ids)
    for _ in range(steps):
        ctx = torch.tensor([ids[-window:]], device=device)
        logits = model(ctx)[0, -1]
        ids.append(int(torch.multinomial(torch.softmax(logits, dim=-1), 1)))
    return ids[len(prompt_ids):]
