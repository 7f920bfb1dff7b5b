# case: mask-aiayn-models-modules-keep
# modelled-on: jadore801120/attention-is-all-you-need-pytorch https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/148
# label: correct
# pattern: the masks are built in Models.py as keep masks, get_pad_mask is (seq != pad_idx) and get_subsequent_mask is (1 - torch.triu(ones, diagonal=1)).bool() with the sequence length read at run time, anded together for the decoder; they travel through SubLayers.py (an unsqueeze for the heads) to Modules.py, where the attention fills with masked_fill(mask == 0, -1e9)
# why: the reporter of #148 expected the mask to be (seq == pad_idx) and withdrew it: the keep mask is inverted by == 0 at the fill, so the padding and the future are filled and the rest attended
# looks-like: ATT002, ATT007
import torch
import torch.nn as nn

from transformer.SubLayers import MultiHeadAttention


def get_pad_mask(seq, pad_idx):
    return (seq != pad_idx).unsqueeze(-2)


def get_subsequent_mask(seq):
    ''' For masking out the subsequent info. '''
    sz_b, len_s = seq.size()
    subsequent_mask = (1 - torch.triu(
        torch.ones((1, len_s, len_s), device=seq.device), diagonal=1)).bool()
    return subsequent_mask


class EncoderLayer(nn.Module):
    def __init__(self, d_model, d_inner, n_head, d_k, d_v, dropout=0.1):
        super().__init__()
        self.slf_attn = MultiHeadAttention(n_head, d_model, d_k, d_v, dropout=dropout)
        self.pos_ffn = nn.Sequential(nn.Linear(d_model, d_inner), nn.ReLU(), nn.Linear(d_inner, d_model))

    def forward(self, enc_input, slf_attn_mask=None):
        enc_output, enc_slf_attn = self.slf_attn(enc_input, enc_input, enc_input, mask=slf_attn_mask)
        return self.pos_ffn(enc_output), enc_slf_attn


class DecoderLayer(nn.Module):
    def __init__(self, d_model, d_inner, n_head, d_k, d_v, dropout=0.1):
        super().__init__()
        self.slf_attn = MultiHeadAttention(n_head, d_model, d_k, d_v, dropout=dropout)
        self.enc_attn = MultiHeadAttention(n_head, d_model, d_k, d_v, dropout=dropout)
        self.pos_ffn = nn.Sequential(nn.Linear(d_model, d_inner), nn.ReLU(), nn.Linear(d_inner, d_model))

    def forward(self, dec_input, enc_output, slf_attn_mask=None, dec_enc_attn_mask=None):
        dec_output, dec_slf_attn = self.slf_attn(dec_input, dec_input, dec_input, mask=slf_attn_mask)
        dec_output, dec_enc_attn = self.enc_attn(dec_output, enc_output, enc_output, mask=dec_enc_attn_mask)
        return self.pos_ffn(dec_output), dec_slf_attn, dec_enc_attn


class Transformer(nn.Module):
    def __init__(self, n_src_vocab, n_trg_vocab, src_pad_idx, trg_pad_idx, d_model=512, d_inner=2048,
                 n_layers=6, n_head=8, d_k=64, d_v=64, dropout=0.1):
        super().__init__()
        self.src_pad_idx, self.trg_pad_idx = src_pad_idx, trg_pad_idx
        self.src_emb = nn.Embedding(n_src_vocab, d_model, padding_idx=src_pad_idx)
        self.trg_emb = nn.Embedding(n_trg_vocab, d_model, padding_idx=trg_pad_idx)
        self.encoder = nn.ModuleList([EncoderLayer(d_model, d_inner, n_head, d_k, d_v, dropout) for _ in range(n_layers)])
        self.decoder = nn.ModuleList([DecoderLayer(d_model, d_inner, n_head, d_k, d_v, dropout) for _ in range(n_layers)])
        self.trg_word_prj = nn.Linear(d_model, n_trg_vocab, bias=False)

    def forward(self, src_seq, trg_seq):
        src_mask = get_pad_mask(src_seq, self.src_pad_idx)
        trg_mask = get_pad_mask(trg_seq, self.trg_pad_idx) & get_subsequent_mask(trg_seq)

        enc_output = self.src_emb(src_seq)
        for enc_layer in self.encoder:
            enc_output, _ = enc_layer(enc_output, slf_attn_mask=src_mask)

        dec_output = self.trg_emb(trg_seq)
        for dec_layer in self.decoder:
            dec_output, _, _ = dec_layer(dec_output, enc_output, slf_attn_mask=trg_mask, dec_enc_attn_mask=src_mask)

        return self.trg_word_prj(dec_output)
