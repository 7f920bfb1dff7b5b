# case: t33z-07-clean
# modelled-on: KinglittleQ/GST-Tacotron https://github.com/KinglittleQ/GST-Tacotron/commit/8197fe1464a65009f113c8d6ff8e25639357624d
# label: correct
# class: clean
# pattern: the global-style-token layer of a Tacotron TTS model: a reference encoder (convs + GRU) summarises a mel spectrogram into a query of width E // 2, which attends over token_num learned style tokens (tanh-squashed embeddings of width E // num_heads, the keys and values) with a multi-head attention whose heads are split with torch.split and stacked on a new leading axis, (h, N, T_q, T_k) scores from matmul(querys, keys.transpose(2, 3)), divided by self.key_dim ** 0.5 where key_dim is the token width E // num_heads passed in by the caller, softmax over dim=3; the widths come from a hyper-parameter class in another module
# why: correct: the per-head width of the projected queries and keys is num_units // num_heads = E // num_heads, which is exactly the key_dim the caller passes (the token width), so dividing by key_dim ** 0.5 is the usual 1/sqrt(d_head); dim=3 is the token (key) axis of the (h, N, T_q, T_k) scores; transpose(2, 3) swaps the last two axes of the 4-D keys; there is no mask (every style token is always present)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/KinglittleQ/GST-Tacotron https://github.com/KinglittleQ/GST-Tacotron/commit/8197fe1464a65009f113c8d6ff8e25639357624d GST.py
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init

from gst.hparams import HParams as hp


class ReferenceEncoder(nn.Module):
    """mels (N, Ty, n_mels) -> (N, E // 2)"""

    def __init__(self):
        super().__init__()
        filters = [1] + hp.ref_enc_filters
        self.convs = nn.ModuleList([
            nn.Conv2d(filters[i], filters[i + 1], kernel_size=(3, 3), stride=(2, 2), padding=(1, 1))
            for i in range(len(hp.ref_enc_filters))
        ])
        self.bns = nn.ModuleList([nn.BatchNorm2d(f) for f in hp.ref_enc_filters])
        width = hp.n_mels
        for _ in hp.ref_enc_filters:
            width = (width - 3 + 2) // 2 + 1
        self.gru = nn.GRU(hp.ref_enc_filters[-1] * width, hp.E // 2, batch_first=True)

    def forward(self, mels):
        n = mels.size(0)
        out = mels.view(n, 1, -1, hp.n_mels)
        for conv, bn in zip(self.convs, self.bns):
            out = F.relu(bn(conv(out)))
        out = out.transpose(1, 2).contiguous()
        out = out.view(n, out.size(1), -1)
        _, last = self.gru(out)
        return last.squeeze(0)


class StyleTokenLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = nn.Parameter(torch.FloatTensor(hp.token_num, hp.E // hp.num_heads))
        self.attention = TokenAttention(query_dim=hp.E // 2, key_dim=hp.E // hp.num_heads,
                                        num_units=hp.E, num_heads=hp.num_heads)
        init.normal_(self.tokens, mean=0, std=0.5)

    def forward(self, ref):
        n = ref.size(0)
        query = ref.unsqueeze(1)                                         # (N, 1, E // 2)
        keys = torch.tanh(self.tokens).unsqueeze(0).expand(n, -1, -1)    # (N, token_num, E // num_heads)
        return self.attention(query, keys)


class TokenAttention(nn.Module):
    """query (N, T_q, query_dim), key (N, T_k, key_dim) -> (N, T_q, num_units)"""

    def __init__(self, query_dim, key_dim, num_units, num_heads):
        super().__init__()
        self.num_units = num_units
        self.num_heads = num_heads
        self.key_dim = key_dim
        self.W_query = nn.Linear(query_dim, num_units, bias=False)
        self.W_key = nn.Linear(key_dim, num_units, bias=False)
        self.W_value = nn.Linear(key_dim, num_units, bias=False)

    def forward(self, query, key):
        querys = self.W_query(query)
        keys = self.W_key(key)
        values = self.W_value(key)

        split = self.num_units // self.num_heads
        querys = torch.stack(torch.split(querys, split, dim=2), dim=0)   # (h, N, T_q, split)
        keys = torch.stack(torch.split(keys, split, dim=2), dim=0)       # (h, N, T_k, split)
        values = torch.stack(torch.split(values, split, dim=2), dim=0)

        scores = torch.matmul(querys, keys.transpose(2, 3))              # (h, N, T_q, T_k)
        scores = scores / (self.key_dim ** 0.5)
        scores = F.softmax(scores, dim=3)

        out = torch.matmul(scores, values)                               # (h, N, T_q, split)
        return torch.cat(torch.split(out, 1, dim=0), dim=3).squeeze(0)   # (N, T_q, num_units)


class GST(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = ReferenceEncoder()
        self.stl = StyleTokenLayer()

    def forward(self, mels):
        return self.stl(self.encoder(mels))
