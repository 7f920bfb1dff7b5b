# case: t22o-04-clean
# modelled-on: EmilianoLedesma16/Music-transformer-web https://github.com/EmilianoLedesma16/Music-transformer-web/commit/5da3ddbc2e75bdac3298c4b1b050a6614b64fb76
# label: correct
# class: clean
# pattern: an accompaniment generator (encoder-decoder nn.Transformer stacks, batch_first, norm_first) whose masks are boolean keep masks everywhere outside the model: the sampling script (generate.py) builds the encoder mask as ones for the melody tokens concatenated with zeros for the padding, and the decoding loop a ones mask for the generated prefix; the model inverts them with ~ for src/tgt/memory_key_padding_mask and builds its causal mask as torch.triu(ones, diagonal=1).bool(); the loop blocks special tokens in the logits with -inf
# why: correct: key_padding_mask and a boolean tgt_mask are True where attention is not allowed, so ~keep marks exactly the padding and triu(diagonal=1) exactly the future; the -inf writes are on output logits (sampling), not attention scores
# looks-like: ATT002, ATT007
# source: https://github.com/EmilianoLedesma16/Music-transformer-web https://github.com/EmilianoLedesma16/Music-transformer-web/commit/5da3ddbc2e75bdac3298c4b1b050a6614b64fb76 music-transformer/src/model/transformer.py
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, max_len: int, dropout: float):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return self.dropout(x + self.pe[:, : x.size(1)])


class AccompanimentTransformer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embedding = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=cfg.pad_id)
        self.pos_enc = PositionalEncoding(cfg.d_model, cfg.max_seq_len, cfg.dropout)
        self.embed_scale = math.sqrt(cfg.d_model)
        enc_layer = nn.TransformerEncoderLayer(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.dropout, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, cfg.n_enc_layers, norm=nn.LayerNorm(cfg.d_model))
        dec_layer = nn.TransformerDecoderLayer(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.dropout, batch_first=True, norm_first=True)
        self.decoder = nn.TransformerDecoder(dec_layer, cfg.n_dec_layers, norm=nn.LayerNorm(cfg.d_model))
        self.output_proj = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.output_proj.weight = self.embedding.weight

    def encode(self, src_ids, src_mask):
        x = self.pos_enc(self.embedding(src_ids) * self.embed_scale)
        return self.encoder(x, src_key_padding_mask=~src_mask)

    def decode(self, tgt_ids, memory, tgt_mask, memory_mask):
        n = tgt_ids.size(1)
        causal = torch.triu(torch.ones(n, n, device=tgt_ids.device), diagonal=1).bool()
        x = self.pos_enc(self.embedding(tgt_ids) * self.embed_scale)
        out = self.decoder(
            x,
            memory,
            tgt_mask=causal,
            tgt_key_padding_mask=~tgt_mask,
            memory_key_padding_mask=~memory_mask,
        )
        return self.output_proj(out)

    def forward(self, src_ids, tgt_ids, src_mask, tgt_mask):
        memory = self.encode(src_ids, src_mask)
        return self.decode(tgt_ids, memory, tgt_mask, src_mask)
