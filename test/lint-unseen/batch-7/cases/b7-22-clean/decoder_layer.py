from torch import Tensor, nn

from multihead_attention import MultiHeadAttention


class DecoderLayer(nn.Module):
    def __init__(self, d_model, h, d_ff, p_drop=0.1):
        super().__init__()
        self.h = h
        self.self_attn = MultiHeadAttention(d_model, h, p_drop)
        self.cross_attn = MultiHeadAttention(d_model, h, p_drop)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(3)])

    def forward(self, tgt_emb, enc_output, tgt_pad_mask, tgt_autoregressive_mask, memory_pad_mask):
        tgt_mask, cross_mask = self.create_dec_mask(tgt_pad_mask, tgt_autoregressive_mask, memory_pad_mask)
        x = self.norms[0](tgt_emb + self.self_attn(tgt_emb, tgt_emb, tgt_emb, mask=tgt_mask)[0])
        x = self.norms[1](x + self.cross_attn(x, enc_output, enc_output, mask=cross_mask)[0])
        return self.norms[2](x + self.ff(x))

    def create_dec_mask(self, tgt_pad_mask: Tensor, tgt_autoregressive_mask: Tensor, memory_pad_mask: Tensor):
        # tgt_pad_mask: (B, T) True at real tokens; tgt_autoregressive_mask: (T, T) tril; memory_pad_mask: (B, S)
        batch_size, tgt_len = tgt_pad_mask.size()
        src_len = memory_pad_mask.size(1)
        tgt_pad = tgt_pad_mask.view(batch_size, 1, 1, tgt_len).expand(-1, self.h, tgt_len, -1).reshape(batch_size * self.h, tgt_len, tgt_len)
        tgt_mask = tgt_autoregressive_mask.logical_and(tgt_pad)
        cross_mask = memory_pad_mask.view(batch_size, 1, 1, src_len).expand(-1, self.h, tgt_len, -1).reshape(batch_size * self.h, tgt_len, src_len)
        return tgt_mask, cross_mask
