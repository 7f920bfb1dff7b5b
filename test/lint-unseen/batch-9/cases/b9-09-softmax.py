# case: b9-09-softmax
# modelled-on: bangbv/AlgorithmInPython https://github.com/bangbv/AlgorithmInPython/commit/71179cbe8b6e6412b8c8d3d87a4d999abfa301df
# label: buggy
# class: real-bug
# pattern: study notes following a blog post on self-attention from scratch: a six-word sentence is embedded, projected with nn.Parameter matrices applied as W.matmul(x.T).T, the full score matrix omega = queries @ keys.T is computed next to the single-query scores omega_2 = query_2 @ keys.T, both are scaled by d_k ** 0.5 and softmaxed with dim=0, and the full weight matrix multiplies the values
# why: buggy: omega is (tokens, tokens) with the queries on axis 0, so softmax(dim=0) normalises each key's column over the queries, and attention_weights.matmul(values) then mixes the values with rows that do not sum to 1; dim=0 is right only for the 1-D omega_2 that the blog post softmaxes, and the function's context vectors are meant to be the blog's softmax over the keys for every query; no fix was found
# source: https://github.com/bangbv/AlgorithmInPython https://github.com/bangbv/AlgorithmInPython/commit/71179cbe8b6e6412b8c8d3d87a4d999abfa301df representations/embeddings/self_attention_2.py
import torch
import torch.nn.functional as F


def embed_sentence(sentence: str) -> torch.Tensor:
    vocab = {s: i for i, s in enumerate(sorted(sentence.replace(",", "").split()))}
    ids = torch.tensor([vocab[s] for s in sentence.replace(",", "").split()])
    torch.manual_seed(123)
    embed = torch.nn.Embedding(len(vocab), 16)
    return embed(ids).detach()  # (tokens, 16)


def self_attention(sentence: str) -> torch.Tensor:
    x = embed_sentence(sentence)
    d = x.shape[1]
    d_q, d_k, d_v = 24, 24, 28

    W_query = torch.nn.Parameter(torch.rand(d_q, d))
    W_key = torch.nn.Parameter(torch.rand(d_k, d))
    W_value = torch.nn.Parameter(torch.rand(d_v, d))

    queries = W_query.matmul(x.T).T  # (tokens, d_q)
    keys = W_key.matmul(x.T).T  # (tokens, d_k)
    values = W_value.matmul(x.T).T  # (tokens, d_v)
    omega = queries.matmul(keys.T)  # (tokens, tokens)

    # the second word alone, as in the post
    query_2 = W_query.matmul(x[1])  # (d_q,)
    omega_2 = query_2.matmul(keys.T)  # (tokens,)
    attention_weights_2 = F.softmax(omega_2 / d_k**0.5, dim=0)
    context_2 = attention_weights_2.matmul(values)  # (d_v,)

    attention_weights = F.softmax(omega / d_k**0.5, dim=0)  # expect: ATT001
    context = attention_weights.matmul(values)  # (tokens, d_v)
    return context, context_2


if __name__ == "__main__":
    context, context_2 = self_attention("Life is short, eat dessert first")
    print(context.shape, context_2.shape)
