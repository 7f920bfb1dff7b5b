import torch
import torch.nn.functional as F

from musictr.attention import RelativeGlobalAttention
from musictr.masking import look_ahead_with_pad


class DecoderBlock(torch.nn.Module):
    def __init__(self, d_model, h=8, max_seq=2048, rate=0.1):
        super().__init__()
        self.rga = RelativeGlobalAttention(h=h, d=d_model, max_seq=max_seq)
        self.ffn_pre = torch.nn.Linear(d_model, d_model // 2)
        self.ffn_suf = torch.nn.Linear(d_model // 2, d_model)
        self.ln1 = torch.nn.LayerNorm(d_model, eps=1e-6)
        self.ln2 = torch.nn.LayerNorm(d_model, eps=1e-6)
        self.drop = torch.nn.Dropout(rate)

    def forward(self, x, mask=None):
        attn, w = self.rga([x, x, x], mask=mask)
        x = self.ln1(x + self.drop(attn))
        return self.ln2(x + self.drop(self.ffn_suf(F.relu(self.ffn_pre(x))))), w


class MusicDecoder(torch.nn.Module):
    def __init__(self, vocab_size, d_model=256, layers=6, h=8, max_seq=2048, pad_token=0):
        super().__init__()
        self.max_seq = max_seq
        self.pad_token = pad_token
        self.embed = torch.nn.Embedding(vocab_size, d_model)
        self.blocks = torch.nn.ModuleList([DecoderBlock(d_model, h, max_seq) for _ in range(layers)])
        self.out = torch.nn.Linear(d_model, vocab_size)

    def forward(self, tokens):
        mask = look_ahead_with_pad(tokens.size(1), tokens, self.pad_token)
        x = self.embed(tokens)
        for block in self.blocks:
            x, _ = block(x, mask=mask)
        return self.out(x)
