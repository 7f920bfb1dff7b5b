import torch
from torch import nn

from multi_head_attention import MultiHeadAttention


class TinyTransformer(nn.Module):

    def __init__(self, src_pad_idx, trg_pad_idx, voc_size, d_model, n_head, device):
        super().__init__()
        self.src_pad_idx = src_pad_idx
        self.trg_pad_idx = trg_pad_idx
        self.device = device
        self.emb = nn.Embedding(voc_size, d_model)
        self.enc_attention = MultiHeadAttention(d_model=d_model, n_head=n_head)
        self.dec_attention = MultiHeadAttention(d_model=d_model, n_head=n_head)
        self.cross_attention = MultiHeadAttention(d_model=d_model, n_head=n_head)

    def forward(self, src, trg):
        src_mask = self.make_src_mask(src)
        trg_mask = self.make_trg_mask(trg)
        enc = self.emb(src)
        enc = enc + self.enc_attention(enc, enc, enc, mask=src_mask)
        dec = self.emb(trg)
        dec = dec + self.dec_attention(dec, dec, dec, mask=trg_mask)
        return dec + self.cross_attention(dec, enc, enc, mask=src_mask)

    def make_src_mask(self, src):
        # batch_size x 1 x 1 x src_len
        src_mask = (src != self.src_pad_idx).unsqueeze(1).unsqueeze(2)
        return src_mask

    def make_trg_mask(self, trg):
        trg_pad_mask = (trg != self.trg_pad_idx).unsqueeze(1).unsqueeze(3)
        trg_len = trg.shape[1]
        trg_sub_mask = torch.tril(torch.ones(trg_len, trg_len)).type(torch.ByteTensor).to(self.device)
        trg_mask = trg_pad_mask & trg_sub_mask
        return trg_mask
