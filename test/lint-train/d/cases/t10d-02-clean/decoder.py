# case: t10d-02-clean
# modelled-on: dcanTOKA/ChatBot https://github.com/dcanTOKA/ChatBot/commit/e8e2e8079e9a322e50bcf440f61806cbbbe0e10f
# label: correct
# class: clean
# pattern: a chatbot service built on the classic seq2seq-with-Luong-attention recipe: a GRU decoder runs one step (1, B, H), a dot-score module in another package multiplies it elementwise with the time-major encoder outputs (T, B, H) and sums over dim=2, transposes the (T, B) energies with .t(), softmaxes over dim=1 and unsqueezes to (B, 1, T); the decoder takes the context with attn.bmm(encoder_outputs.transpose(0, 1)) and softmaxes its (B, vocab) logits over dim=1
# why: correct: after .t() the energies are (B, T), so dim=1 is the encoder time axis; the transpose(0, 1) of the encoder outputs makes them batch-first for the bmm, it is not a key transpose; dot attention in Luong's form is unscaled by design; the last softmax is over the vocabulary of 2-D logits; what a naive linter could misread: ATT001 (softmax over dim=1 after a transpose), ATT003 (dot scores with no scale), ATT005 (transpose(0, 1) of the encoder outputs next to the attention product)
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/dcanTOKA/ChatBot https://github.com/dcanTOKA/ChatBot/commit/e8e2e8079e9a322e50bcf440f61806cbbbe0e10f service/nlp/decoder_service.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from nlp.luong import DotScore


class AttnDecoder(nn.Module):
    def __init__(self, embedding, hidden_size, output_size, n_layers=1, dropout=0.1):
        super().__init__()
        self.embedding = embedding
        self.drop = nn.Dropout(dropout)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers, dropout=(0 if n_layers == 1 else dropout))
        self.concat = nn.Linear(hidden_size * 2, hidden_size)
        self.out = nn.Linear(hidden_size, output_size)
        self.attn = DotScore(hidden_size)

    def forward(self, input_step, last_hidden, encoder_outputs):
        # input_step: (1, B); encoder_outputs: (T, B, H)
        emb = self.drop(self.embedding(input_step))
        step_out, hidden = self.gru(emb, last_hidden)  # (1, B, H)
        weights = self.attn(step_out, encoder_outputs)  # (B, 1, T)
        context = weights.bmm(encoder_outputs.transpose(0, 1))  # (B, 1, H)
        joined = torch.cat((step_out.squeeze(0), context.squeeze(1)), 1)
        hidden_cat = torch.tanh(self.concat(joined))
        probs = F.softmax(self.out(hidden_cat), dim=1)
        return probs, hidden
