import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, 8, batch_first=True)

    def forward(self, x, key_padding_mask=None):
        return self.attn(x, x, x, key_padding_mask=key_padding_mask, need_weights=False)[0]


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.block = Block(d)

    def forward(self, x, attention_mask):
        # attention_mask: 1 = token (from the tokenizer); MHA takes True at padding
        return self.block(x, key_padding_mask=attention_mask == 0)
