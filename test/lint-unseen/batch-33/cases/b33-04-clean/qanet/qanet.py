# case: b33-04-clean
# modelled-on: hackiey/QAnet-pytorch https://github.com/hackiey/QAnet-pytorch/commit/d9fe8fef613f2995b2d755725284ba4be5e44136
# label: correct
# class: clean
# pattern: QANet for SQuAD: dataset.py builds float keep masks (word id > 0 -> 1.0); the encoder blocks' multi-head self-attention (qanet/self_attention.py) runs one Linear per head, bmm(Q, K.permute(0, 2, 1)) / sqrt(key_dim), softmax(scores - 1e30 * (1 - mask), dim=-1) with the mask broadcast over the query rows; context-query attention (qanet/context_query_attention.py) normalises a trilinear similarity S (batch, n context, m question) twice: softmax(dim=2) against the question mask for context-to-query and softmax(dim=1) against the context mask for query-to-context, then B = S_ @ S__^T @ C; the span logits are masked the same additive way
# why: correct: the masks are 1.0 on real words, so 1e30 * (1 - mask) subtracts only at padded keys (a fill of -1e30 is finite in the float32 this model trains in); the softmax over dim=1 of S is the query-to-context attention of the paper (over context words, for each question word) and is meant to differ from the dim=2 one; the keys are (batch, l, d) and permute(0, 2, 1) swaps the last two axes; the scale is one head's key width
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/hackiey/QAnet-pytorch https://github.com/hackiey/QAnet-pytorch/commit/d9fe8fef613f2995b2d755725284ba4be5e44136 qanet/qanet.py
import torch
import torch.nn as nn

from qanet.context_query_attention import ContextQueryAttention
from qanet.self_attention import SelfAttention


class EncoderBlock(nn.Module):
    def __init__(self, n_conv, kernel_size, hidden_size, n_heads):
        super(EncoderBlock, self).__init__()
        self.convs = nn.ModuleList([
            nn.Conv1d(hidden_size, hidden_size, kernel_size, padding=kernel_size // 2) for _ in range(n_conv)
        ])
        self.self_attention = SelfAttention(n_heads=n_heads, n_filters=hidden_size)
        self.ffn = nn.Conv1d(hidden_size, hidden_size, kernel_size=1)

    def forward(self, x, mask):
        # x: (batch, hidden, l)
        for conv in self.convs:
            x = x + torch.relu(conv(x))
        x = x + self.self_attention(x.permute(0, 2, 1), mask).permute(0, 2, 1)
        return x + torch.relu(self.ffn(x))


class QANet(nn.Module):
    def __init__(self, word_embeddings, hidden_size=128, n_heads=8):
        super(QANet, self).__init__()
        self.word_emb = nn.Embedding.from_pretrained(torch.FloatTensor(word_embeddings), freeze=True)
        self.resize = nn.Conv1d(word_embeddings.shape[1], hidden_size, kernel_size=1)
        self.embedding_encoder = EncoderBlock(4, 7, hidden_size, n_heads)
        self.context_query_attention = ContextQueryAttention(hidden_size=hidden_size)
        self.projection = nn.Conv1d(4 * hidden_size, hidden_size, kernel_size=1)
        self.model_encoder = nn.ModuleList([EncoderBlock(2, 5, hidden_size, n_heads) for _ in range(7)])
        self.start = nn.Conv1d(2 * hidden_size, 1, kernel_size=1)
        self.end = nn.Conv1d(2 * hidden_size, 1, kernel_size=1)

    def forward(self, context_word, question_word, c_mask, q_mask):
        c_maxlen = int(c_mask.sum(1).max().item())
        q_maxlen = int(q_mask.sum(1).max().item())
        context_word, c_mask = context_word[:, :c_maxlen], c_mask[:, :c_maxlen]
        question_word, q_mask = question_word[:, :q_maxlen], q_mask[:, :q_maxlen]

        C = self.embedding_encoder(self.resize(self.word_emb(context_word).permute(0, 2, 1)), c_mask)
        Q = self.embedding_encoder(self.resize(self.word_emb(question_word).permute(0, 2, 1)), q_mask)

        c2q_attn, q2c_attn = self.context_query_attention(C, Q, c_mask, q_mask)
        M = self.projection(torch.cat((C, c2q_attn.permute(0, 2, 1),
                                       C * c2q_attn.permute(0, 2, 1),
                                       C * q2c_attn.permute(0, 2, 1)), 1))
        outputs = []
        for block in self.model_encoder:
            M = block(M, c_mask)
            outputs.append(M)
        p1 = self.start(torch.cat((outputs[0], outputs[1]), 1)).squeeze(1)
        p2 = self.end(torch.cat((outputs[0], outputs[2]), 1)).squeeze(1)
        p1 = p1 - 1e30 * (1 - c_mask)
        p2 = p2 - 1e30 * (1 - c_mask)
        return p1, p2
