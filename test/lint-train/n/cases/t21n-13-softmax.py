# case: t21n-13-softmax
# modelled-on: rawmarshmellows/pytorch-batch-luong-attention https://github.com/rawmarshmellows/pytorch-batch-luong-attention/commit/768c5b809e7cd0a5dee97c91a2c534f8f3d66f69
# label: buggy
# class: real-bug
# pattern: a sequence-first Luong seq2seq (encoder outputs (max_len, batch, hidden), one decoder step (1, batch, hidden)): the 'general' attention computes torch.bmm(self.attn(hidden).transpose(1, 0), encoder_outputs.permute(1, 2, 0)), i.e. (batch, 1, max_len) energies per the comment, and returns F.softmax(attn_energies) with no dim; the decoder multiplies the weights with encoder_outputs.transpose(0, 1) to get (batch, 1, hidden) contexts
# why: buggy: F.softmax without dim on a 3-D tensor picks dim=0 (PyTorch's legacy rule), the batch axis, so each source position's weights are normalised across the sentences of the batch instead of over the max_len positions of one sentence (with batch size 1 every weight is 1); the module's own comment gives the layout (batch, 1, max input length) and the later batch version of the same repository normalises the last axis. No fix of this module exists
# source: https://github.com/rawmarshmellows/pytorch-batch-luong-attention https://github.com/rawmarshmellows/pytorch-batch-luong-attention/commit/768c5b809e7cd0a5dee97c91a2c534f8f3d66f69 models/luong_attention/luong_attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class EncoderRNN(nn.Module):
    def __init__(self, hidden_size, input_size, n_layers, dropout, embedding):
        super().__init__()
        self.hidden_size = hidden_size
        self.n_layers = n_layers
        self.embedding = embedding
        self.rnn = nn.GRU(input_size, hidden_size, n_layers, dropout=dropout, bidirectional=True)

    def forward(self, input_seqs, hidden, input_lengths):
        # input_seqs: (max input length, batch_size)
        packed = pack_padded_sequence(self.embedding(input_seqs), input_lengths)
        outputs, hidden = self.rnn(packed, hidden)
        outputs, _ = pad_packed_sequence(outputs)
        # (max input length, batch_size, hidden_size): forward + backward states
        outputs = outputs[:, :, : self.hidden_size] + outputs[:, :, self.hidden_size :]
        layers = [(hidden[2 * i] + hidden[2 * i + 1]).unsqueeze(0) for i in range(self.n_layers)]
        return outputs, torch.cat(layers, 0)


class Attn(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.attn = nn.Linear(hidden_size, hidden_size)

    def forward(self, hidden, encoder_outputs):
        """
        hidden : 1, batch_size, hidden_size
        encoder_outputs : max input length, batch_size, hidden_size
        """
        attn_energies = torch.bmm(self.attn(hidden).transpose(1, 0), encoder_outputs.permute(1, 2, 0))
        # Batch size, 1, max input length
        return F.softmax(attn_energies)  # expect: ATT001


class LuongAttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, input_size, output_size, n_layers, dropout, embedding):
        super().__init__()
        self.hidden_size = hidden_size
        self.input_size = input_size
        self.embedding = embedding
        self.gru = nn.GRU(input_size, hidden_size, n_layers, dropout=dropout)
        self.concat = nn.Linear(hidden_size * 2, hidden_size)
        self.out = nn.Linear(hidden_size, output_size)
        self.attn = Attn(hidden_size)

    def forward(self, input_seq, last_hidden, encoder_outputs):
        # one step: input_seq (batch_size,)
        batch_size = input_seq.size(0)
        embedded = self.embedding(input_seq).view(1, batch_size, self.input_size)
        rnn_output, hidden = self.gru(embedded, last_hidden)
        attn_weights = self.attn(rnn_output, encoder_outputs)
        # (batch_size, 1, max input length) @ (batch_size, max input length, hidden_size)
        context = attn_weights.bmm(encoder_outputs.transpose(0, 1))
        concat_input = torch.cat((rnn_output.squeeze(0), context.squeeze(1)), 1)
        output = self.out(torch.tanh(self.concat(concat_input)))
        return output, hidden, attn_weights
