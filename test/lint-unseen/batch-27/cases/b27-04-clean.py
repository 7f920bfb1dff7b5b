# case: b27-04-clean
# modelled-on: Gio02092001/DeepLearningExam_ConvSeq2Seq_Corrector https://github.com/Gio02092001/DeepLearningExam_ConvSeq2Seq_Corrector/commit/5525724f91588ad061eecc677ec2eaadd8ee29e7
# label: correct
# class: clean
# pattern: a convolutional seq2seq (ConvS2S) spelling corrector written from the paper for a course exam: each decoder layer runs a causal convolution (pad both sides, cut the tail), projects its output to the embedding width, adds the target embedding and multiplies by sqrt(0.5), takes torch.bmm(state, encoder_out.transpose(1, 2)) as scores, flattens them to (batch * tgt_len, src_len) for F.softmax(dim=1) and views them back, multiplies the weights with the encoder output plus source embedding, rescales that context by sqrt(src_len) and adds a residual
# why: correct: ConvS2S attention is an unscaled dot product by design (the paper and its reference code have no 1/sqrt(d)); after the view the scores are 2-D and dim=1 is the source axis; encoder_out.transpose(1, 2) is the key transpose of a 3-D tensor; the sqrt(src_len) factor multiplies the context vector, not the weights, and is the paper's correction for the changed variance of a weighted sum (its reference code does the same); sqrt(0.5) scales residual sums, not scores
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/Gio02092001/DeepLearningExam_ConvSeq2Seq_Corrector https://github.com/Gio02092001/DeepLearningExam_ConvSeq2Seq_Corrector/commit/5525724f91588ad061eecc677ec2eaadd8ee29e7 Model_New/Attention_New.py
import math

import torch
from torch import nn
import torch.nn.functional as F


class ConvAttention(nn.Module):
    def __init__(self, hidden_dim, embedding_dim, p_dropout):
        super().__init__()
        self.to_embed = nn.Sequential(nn.Dropout(p_dropout), nn.Linear(hidden_dim, embedding_dim))
        self.to_hidden = nn.Sequential(nn.Dropout(p_dropout), nn.Linear(embedding_dim, hidden_dim))

    def forward(self, dec_out, tgt_embedding, enc_out, enc_plus_embedding):
        # dec_out: (B, T, H); tgt_embedding: (B, T, E); enc_out, enc_plus_embedding: (B, S, E)
        dec_out = self.to_embed(dec_out)
        residual = dec_out
        state = (dec_out + tgt_embedding) * math.sqrt(0.5)

        scores = torch.bmm(state, enc_out.transpose(1, 2))  # (B, T, S)
        sz = scores.size()
        weights = F.softmax(scores.view(sz[0] * sz[1], sz[2]), dim=1)
        weights = weights.view(sz)

        context = torch.bmm(weights, enc_plus_embedding)  # (B, T, E)
        s = enc_plus_embedding.size(1)
        context = context * math.sqrt(s)

        out = (residual + context) * math.sqrt(0.5)
        return self.to_hidden(out)


class ConvDecoderLayer(nn.Module):
    def __init__(self, hidden_dim, embedding_dim, kernel_width, p_dropout):
        super().__init__()
        self.kernel_width = kernel_width
        self.conv = nn.Conv1d(hidden_dim, 2 * hidden_dim, kernel_width)
        self.attention = ConvAttention(hidden_dim, embedding_dim, p_dropout)

    def forward(self, x, tgt_embedding, enc_out, enc_plus_embedding):
        residual = x
        seq_len = x.size(1)
        pad = self.kernel_width - 1
        h = F.pad(x.transpose(1, 2), pad=(pad, pad), mode="constant", value=0)
        h = F.glu(self.conv(h), dim=1).transpose(1, 2)
        h = h[:, :seq_len, :]  # drop the right padding so no position sees the future
        h = self.attention(h, tgt_embedding, enc_out, enc_plus_embedding)
        return (h + residual) * math.sqrt(0.5)
