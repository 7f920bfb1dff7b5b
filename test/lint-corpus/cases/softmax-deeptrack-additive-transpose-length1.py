# case: softmax-deeptrack-additive-transpose-length1
# modelled-on: DeepTrackAI/DeepLearningCrashCourse https://github.com/DeepTrackAI/DeepLearningCrashCourse/pull/89
# label: correct
# pattern: additive attention in a course notebook; Q (Lq, D) and K (Lk, D) are projected and broadcast as Q.unsqueeze(-2) + K.unsqueeze(-3), tanh, a Linear(D, 1) scores them to (Lq, Lk, 1), and .transpose(-2, -1) gives (Lq, 1, Lk) before softmax(dim=-1) and matmul with the values
# why: the transpose moves the length-1 axis away from the end: the softmax runs over Lk, the keys; PR #89 replaced the transpose by squeeze(-1) only to give the output the shape (Lq, D)
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
        attn_scores = self.Ws(torch.tanh(Q.unsqueeze(-2) + K.unsqueeze(-3))).transpose(-2, -1)
        attn_matrix = torch.nn.functional.softmax(attn_scores, dim=-1)
        attn_output = torch.matmul(attn_matrix, values)
        return attn_output, attn_matrix
