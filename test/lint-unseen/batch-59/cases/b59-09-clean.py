# case: b59-09-clean
# modelled-on: ixaxaar/seq2seq-dnc https://github.com/ixaxaar/seq2seq-dnc/commit/c9735ea6392112ba965aa2b88a610d4b4e722577
# label: correct
# class: clean
# pattern: Luong global attention for one decoder step of an LSTM translation model (batch-first): 'dot', 'general' or 'concat' energies of the step's output against the encoder outputs, each computed as `torch.baddbmm(zeros, encoder_outputs, hidden.transpose(2, 1)).squeeze(2)` into a (batch, src_len) matrix, normalised by `F.softmax(energies)` without `dim`, unsqueezed to (batch, 1, src_len) and multiplied with the encoder outputs by `bmm` for the context
# why: correct: the energies are 2-d, (batch, src_len), and PyTorch's implicit softmax axis for a 2-d input is dim 1, the source positions, the axis the context `bmm` sums over; Luong scores are not scaled by 1/sqrt(d) (not scaled dot-product attention); the encoder outputs are batch-first (B, S, H), so `bmm(encoder_outputs, hidden^T)` gives one energy per source position
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/ixaxaar/seq2seq-dnc https://github.com/ixaxaar/seq2seq-dnc/commit/c9735ea6392112ba965aa2b88a610d4b4e722577 src/seq2seq/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import PackedSequence, pad_packed_sequence


class GlobalAttention(nn.Module):
    def __init__(self, method, hidden_size):
        super().__init__()
        self.method = method
        self.hidden_size = hidden_size
        if method == "general":
            self.proj = nn.Linear(hidden_size, hidden_size)
        elif method == "concat":
            self.proj = nn.Linear(hidden_size * 2, hidden_size)
            self.v = nn.Parameter(torch.zeros(1, hidden_size))

    def forward(self, step_out, encoder_outputs):
        # step_out: (B, 1, H); encoder_outputs: (B, S, H) or a batch-first PackedSequence
        if isinstance(encoder_outputs, PackedSequence):
            encoder_outputs, _ = pad_packed_sequence(encoder_outputs, batch_first=True)
        batch, src_len, _ = encoder_outputs.size()
        bias = encoder_outputs.new_zeros(src_len, 1)

        if self.method == "dot":
            energies = torch.baddbmm(bias, encoder_outputs, step_out.transpose(2, 1)).squeeze(2)
        elif self.method == "general":
            energies = torch.baddbmm(bias, self.proj(encoder_outputs), step_out.transpose(2, 1)).squeeze(2)
        else:
            joined = torch.cat((step_out.expand_as(encoder_outputs), encoder_outputs), 2)
            v = self.v.unsqueeze(0).expand(batch, 1, self.hidden_size)
            energies = torch.baddbmm(bias, self.proj(joined), v.transpose(2, 1)).squeeze(2)

        return F.softmax(energies).unsqueeze(1)  # (B, 1, S)


class AttnDecoderStep(nn.Module):
    def __init__(self, method, hidden_size, vocab_size=50000, n_layers=1, dropout_p=0.3, pad_id=0):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(vocab_size, hidden_size, pad_id)
        self.embedding_dropout = nn.Dropout(dropout_p)
        self.rnn = nn.LSTM(hidden_size, hidden_size, n_layers, dropout=dropout_p, batch_first=True)
        self.attn = GlobalAttention(method, hidden_size)
        self.combine = nn.Linear(hidden_size * 2, hidden_size)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(self, token, encoder_outputs, hidden=None):
        embedded = self.embedding_dropout(self.embedding(token))  # (B, 1, H)
        step_out, hidden = self.rnn(embedded, hidden)
        weights = self.attn(step_out, encoder_outputs)
        if isinstance(encoder_outputs, PackedSequence):
            encoder_outputs, _ = pad_packed_sequence(encoder_outputs, batch_first=True)
        context = weights.bmm(encoder_outputs)  # (B, 1, H)
        combined = self.combine(torch.cat((step_out, context), 2).squeeze(1)).unsqueeze(1)
        return self.out(torch.tanh(combined)), hidden, weights
