import torch
import torch.nn as nn

from nmt.attention import GeneralAttention


class Translator(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, emb_dim, hidden_size, n_layers=2, dropout=0.2):
        super().__init__()
        self.hidden_size = hidden_size
        self.emb_src = nn.Embedding(src_vocab, emb_dim)
        self.emb_tgt = nn.Embedding(tgt_vocab, emb_dim)
        self.encoder = nn.LSTM(emb_dim, hidden_size // 2, n_layers, batch_first=True, bidirectional=True, dropout=dropout)
        self.decoder = nn.LSTM(emb_dim + hidden_size, hidden_size, n_layers, batch_first=True, dropout=dropout)
        self.attn = GeneralAttention(hidden_size)
        self.concat = nn.Linear(hidden_size * 2, hidden_size)
        self.tanh = nn.Tanh()
        self.out = nn.Linear(hidden_size, tgt_vocab)

    def build_pad_mask(self, x, lengths):
        rows = []
        longest = max(lengths)
        for n in lengths:
            if longest - n > 0:
                # zeros on the real tokens, ones on the padded tail
                rows.append(torch.cat([x.new_ones(1, n).zero_(), x.new_ones(1, longest - n)], dim=-1))
            else:
                rows.append(x.new_ones(1, n).zero_())
        return torch.cat(rows, dim=0).bool()  # (batch, src_len)

    def forward(self, src, tgt):
        x, lengths = src
        pad_mask = self.build_pad_mask(x, lengths)
        enc_states, (h, c) = self.encoder(self.emb_src(x))
        batch = x.size(0)
        h = h.transpose(0, 1).contiguous().view(batch, -1, self.hidden_size).transpose(0, 1).contiguous()
        c = c.transpose(0, 1).contiguous().view(batch, -1, self.hidden_size).transpose(0, 1).contiguous()
        hidden = (h, c)
        emb_tgt = self.emb_tgt(tgt)
        prev = emb_tgt.new_zeros(batch, 1, self.hidden_size)
        outputs = []
        for t in range(tgt.size(1)):
            step_in = torch.cat([emb_tgt[:, t:t + 1, :], prev], dim=-1)
            dec_out, hidden = self.decoder(step_in, hidden)
            context = self.attn(enc_states, dec_out, pad_mask)
            prev = self.tanh(self.concat(torch.cat([dec_out, context], dim=-1)))
            outputs.append(prev)
        return self.out(torch.cat(outputs, dim=1))
