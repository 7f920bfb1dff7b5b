# case: b6-17-clean
# modelled-on: SteffenSimonsen/SleepTransformer-PyTorch https://github.com/SteffenSimonsen/SleepTransformer-PyTorch/commit/a8daccd55404cfe3ada811de755f24dcf06cd03c
# label: correct
# class: clean
# pattern: a sleep-staging model (SleepTransformer re-implementation): an epoch-level transformer encodes the time frames of each 30 s epoch, then additive attention pooling scores every frame with tanh(W_a x_t + b_a) . a_e (a trainable context vector), softmaxes the scores over dim=1 of a (batch, frames) tensor, and takes the weighted sum of the frames
# why: correct: the scores are (batch, seq_len) and dim=1 is the frame axis, so the weights of each epoch sum to one over its frames, as the paper's equation 13 says; additive (Bahdanau-style) attention has no 1/sqrt(d) scale in the paper
# looks-like: ATT001, ATT003
# source: https://github.com/SteffenSimonsen/SleepTransformer-PyTorch https://github.com/SteffenSimonsen/SleepTransformer-PyTorch/commit/a8daccd55404cfe3ada811de755f24dcf06cd03c sleep_transformer_main/model/modules.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d_model, d_attention):
        super().__init__()
        self.W_a = nn.Linear(d_model, d_attention, bias=True)  # eq. 14: W_a, b_a
        self.a_e = nn.Parameter(torch.empty(d_attention))  # epoch-level context vector
        nn.init.uniform_(self.a_e, -0.1, 0.1)

    def forward(self, x, return_alphas=False):
        # x: (batch_size, seq_len, d_model)
        a_t = torch.tanh(self.W_a(x))  # eq. 14
        scores = torch.matmul(a_t, self.a_e)  # (batch_size, seq_len)
        alpha_t = F.softmax(scores, dim=1)  # eq. 13: weights over the frames
        context_vector = torch.sum(x * alpha_t.unsqueeze(-1), dim=1)  # eq. 12
        return (context_vector, alpha_t) if return_alphas else context_vector


class EpochEncoder(nn.Module):
    def __init__(self, d_model=128, nhead=8, num_layers=4, d_attention=64):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=1024, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.pool = Attention(d_model, d_attention)

    def forward(self, frames):
        # frames: (batch * epochs, frames_per_epoch, d_model)
        return self.pool(self.encoder(frames))
