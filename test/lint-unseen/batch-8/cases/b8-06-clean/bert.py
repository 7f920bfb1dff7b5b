import torch.nn as nn

from attention import HeadList
from embeddings import BertEmbeddings


class EncoderLayer(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int):
        super().__init__()
        self.attn = HeadList(hidden_size, num_heads)
        self.n1 = nn.LayerNorm(hidden_size)
        self.ff = nn.Sequential(nn.Linear(hidden_size, 4 * hidden_size), nn.GELU(), nn.Linear(4 * hidden_size, hidden_size))
        self.n2 = nn.LayerNorm(hidden_size)

    def forward(self, x, mask):
        x = self.n1(x + self.attn(x, x, x, mask=mask))
        return self.n2(x + self.ff(x))


class Bert(nn.Module):
    def __init__(self, vocab_size: int, hidden_size: int = 256, num_heads: int = 4, num_layers: int = 4):
        super().__init__()
        self.embed = BertEmbeddings(vocab_size, hidden_size)
        self.layers = nn.ModuleList([EncoderLayer(hidden_size, num_heads) for _ in range(num_layers)])
        self.mlm = nn.Linear(hidden_size, vocab_size)
        self.nsp = nn.Linear(hidden_size, 2)
        self.log_softmax = nn.LogSoftmax(dim=-1)

    def forward(self, input_ids, segment_ids):
        x = self.embed(input_ids, segment_ids)
        mask = self.embed.forward_mask(input_ids)
        for layer in self.layers:
            x = layer(x, mask)
        return self.log_softmax(self.mlm(x)), self.log_softmax(self.nsp(x[:, 0]))
