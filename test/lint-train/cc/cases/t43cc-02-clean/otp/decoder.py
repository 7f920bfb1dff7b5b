# case: t43cc-02-clean
# modelled-on: bumSin/original-transformer-pytorch https://github.com/bumSin/original-transformer-pytorch/commit/6e34e93df003ceffd4d868e520ae0c8f681199e4
# label: correct
# class: clean
# pattern: a paper re-implementation's decoder (post-norm blocks: masked self-attention, cross-attention over the encoder output, feed-forward) and the top-level model, which take `src_mask` and `tgt_mask` as parameters and hand `tgt_mask` to the self-attention and `src_mask` to the cross-attention of every block; the attention module (another file) fills `mask == 0` with -inf after an einsum `bhqd,bhkd->bhqk` divided by sqrt(d_head); the model's demo calls it with both masks None
# why: correct: each mask goes to the attention whose keys it describes (target positions for self-attention, source positions for cross-attention), and the attention reads zeros as the blocked side; nothing in view builds a mask of the other polarity; with None masks nothing is filled
# looks-like: ATT002, ATT005, ATT007, ATT008
# source: https://github.com/bumSin/original-transformer-pytorch https://github.com/bumSin/original-transformer-pytorch/commit/6e34e93df003ceffd4d868e520ae0c8f681199e4 model/decoder.py
import torch
from torch import nn

from .attention import MultiHead


class DecoderLayer(nn.Module):
    def __init__(self, d_model, h, d_ff, dropout=0.1):
        super().__init__()
        self.masked_attn = MultiHead(d_model, h, dropout)
        self.enc_dec_attn = MultiHead(d_model, h, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.ln_a = nn.LayerNorm(d_model)
        self.ln_b = nn.LayerNorm(d_model)
        self.ln_c = nn.LayerNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, memory, src_mask=None, tgt_mask=None):
        x = self.ln_a(x + self.drop(self.masked_attn(x, x, x, mask=tgt_mask)))
        x = self.ln_b(x + self.drop(self.enc_dec_attn(x, memory, memory, mask=src_mask)))
        return self.ln_c(x + self.drop(self.ff(x)))


class Decoder(nn.Module):
    def __init__(self, n_layers, d_model, h, d_ff, dropout=0.1):
        super().__init__()
        self.layers = nn.ModuleList([DecoderLayer(d_model, h, d_ff, dropout) for _ in range(n_layers)])

    def forward(self, x, memory, src_mask=None, tgt_mask=None):
        for layer in self.layers:
            x = layer(x, memory, src_mask, tgt_mask)
        return x


class Seq2Seq(nn.Module):
    def __init__(self, d_model, h, d_ff, src_vocab, tgt_vocab, dropout, n_layers=6):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, d_model)
        self.tgt_emb = nn.Embedding(tgt_vocab, d_model)
        self.encoder_layers = nn.ModuleList([nn.Identity() for _ in range(n_layers)])
        self.decoder = Decoder(n_layers, d_model, h, d_ff, dropout)
        self.generator = nn.Linear(d_model, tgt_vocab)

    def forward(self, src, tgt, src_mask=None, tgt_mask=None):
        memory = self.src_emb(src)
        for layer in self.encoder_layers:
            memory = layer(memory)
        out = self.decoder(self.tgt_emb(tgt), memory, src_mask, tgt_mask)
        return torch.log_softmax(self.generator(out), dim=-1)


if __name__ == "__main__":
    model = Seq2Seq(512, 8, 2048, 1000, 1000, 0.1, n_layers=2)
    src = torch.randint(0, 1000, (2, 7))
    tgt = torch.randint(0, 1000, (2, 5))
    print(model(src, tgt, src_mask=None, tgt_mask=None).shape)
