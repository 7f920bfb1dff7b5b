# case: fill-hyunwoongko-keep-mask-tiny-fill
# modelled-on: hyunwoongko/transformer https://github.com/hyunwoongko/transformer/issues/10
# label: buggy
# pattern: keep masks built in transformer.py ((src != pad).unsqueeze(1).unsqueeze(2), and the target's pad mask anded with a tril of ones) travel through MultiHeadAttention (multi_head_attention.py) to ScaleDotProductAttention (scale_dot_product_attention.py), which fills with masked_fill(mask == 0, -e), where e is a keyword parameter defaulting to 1e-12
# why: the fill value is -1e-12, practically zero, so the padding and the future keep nearly the scores of real tokens and still receive attention after the softmax; the maintainer fixed it in #10 (the fill became a large negative number)
import torch
from torch import nn

from models.layers.multi_head_attention import MultiHeadAttention


class EncoderLayer(nn.Module):
    def __init__(self, d_model, ffn_hidden, n_head, drop_prob):
        super(EncoderLayer, self).__init__()
        self.attention = MultiHeadAttention(d_model=d_model, n_head=n_head)
        self.norm1 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, ffn_hidden), nn.ReLU(), nn.Linear(ffn_hidden, d_model))
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(p=drop_prob)

    def forward(self, x, src_mask):
        _x = x
        x = self.attention(q=x, k=x, v=x, mask=src_mask)
        x = self.norm1(self.dropout(x) + _x)
        _x = x
        x = self.ffn(x)
        return self.norm2(self.dropout(x) + _x)


class DecoderLayer(nn.Module):
    def __init__(self, d_model, ffn_hidden, n_head, drop_prob):
        super(DecoderLayer, self).__init__()
        self.self_attention = MultiHeadAttention(d_model=d_model, n_head=n_head)
        self.norm1 = nn.LayerNorm(d_model)
        self.enc_dec_attention = MultiHeadAttention(d_model=d_model, n_head=n_head)
        self.norm2 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, ffn_hidden), nn.ReLU(), nn.Linear(ffn_hidden, d_model))
        self.norm3 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(p=drop_prob)

    def forward(self, dec, enc, trg_mask, src_mask):
        _x = dec
        x = self.self_attention(q=dec, k=dec, v=dec, mask=trg_mask)
        x = self.norm1(self.dropout(x) + _x)
        _x = x
        x = self.enc_dec_attention(q=x, k=enc, v=enc, mask=src_mask)
        x = self.norm2(self.dropout(x) + _x)
        _x = x
        x = self.ffn(x)
        return self.norm3(self.dropout(x) + _x)


class Transformer(nn.Module):

    def __init__(self, src_pad_idx, trg_pad_idx, enc_voc_size, dec_voc_size, d_model, n_head,
                 ffn_hidden, n_layers, drop_prob, device):
        super().__init__()
        self.src_pad_idx = src_pad_idx
        self.trg_pad_idx = trg_pad_idx
        self.device = device
        self.enc_emb = nn.Embedding(enc_voc_size, d_model, padding_idx=src_pad_idx)
        self.dec_emb = nn.Embedding(dec_voc_size, d_model, padding_idx=trg_pad_idx)
        self.enc_layers = nn.ModuleList([EncoderLayer(d_model, ffn_hidden, n_head, drop_prob) for _ in range(n_layers)])
        self.dec_layers = nn.ModuleList([DecoderLayer(d_model, ffn_hidden, n_head, drop_prob) for _ in range(n_layers)])
        self.linear = nn.Linear(d_model, dec_voc_size)

    def forward(self, src, trg):
        src_mask = self.make_src_mask(src)
        trg_mask = self.make_trg_mask(trg)
        enc_src = self.enc_emb(src)
        for layer in self.enc_layers:
            enc_src = layer(enc_src, src_mask)
        output = self.dec_emb(trg)
        for layer in self.dec_layers:
            output = layer(output, enc_src, trg_mask, src_mask)
        return self.linear(output)

    def make_src_mask(self, src):
        src_mask = (src != self.src_pad_idx).unsqueeze(1).unsqueeze(2)
        return src_mask

    def make_trg_mask(self, trg):
        trg_pad_mask = (trg != self.trg_pad_idx).unsqueeze(1).unsqueeze(3)
        trg_len = trg.shape[1]
        trg_sub_mask = torch.tril(torch.ones(trg_len, trg_len)).type(torch.ByteTensor).to(self.device)
        trg_mask = trg_pad_mask & trg_sub_mask
        return trg_mask
