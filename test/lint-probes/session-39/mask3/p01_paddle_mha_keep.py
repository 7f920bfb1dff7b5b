import paddle
import paddle.nn as nn


class Encoder(nn.Layer):
    def __init__(self, d=128, h=4, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(1000, d)
        self.mha = nn.MultiHeadAttention(d, h)

    def forward(self, ids):
        x = self.emb(ids)  # [B, S, d]
        # Paddle: a bool attn_mask is True where attention is allowed
        keep = (ids != self.pad_id).unsqueeze([1, 2])  # [B, 1, 1, S]
        return self.mha(x, x, x, attn_mask=keep)
