# case: b13-12-mask
# modelled-on: smallcheeseburger/simple-transformer-chatbot https://github.com/smallcheeseburger/simple-transformer-chatbot/commit/9d463dba709c8ff4fa35f1dca37c9d3d4a58f2c1
# label: buggy
# class: real-bug
# pattern: a seq2seq chatbot on nn.Transformer(batch_first=True): the refactor that added padding masks builds them as (ids == pad_idx).float() and passes them as src_key_padding_mask, tgt_key_padding_mask and memory_key_padding_mask, next to a float subsequent mask from generate_square_subsequent_mask
# why: buggy: PyTorch treats a FLOAT key_padding_mask as additive (its values are added to the attention scores; only a bool mask, or -inf in a float one, hides positions), so these 0/1 masks add +1.0 to the scores of padding keys and mask nothing: encoder, decoder and cross-attention all attend to padding, slightly more than to real tokens, the opposite of what the masks are named and built for (== pad_idx marks the positions to ignore); a bool mask (ids == pad_idx) or a 0/-inf float mask was needed; the causal tgt_mask itself is right
# source: https://github.com/smallcheeseburger/simple-transformer-chatbot https://github.com/smallcheeseburger/simple-transformer-chatbot/commit/9d463dba709c8ff4fa35f1dca37c9d3d4a58f2c1 models/transformer_model.py
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, model_dim: int, max_len: int = 100):
        super().__init__()
        pe = torch.zeros(max_len, model_dim)
        position = torch.arange(0, max_len, dtype=torch.float32).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, model_dim, 2).float() * (-math.log(10000.0) / model_dim))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class ChatTransformer(nn.Module):
    def __init__(self, vocab_size: int, embedding_dim: int, pad_idx: int):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.pos_encoder = PositionalEncoding(embedding_dim)
        self.pos_decoder = PositionalEncoding(embedding_dim)
        self.pad_idx = pad_idx
        self.transformer = nn.Transformer(
            d_model=embedding_dim,
            nhead=8,
            num_encoder_layers=8,
            num_decoder_layers=8,
            dim_feedforward=4 * embedding_dim,
            dropout=0.3,
            batch_first=True,
        )
        self.fc_out = nn.Linear(embedding_dim, vocab_size)
        self.norm_encoder = nn.LayerNorm(embedding_dim)
        self.norm_decoder = nn.LayerNorm(embedding_dim)

    def forward(self, encoder, decoder):
        src = self.norm_encoder(self.pos_encoder(self.embedding(encoder)))
        tgt = self.norm_decoder(self.pos_decoder(self.embedding(decoder)))

        seq_len = decoder.size(1)
        tgt_mask = self.transformer.generate_square_subsequent_mask(seq_len).to(decoder.device).float()

        src_key_padding_mask = (encoder == self.pad_idx).float()
        tgt_key_padding_mask = (decoder == self.pad_idx).float()

        out = self.transformer(
            src=src,
            tgt=tgt,
            tgt_mask=tgt_mask,
            src_key_padding_mask=src_key_padding_mask,  # expect: ATT002
            tgt_key_padding_mask=tgt_key_padding_mask,  # expect: ATT002
            memory_key_padding_mask=src_key_padding_mask,  # expect: ATT002
        )
        return self.fc_out(out)
