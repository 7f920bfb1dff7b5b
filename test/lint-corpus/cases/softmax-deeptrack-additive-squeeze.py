# case: softmax-deeptrack-additive-squeeze
# modelled-on: DeepTrackAI/DeepLearningCrashCourse https://github.com/DeepTrackAI/DeepLearningCrashCourse/pull/89
# label: correct
# pattern: additive attention in a course notebook; Q (Lq, D) and K (Lk, D) are projected and broadcast as Q.unsqueeze(-2) + K.unsqueeze(-3), tanh, a Linear(D, 1) scores them to (Lq, Lk, 1), and .squeeze(-1) gives (Lq, Lk) before softmax(dim=-1) and matmul with the values (the form after PR #89)
# why: squeeze(-1) removes the length-1 axis, so dim=-1 is Lk, the keys
# looks-like: ATT001, ATT003
import torch
import torch.nn as nn


class AdditiveAttention(nn.Module):
    """Additive attention."""

    def __init__(self, num_in_features=300, num_out_features=256):
        super().__init__()
        self.Wq = nn.Linear(num_in_features, num_out_features)
        self.Wk = nn.Linear(num_in_features, num_out_features)
        self.Ws = nn.Linear(num_out_features, 1)

    def forward(self, queries, keys, values):
        Q, K = self.Wq(queries), self.Wk(keys)
        attn_scores = self.Ws(torch.tanh(Q.unsqueeze(-2) + K.unsqueeze(-3))).squeeze(-1)
        attn_matrix = torch.nn.functional.softmax(attn_scores, dim=-1)
        attn_output = torch.matmul(attn_matrix, values)
        return attn_output, attn_matrix
