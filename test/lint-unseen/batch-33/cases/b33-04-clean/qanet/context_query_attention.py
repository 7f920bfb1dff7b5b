import torch
import torch.nn as nn
import torch.nn.functional as F


class ContextQueryAttention(nn.Module):
    """QANet's context-to-query and query-to-context attention over a trilinear similarity."""

    def __init__(self, hidden_size=128):
        super(ContextQueryAttention, self).__init__()
        self.d = hidden_size
        self.W0 = nn.Linear(3 * self.d, 1)
        nn.init.xavier_normal_(self.W0.weight)

    def forward(self, C, Q, c_mask, q_mask):
        # C: (batch, d, n) context, Q: (batch, d, m) question (channels first, from the conv encoders)
        batch_size = C.shape[0]
        n = C.shape[2]
        m = Q.shape[2]

        # S: (batch, n, m), one row per context word, one column per question word
        S = self.similarity(C.permute(0, 2, 1), Q.permute(0, 2, 1), n, m, batch_size)

        # context-to-query: each context word distributes its weight over the question words
        S_ = F.softmax(S - 1e30 * (1 - q_mask.unsqueeze(-1).permute(0, 2, 1).expand(batch_size, n, m)), dim=2)
        # query-to-context (as in DCN): normalised over the context words, column-wise
        S__ = F.softmax(S - 1e30 * (1 - c_mask.unsqueeze(-1).expand(batch_size, n, m)), dim=1)

        A = torch.bmm(S_, Q.permute(0, 2, 1))
        B = torch.matmul(torch.bmm(S_, S__.permute(0, 2, 1)), C.permute(0, 2, 1))
        return A, B

    def similarity(self, C, Q, n, m, batch_size):
        C = F.dropout(C, p=0.1, training=self.training)
        Q = F.dropout(Q, p=0.1, training=self.training)
        # (batch, n*m, d): each of the m question rows repeated n times; C tiled m times
        Q_sim = Q.unsqueeze(1).repeat(1, n, 1, 1).permute(0, 2, 1, 3).contiguous().view(batch_size, -1, Q.shape[-1])
        C_sim = C.repeat(1, m, 1)
        assert Q_sim.shape == C_sim.shape
        sim_col = self.W0(torch.cat((Q_sim, C_sim, Q_sim * C_sim), dim=2))
        return sim_col.view(batch_size, m, n).permute(0, 2, 1)
