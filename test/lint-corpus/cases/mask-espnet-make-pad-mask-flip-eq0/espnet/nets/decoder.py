# case: mask-espnet-make-pad-mask-flip-eq0
# modelled-on: espnet/espnet https://github.com/espnet/espnet/issues/6116
# label: correct
# pattern: three files between the lengths and the fill: make_pad_mask (nets_utils.py) is True at the padding, the decoder flips it with ~ and ands it with subsequent_mask's tril (mask.py), and MultiHeadedAttention (attention.py) turns the keep mask back into a fill mask with .eq(0) before masked_fill(mask, min) and the zeroing of fully masked rows after the softmax
# why: the reporter of #6116 read the ~ in the decoder as inverting the mask the attention then applies, and withdrew it on seeing .eq(0): the keep mask (True at the real tokens and the past) is inverted once more inside the attention, so masked_fill fills the padding and the future
# looks-like: ATT002, ATT006, ATT007
import torch
from torch import nn

from espnet.nets.attention import MultiHeadedAttention
from espnet.nets.mask import subsequent_mask
from espnet.nets.nets_utils import make_pad_mask


class DecoderLayer(nn.Module):
    def __init__(self, size, self_attn, src_attn, dropout_rate):
        super().__init__()
        self.size = size
        self.self_attn = self_attn
        self.src_attn = src_attn
        self.norm1 = nn.LayerNorm(size)
        self.norm2 = nn.LayerNorm(size)
        self.dropout = nn.Dropout(dropout_rate)

    def forward(self, tgt, tgt_mask, memory, memory_mask):
        x = self.norm1(tgt)
        x = tgt + self.dropout(self.self_attn(x, x, x, tgt_mask))
        y = self.norm2(x)
        return x + self.dropout(self.src_attn(y, memory, memory, memory_mask))


class TransformerDecoder(nn.Module):
    def __init__(self, vocab_size, attention_dim=256, attention_heads=4, num_blocks=6, dropout_rate=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, attention_dim)
        self.decoders = nn.ModuleList(
            [
                DecoderLayer(
                    attention_dim,
                    MultiHeadedAttention(attention_heads, attention_dim, dropout_rate),
                    MultiHeadedAttention(attention_heads, attention_dim, dropout_rate),
                    dropout_rate,
                )
                for _ in range(num_blocks)
            ]
        )
        self.output_layer = nn.Linear(attention_dim, vocab_size)

    def forward(self, hs_pad, hlens, ys_in_pad, ys_in_lens):
        tgt = ys_in_pad
        # tgt_mask: (B, 1, L), True at the real tokens
        tgt_mask = (~make_pad_mask(ys_in_lens)[:, None, :]).to(tgt.device)
        # m: (1, L, L)
        m = subsequent_mask(tgt_mask.size(-1), device=tgt_mask.device).unsqueeze(0)
        # tgt_mask: (B, L, L)
        tgt_mask = tgt_mask & m

        memory = hs_pad
        memory_mask = (~make_pad_mask(hlens, maxlen=memory.size(1)))[:, None, :].to(memory.device)

        x = self.embed(tgt)
        for decoder in self.decoders:
            x = decoder(x, tgt_mask, memory, memory_mask)
        return self.output_layer(x)
