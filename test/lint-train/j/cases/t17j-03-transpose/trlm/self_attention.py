# case: t17j-03-transpose
# modelled-on: burakyiImaz/llm-from-scratch https://github.com/burakyiImaz/llm-from-scratch/commit/43b1ebe4b2a795c45915f8325b5e6f59d0284491
# label: buggy
# class: real-bug
# pattern: a small Turkish language model: a single-head self-attention module projects q, k, v with Linear(embed, out), computes q @ k.T, divides by sqrt of k's last axis and softmaxes with dim=1; the model in another file embeds the token ids, adds sinusoidal positions that carry a leading batch axis (unsqueeze(0)) and calls the attention on the resulting (1, seq, embed) tensor
# why: buggy: the input is batched (1, seq, d), and Tensor.T reverses all three axes, so k.T is (d, seq, 1) instead of (1, d, seq) and q @ k.T is not the (seq, seq) score matrix; the author's next commit replaced it with k.transpose(-2, -1) "so that only the last two axes are swapped"; after that fix the scores are (batch, seq_q, seq_k) and dim=1 still normalises over the queries, not over the keys each query attends to (the author's later causal attention softmaxes over dim=-1)
# source: https://github.com/burakyiImaz/llm-from-scratch https://github.com/burakyiImaz/llm-from-scratch/commit/43b1ebe4b2a795c45915f8325b5e6f59d0284491 türkçe_dil_modelim/self_attention.py
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, embed_size, out_dim):
        super().__init__()
        self.embed_size = embed_size
        self.q_proj = nn.Linear(embed_size, out_dim)
        self.k_proj = nn.Linear(embed_size, out_dim)
        self.v_proj = nn.Linear(embed_size, out_dim)

    def forward(self, x):
        q = self.q_proj(x)
        k = self.k_proj(x)
        v = self.v_proj(x)
        scores = q @ k.T  # expect: ATT005
        weights = torch.softmax(
            scores / torch.sqrt(torch.tensor(k.shape[-1], dtype=torch.float32)),
            dim=1,  # expect: ATT001
        )
        return weights @ v
