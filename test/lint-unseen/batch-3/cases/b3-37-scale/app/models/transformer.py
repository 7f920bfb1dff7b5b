import torch.nn as nn

from app.config.constant import EMBED_DIM, MAX_SEQ_LEN, NUM_HEAD, NUM_LAYER, PAD_ID
from app.layers.head_attention import MultiHeadAttention


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(EMBED_DIM)
        self.attn = MultiHeadAttention(NUM_HEAD)
        self.ln2 = nn.LayerNorm(EMBED_DIM)
        self.ff = nn.Sequential(nn.Linear(EMBED_DIM, 4 * EMBED_DIM), nn.ReLU(), nn.Linear(4 * EMBED_DIM, EMBED_DIM))

    def forward(self, x, mask):
        x = x + self.attn(self.ln1(x), mask)
        return x + self.ff(self.ln2(x))


class TransformerModel(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, EMBED_DIM)
        self.pos = nn.Embedding(MAX_SEQ_LEN, EMBED_DIM)
        self.blocks = nn.ModuleList([Block() for _ in range(NUM_LAYER)])
        self.head = nn.Linear(EMBED_DIM, vocab_size)

    def forward(self, input):
        x = self.tok(input) + self.pos.weight[: input.size(1)]
        pad_mask = (input == PAD_ID).unsqueeze(2)  # (B, S, 1): True at <PAD>
        pad_mask = pad_mask & pad_mask.transpose(1, 2)  # (B, S, S): True where both positions are padding
        for block in self.blocks:
            x = block(x, pad_mask)
        return self.head(x)
