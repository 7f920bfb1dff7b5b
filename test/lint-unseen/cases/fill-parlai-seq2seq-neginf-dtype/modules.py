# case: fill-parlai-seq2seq-neginf-dtype
# modelled-on: facebookresearch/ParlAI https://github.com/facebookresearch/ParlAI/pull/2536
# label: correct
# class: fixed
# pattern: the same three-file workspace after the fix: the attention layer fills the masked encoder positions with neginf(attn_w_premask.dtype) from torch_utils.py, and the agent still casts the model to half precision under --fp16
# why: neginf returns -65504 for float16 and -1e20 otherwise, so the fill is representable in the dtype the scores have; the mask comes from xs.ne(0), True at real tokens, and is inverted with ~ before masked_fill_, and every row keeps its first token
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/facebookresearch/ParlAI https://github.com/facebookresearch/ParlAI/pull/2536 parlai/agents/seq2seq/modules.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from torch_utils import neginf


class AttentionLayer(nn.Module):
    """Computes attention between hidden and encoder states."""

    def __init__(self, attn_type, hiddensize, embeddingsize, bidirectional=False):
        super().__init__()
        self.attention = attn_type
        hsz = hiddensize
        hszXdirs = hsz * (2 if bidirectional else 1)
        self.attn_combine = nn.Linear(hszXdirs + embeddingsize, embeddingsize, bias=False)
        if self.attention == 'concat':
            self.attn = nn.Linear(hsz + hszXdirs, hsz, bias=False)
            self.attn_v = nn.Linear(hsz, 1, bias=False)
        elif self.attention == 'general':
            # equivalent to dot if attn is identity
            self.attn = nn.Linear(hsz, hszXdirs, bias=False)

    def forward(self, xes, hidden, attn_params):
        if self.attention == 'none':
            return xes, None

        if type(hidden) == tuple:
            # for lstms use the "hidden" state not the cell state
            hidden = hidden[0]
        last_hidden = hidden[-1]  # select hidden state from last RNN layer

        enc_out, attn_mask = attn_params
        bsz, seqlen, hszXnumdir = enc_out.size()
        numlayersXnumdir = last_hidden.size(1)

        hid = last_hidden.unsqueeze(1)
        if self.attention == 'concat':
            hid = hid.expand(bsz, seqlen, numlayersXnumdir)
            h_merged = torch.cat((enc_out, hid), 2)
            active = torch.tanh(self.attn(h_merged))
            attn_w_premask = self.attn_v(active).squeeze(2)
        elif self.attention == 'dot':
            if numlayersXnumdir != hszXnumdir:
                # enc_out has two directions, so double hid
                hid = torch.cat([hid, hid], 2)
            enc_t = enc_out.transpose(1, 2)
            attn_w_premask = torch.bmm(hid, enc_t).squeeze(1)
        else:
            hid = self.attn(hid)
            enc_t = enc_out.transpose(1, 2)
            attn_w_premask = torch.bmm(hid, enc_t).squeeze(1)

        # calculate activation scores, apply mask if needed
        if attn_mask is not None:
            # remove activation from NULL symbols
            attn_w_premask.masked_fill_((~attn_mask), neginf(attn_w_premask.dtype))
        attn_weights = F.softmax(attn_w_premask, dim=1)

        # apply the attention weights to the encoder states
        attn_applied = torch.bmm(attn_weights.unsqueeze(1), enc_out)
        merged = torch.cat((xes.squeeze(1), attn_applied.squeeze(1)), 1)
        output = torch.tanh(self.attn_combine(merged).unsqueeze(1))
        return output, attn_weights


class Seq2seq(nn.Module):
    def __init__(self, num_features, embeddingsize, hiddensize, numlayers=2, attention='dot'):
        super().__init__()
        self.embeddings = nn.Embedding(num_features, embeddingsize, padding_idx=0)
        self.encoder = nn.LSTM(embeddingsize, hiddensize, numlayers, batch_first=True)
        self.decoder = nn.LSTM(embeddingsize, hiddensize, numlayers, batch_first=True)
        self.attention = AttentionLayer(attention, hiddensize, embeddingsize)

    def forward(self, xs, ys):
        attn_mask = xs.ne(0)
        enc_out, hidden = self.encoder(self.embeddings(xs))
        xes = self.embeddings(ys[:, :1])
        output, hidden = self.decoder(xes, hidden)
        return self.attention(output, hidden, (enc_out, attn_mask))
