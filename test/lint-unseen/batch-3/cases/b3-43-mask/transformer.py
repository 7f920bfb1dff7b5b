# case: b3-43-mask
# modelled-on: kawgit/Vision-Transformer https://github.com/kawgit/Vision-Transformer/commit/1e86d6d28b8af01be7e8e768b700566295cd3dcc
# label: correct
# class: fixed
# pattern: after the mask fix, a from-scratch decoder (sizes from a settings module): each self-attention head registers an additive causal-mask buffer of shape (context_size, context_size) in __init__, slices it to the current length and adds it to the scaled bmm scores before a softmax over the last axis
# why: the buffer is triu(ones * -inf, 1): -inf strictly above the diagonal (the future), 0 on and below it, added before the softmax (commit 1e86d6d); the diagonal is never masked, so no row is all -inf
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/kawgit/Vision-Transformer https://github.com/kawgit/Vision-Transformer/commit/1e86d6d28b8af01be7e8e768b700566295cd3dcc transformer.py
import torch
import torch.nn as nn
import torch.nn.functional as functional

from settings import context_size, embedding_size, head_size, key_size, layer_size, num_layers, vocab_size


class SelfAttentionHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.key_maker = nn.Sequential(nn.Linear(embedding_size, key_size), nn.ReLU())
        self.query_maker = nn.Sequential(nn.Linear(embedding_size, key_size), nn.ReLU())
        self.value_maker = nn.Sequential(nn.Linear(embedding_size, head_size))
        self.register_buffer("causal_mask", torch.triu(torch.ones(context_size, context_size).float() * -torch.inf, 1))

    def forward(self, embeddings):
        current_context_size = embeddings.shape[1]
        assert current_context_size <= context_size

        keys = self.key_maker(embeddings)  # B, C, K
        queries = self.query_maker(embeddings)  # B, C, K
        values = self.value_maker(embeddings)  # B, C, V

        attention_scores = torch.bmm(queries, keys.transpose(1, 2))
        attention_scores = attention_scores / (key_size ** 0.5)

        causal_mask = self.causal_mask[:current_context_size, :current_context_size]
        attention_scores = attention_scores + causal_mask

        attention_weights = functional.softmax(attention_scores, dim=-1)
        return torch.bmm(attention_weights, values)


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding_table = nn.Embedding(vocab_size, embedding_size)
        self.heads = nn.ModuleList([nn.ModuleList([SelfAttentionHead() for _ in range(layer_size)]) for _ in range(num_layers)])
        self.perceptrons = nn.ModuleList(
            [nn.Sequential(nn.LayerNorm(embedding_size), nn.Linear(embedding_size, embedding_size), nn.ReLU()) for _ in range(num_layers)]
        )
        self.predictor = nn.Linear(embedding_size, vocab_size)

    def forward(self, tokens):
        embeddings = self.embedding_table(tokens)
        for heads, perceptron in zip(self.heads, self.perceptrons):
            embeddings = perceptron(embeddings + torch.cat([head(embeddings) for head in heads], dim=-1))
        return self.predictor(embeddings)
