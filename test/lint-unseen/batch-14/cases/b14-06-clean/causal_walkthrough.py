# case: b14-06-clean
# modelled-on: Parry-97/llm-from-scratch https://github.com/Parry-97/llm-from-scratch/commit/7bfdf41170224f85707a789a641176aee4bba158
# label: correct
# class: clean
# pattern: the attention chapter of a book-following LLM-from-scratch package, as scripts over one unbatched (6, 3) toy sentence: a trainable single-head layer in another module scores queries @ keys.T and softmaxes scores / keys.shape[-1] ** 0.5 over dim=-1; the causal walkthrough reuses the layer's projections, softmaxes the (6, 6) scores over dim=1, then applies a tril 0/1 mask by multiplication after the softmax and renormalises each row by its sum; the first walkthrough softmaxes a 1-D vector of scores over dim=0
# why: correct: every tensor here is unbatched, so keys.T swaps the two axes of a (6, 2) matrix, dim=1 of the (6, 6) scores is the key axis and dim=0 of a 1-D score vector is its only axis; multiplying the softmax weights by the tril mask and dividing each row by its sum gives exactly the softmax over the unmasked keys (the exp of the masked scores cancels in the ratio), which is the book's point before it switches to -inf; the scale is the key width (2) read from keys.shape[-1]; what a naive linter could misread: ATT006 (a mask multiplied in after the softmax), ATT001 (softmax over dim=1 and dim=0), ATT005 (keys.T), ATT004 (a scale from keys.shape)
# looks-like: ATT001, ATT004, ATT005, ATT006
# source: https://github.com/Parry-97/llm-from-scratch https://github.com/Parry-97/llm-from-scratch/commit/7bfdf41170224f85707a789a641176aee4bba158 src/llm_from_scratch/attention/simple_causal_attention.py
import torch

from self_attention import SelfAttentionV2

torch.manual_seed(789)
inputs = torch.tensor(
    [
        [0.43, 0.15, 0.89],  # Your
        [0.55, 0.87, 0.66],  # journey
        [0.57, 0.85, 0.64],  # starts
        [0.22, 0.58, 0.33],  # with
        [0.77, 0.25, 0.10],  # one
        [0.05, 0.80, 0.55],  # step
    ]
)

# one query against every token: a 1-D vector of scores
query = inputs[1]
scores_2 = inputs @ query
weights_2 = torch.softmax(scores_2, dim=0)
context_2 = weights_2 @ inputs

# causal attention, the simple way: softmax first, then zero the future and renormalise
layer = SelfAttentionV2(3, 2)
queries = layer.W_query(inputs)
keys = layer.W_key(inputs)
attn_scores = queries @ keys.T  # (6, 6)
attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=1)

context_len = attn_scores.shape[0]
mask_simple = torch.tril(torch.ones(context_len, context_len))
masked_simple = attn_weights * mask_simple
row_sums = masked_simple.sum(dim=-1, keepdim=True)
masked_simple_norm = masked_simple / row_sums
print(masked_simple_norm)
