# case: b57-07-clean
# modelled-on: shawn3298317/transfer-vqa https://github.com/shawn3298317/transfer-vqa/commit/4b6f9eb12ee4ab8081862f78a4d028274fc70d06
# label: correct
# class: clean
# pattern: parallel question-image co-attention for visual question answering (Lu et al., 2016) at word, phrase and sentence level: an affinity matrix C = tanh(Q W_b V) between L question features and 196 image regions given channel-first as (B, 512, 196), attention maps H_v and H_q built from C, and softmax(dim=2) over a (B, 1, regions) or (B, 1, words) row
# why: correct: the image features are channel-first (B, d, 196), so W_b @ V needs no transpose and Q @ (W_b V) gives (B, L, 196) affinities; w_hv^T H_v is (B, 1, 196) and softmax over dim=2 normalises over the 196 regions (likewise over the L words for the question), and the attended vectors contract that same axis; the paper's co-attention is a bilinear/tanh form with no 1/sqrt(d) scale
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/shawn3298317/transfer-vqa https://github.com/shawn3298317/transfer-vqa/commit/4b6f9eb12ee4ab8081862f78a4d028274fc70d06 coatt/coattention_net.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import rnn


class HierarchicalCoAttention(nn.Module):
    def __init__(self, vocab: int, n_answers: int, d: int = 512, k: int = 30):
        super().__init__()
        self.words = nn.Embedding(vocab, d)
        self.uni = nn.Conv1d(d, d, 1)
        self.bi = nn.Conv1d(d, d, 2, padding=1, dilation=2)
        self.tri = nn.Conv1d(d, d, 3, padding=2, dilation=2)
        self.pool = nn.MaxPool2d((3, 1))
        self.rnn = nn.LSTM(d, d, num_layers=3, dropout=0.4)
        self.W_b = nn.Parameter(torch.randn(d, d))
        self.W_v = nn.Parameter(torch.randn(k, d))
        self.W_q = nn.Parameter(torch.randn(k, d))
        self.w_hv = nn.Parameter(torch.randn(k, 1))
        self.w_hq = nn.Parameter(torch.randn(k, 1))
        self.fuse_w = nn.Linear(d, d)
        self.fuse_p = nn.Linear(2 * d, d)
        self.fuse_s = nn.Linear(2 * d, d)
        self.classify = nn.Linear(d, n_answers)

    def co_attend(self, V: torch.Tensor, Q: torch.Tensor):
        """V: (B, d, R) image regions, channel-first; Q: (B, L, d) question features."""
        C = torch.tanh(Q @ (self.W_b @ V))                                   # (B, L, R)
        WqQ = self.W_q @ Q.transpose(1, 2)                                   # (B, k, L)
        WvV = self.W_v @ V                                                   # (B, k, R)
        H_v = torch.tanh(WvV + WqQ @ C)                                      # (B, k, R)
        H_q = torch.tanh(WqQ + WvV @ C.transpose(1, 2))                      # (B, k, L)
        a_v = F.softmax(self.w_hv.t() @ H_v, dim=2)                          # (B, 1, R)
        a_q = F.softmax(self.w_hq.t() @ H_q, dim=2)                          # (B, 1, L)
        v_hat = (a_v @ V.transpose(1, 2)).squeeze(1)                         # (B, d)
        q_hat = (a_q @ Q).squeeze(1)                                         # (B, d)
        return v_hat, q_hat

    def forward(self, image: torch.Tensor, question: rnn.PackedSequence) -> torch.Tensor:
        ids, lengths = rnn.pad_packed_sequence(question)
        w = self.words(ids.t())                                              # (B, L, d)
        grams = [torch.tanh(conv(w.transpose(1, 2))).unsqueeze(2) for conv in (self.uni, self.bi, self.tri)]
        phrase = self.pool(torch.cat(grams, dim=2)).squeeze(2).transpose(1, 2)[:, : w.shape[1]]
        packed = rnn.pack_padded_sequence(phrase.transpose(0, 1), lengths)
        sent, _ = rnn.pad_packed_sequence(self.rnn(packed)[0])
        sent = sent.transpose(0, 1)

        vw, qw = self.co_attend(image, w)
        vp, qp = self.co_attend(image, phrase)
        vs, qs = self.co_attend(image, sent)
        h = torch.tanh(self.fuse_w(qw + vw))
        h = torch.tanh(self.fuse_p(torch.cat((qp + vp, h), dim=1)))
        h = torch.tanh(self.fuse_s(torch.cat((qs + vs, h), dim=1)))
        return self.classify(h)
