# case: t21n-14-clean
# modelled-on: rawmarshmellows/pytorch-batch-luong-attention https://github.com/rawmarshmellows/pytorch-batch-luong-attention/commit/768c5b809e7cd0a5dee97c91a2c534f8f3d66f69
# label: correct
# class: clean
# pattern: the batched Luong 'general' attention of the same repository, over whole decoder sequences: decoder outputs (dec_len, batch, hidden) are transposed to (batch, dec_len, hidden), encoder outputs permuted to (batch, hidden, enc_len), the scores torch.bmm(dec @ W, enc) are (batch, dec_len, enc_len); an additive mask (keep - 1) * sys.maxsize is built from two length masks (another module: arange < length, 1 at real positions) and added; the softmax is F.softmax(masked_score.view(-1, enc_len)) with no dim, and the weights are viewed back to (batch, dec_len, enc_len) and multiplied with the encoder outputs
# why: correct: the softmax input is 2-D, (batch * dec_len, enc_len), and F.softmax without dim picks dim=1 for 2-D input, the encoder axis, so every decoder step's weights sum to one over the source positions; keep - 1 is 0 at valid pairs and -1 at padded ones, times sys.maxsize a large finite negative number, so padded keys get no weight and no row becomes NaN; Luong's general score has no 1/sqrt(d) scale
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/rawmarshmellows/pytorch-batch-luong-attention https://github.com/rawmarshmellows/pytorch-batch-luong-attention/commit/768c5b809e7cd0a5dee97c91a2c534f8f3d66f69 models/luong_attention_batch/luong_attention_batch.py
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

from luong.masks import sequence_mask


class LuongAttention(nn.Module):
    """Only the 'general' method of the paper."""

    def __init__(self, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.general_weights = nn.Parameter(torch.randn(hidden_size, hidden_size))

    def forward(self, encoder_outputs, encoder_lengths, decoder_outputs, decoder_lengths):
        """
        encoder_outputs: max_encoder_length, batch_size, hidden_size
        decoder_outputs: max_decoder_length, batch_size, hidden_size
        """
        decoder_outputs = torch.transpose(decoder_outputs, 0, 1)  # (batch, dec_len, hidden)
        encoder_outputs = encoder_outputs.permute(1, 2, 0)  # (batch, hidden, enc_len)
        score = torch.bmm(decoder_outputs @ self.general_weights, encoder_outputs)  # (batch, dec_len, enc_len)

        attention_mask, max_enc, max_dec = self.attention_sequence_mask(encoder_lengths, decoder_lengths)
        masked_score = score + attention_mask
        weights_flat = F.softmax(masked_score.view(-1, max_enc))
        return weights_flat.view(-1, max_dec, max_enc)

    def attention_sequence_mask(self, encoder_lengths, decoder_lengths):
        batch_size = len(encoder_lengths)
        max_enc = int(max(encoder_lengths))
        max_dec = int(max(decoder_lengths))
        enc_mask = sequence_mask(encoder_lengths).unsqueeze(1).expand(batch_size, max_dec, max_enc)
        dec_mask = sequence_mask(decoder_lengths).unsqueeze(2).expand(batch_size, max_dec, max_enc)
        attention_mask = (enc_mask * dec_mask).float()
        attention_mask = (attention_mask - 1) * sys.maxsize
        return attention_mask, max_enc, max_dec


def attend(attention, encoder_outputs, encoder_lengths, decoder_outputs, decoder_lengths):
    weights = attention(encoder_outputs, encoder_lengths, decoder_outputs, decoder_lengths)
    # (batch, dec_len, enc_len) @ (batch, enc_len, hidden)
    context = torch.bmm(weights, encoder_outputs.transpose(1, 0))
    return context, weights
