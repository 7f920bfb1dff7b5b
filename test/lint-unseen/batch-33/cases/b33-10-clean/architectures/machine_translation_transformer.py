# case: b33-10-clean
# modelled-on: brandokoch/attention-is-all-you-need-paper https://github.com/brandokoch/attention-is-all-you-need-paper/commit/0b064e94daa3c4483ffe1f72d40b3c2bfea189a9
# label: correct
# class: clean
# pattern: a re-implementation of "Attention Is All You Need" for English-German translation: this module builds the masks, a padding keep mask (token_ids != pad_idx) shaped (batch, 1, 1, len) and a look-ahead keep mask (1 - triu(ones, diagonal=1)).bool(), and hands src_mask to the encoder and the cross-attention and pad & look-ahead as trg_mask to the decoder's self-attention (architectures/transformer_decoder.py); ScaledDotProductAttention (architectures/multi_head_attention.py) divides q @ k^T by sqrt(d_head), fills masked_fill(mask == 0, -inf) and normalises with softmax over the last axis
# why: correct: both masks are True (1) on the keys to keep, so mask == 0 selects the padding and the future and fills exactly those with -inf; the target mask keeps the [BOS] column and the diagonal of every real row, and padded target rows still see [BOS], so no row is all -inf; the scale is one head's width; k.transpose(-2, -1) turns the (batch, heads, len, d_head) keys
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/brandokoch/attention-is-all-you-need-paper https://github.com/brandokoch/attention-is-all-you-need-paper/commit/0b064e94daa3c4483ffe1f72d40b3c2bfea189a9 src/architectures/machine_translation_transformer.py
import torch
import torch.nn as nn

from architectures.multi_head_attention import MultiHeadAttention
from architectures.transformer_decoder import TransformerDecoder


class TransformerEncoderBlock(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout_proba):
        super(TransformerEncoderBlock, self).__init__()
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.mha_layer = MultiHeadAttention(d_model, n_heads)
        self.norm_1 = nn.LayerNorm(d_model)
        self.ffn_layer = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm_2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout_proba)

    def forward(self, x, src_mask):
        out = self.norm_1(x + self.dropout(self.mha_layer(self.W_q(x), self.W_k(x), self.W_v(x), src_mask)))
        return self.norm_2(out + self.dropout(self.ffn_layer(out)))


class MachineTranslationTransformer(nn.Module):
    def __init__(self, d_model, n_blocks, src_vocab_size, trg_vocab_size, n_heads, d_ff, dropout_proba):
        super(MachineTranslationTransformer, self).__init__()
        self.src_embedding = nn.Embedding(src_vocab_size, d_model)
        self.trg_embedding = nn.Embedding(trg_vocab_size, d_model)
        self.encoder_blocks = nn.ModuleList(
            [TransformerEncoderBlock(d_model, n_heads, d_ff, dropout_proba) for _ in range(n_blocks)]
        )
        self.decoder = TransformerDecoder(n_blocks, n_heads, d_model, d_ff, dropout_proba)
        self.linear = nn.Linear(d_model, trg_vocab_size)

    def _get_pad_mask(self, token_ids, pad_idx=0):
        pad_mask = (token_ids != pad_idx).unsqueeze(-2)
        return pad_mask.unsqueeze(1)  # (batch_size, 1, 1, seq_len)

    def _get_lookahead_mask(self, token_ids):
        sz_b, len_s = token_ids.size()
        subsequent_mask = (1 - torch.triu(torch.ones((1, len_s, len_s), device=token_ids.device), diagonal=1)).bool()
        return subsequent_mask.unsqueeze(1)  # (1, 1, trg_seq_len, trg_seq_len)

    def encode(self, src_token_ids, src_mask):
        x = self.src_embedding(src_token_ids)
        for block in self.encoder_blocks:
            x = block(x, src_mask)
        return x

    def decode(self, trg_token_ids, encoder_output, src_mask, trg_mask):
        x = self.decoder(self.trg_embedding(trg_token_ids), encoder_output, src_mask, trg_mask)
        return self.linear(x)

    def forward(self, src_token_ids, trg_token_ids):
        # the decoder input drops the [EOS] token; the loss target drops [BOS]
        trg_token_ids = trg_token_ids[:, :-1]
        src_mask = self._get_pad_mask(src_token_ids)  # (batch_size, 1, 1, src_seq_len)
        trg_mask = self._get_pad_mask(trg_token_ids) & self._get_lookahead_mask(trg_token_ids)
        encoder_output = self.encode(src_token_ids, src_mask)
        return self.decode(trg_token_ids, encoder_output, src_mask, trg_mask)
