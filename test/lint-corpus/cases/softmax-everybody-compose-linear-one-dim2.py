# case: softmax-everybody-compose-linear-one-dim2
# modelled-on: tsunrise/everybody-compose https://github.com/tsunrise/everybody-compose/pull/53
# label: buggy
# pattern: additive attention over a batch-first LSTM encoder: the energies come from Linear(..., 1) after a LeakyReLU module, so they are (B, S, 1), and the softmax module built in __init__ uses dim=2; the rank is known only from `B, S, _ = enc.shape`
# why: dim=2 is the length-1 axis, so every weight is 1.0 and the context is the plain sum of the encoder states; the PR changes the softmax to dim=1 (the sequence axis)
import torch
import torch.nn as nn


class AdditiveAttention(nn.Module):
    def __init__(self, enc_dim: int, dec_dim: int):
        super().__init__()
        self.proj = nn.Linear(enc_dim * 2 + dec_dim, dec_dim)
        self.act = nn.LeakyReLU()
        self.score = nn.Linear(dec_dim, 1)
        self.normalise = nn.Softmax(dim=2)  # expect: ATT001

    def forward(self, enc, dec_state):
        # enc: bidirectional LSTM output, batch first; dec_state: (1, B, dec_dim)
        batch, steps, _ = enc.shape
        dec = dec_state.permute(1, 0, 2).repeat(1, steps, 1)
        energy = self.act(self.proj(torch.cat((dec, enc), dim=-1)))
        weights = self.normalise(self.score(energy))
        weights = weights.view(batch, 1, steps)
        return torch.bmm(weights, enc)


class Decoder(nn.Module):
    def __init__(self, vocab: int, emb: int, enc_dim: int, dec_dim: int):
        super().__init__()
        self.attention = AdditiveAttention(enc_dim, dec_dim)
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb + 2 * enc_dim, dec_dim, batch_first=True)
        self.out = nn.Linear(dec_dim, vocab)

    def forward(self, token, enc, state):
        context = self.attention(enc, state[0])
        x = torch.cat((self.embed(token), context), dim=2)
        y, state = self.lstm(x, state)
        return self.out(y), state
