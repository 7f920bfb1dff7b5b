# case: clean-graykode-pad-mask-eq0-expand
# modelled-on: graykode/nlp-tutorial https://github.com/graykode/nlp-tutorial/blob/master/5-1.Transformer/Transformer.py
# label: correct
# class: clean
# pattern: tutorial Transformer with module-level hyperparameters: a helper builds the key padding mask with seq_k.data.eq(0).unsqueeze(1).expand(...), another builds the future mask with np.triu(ones, k=1) as a byte tensor; the decoder adds the two and keeps torch.gt(sum, 0); the attention fills masked_fill_(attn_mask, -1e9) after repeating the mask over heads
# why: both helpers return 1/True at the positions to hide (padding keys, future keys) and masked_fill_ fills exactly those; the sum of the two masks is > 0 where either hides a key; the scale is sqrt(d_k), the per-head size; -1e9 is fine in the float32 this tutorial runs in and no row hides its own position
# looks-like: ATT002, ATT007
# source: https://github.com/graykode/nlp-tutorial https://github.com/graykode/nlp-tutorial/commit/d05e31ec81d56d70c1db89b99ab07e948f7ebc11 5-1.Transformer/Transformer.py
import numpy as np
import torch
import torch.nn as nn

d_model = 512  # Embedding Size
d_ff = 2048  # FeedForward dimension
d_k = d_v = 64  # dimension of K(=Q), V
n_layers = 6  # number of Encoder of Decoder Layer
n_heads = 8  # number of heads in Multi-Head Attention


def get_attn_pad_mask(seq_q, seq_k):
    batch_size, len_q = seq_q.size()
    batch_size, len_k = seq_k.size()
    # eq(zero) is PAD token
    pad_attn_mask = seq_k.data.eq(0).unsqueeze(1)  # batch_size x 1 x len_k(=len_q), one is masking
    return pad_attn_mask.expand(batch_size, len_q, len_k)  # batch_size x len_q x len_k


def get_attn_subsequent_mask(seq):
    attn_shape = [seq.size(0), seq.size(1), seq.size(1)]
    subsequent_mask = np.triu(np.ones(attn_shape), k=1)
    return torch.from_numpy(subsequent_mask).byte()


class ScaledDotProductAttention(nn.Module):
    def forward(self, Q, K, V, attn_mask):
        scores = torch.matmul(Q, K.transpose(-1, -2)) / np.sqrt(d_k)  # [batch_size x n_heads x len_q x len_k]
        scores.masked_fill_(attn_mask, -1e9)  # Fills elements of self tensor with value where mask is one.
        attn = nn.Softmax(dim=-1)(scores)
        context = torch.matmul(attn, V)
        return context, attn


class MultiHeadAttention(nn.Module):
    def __init__(self):
        super(MultiHeadAttention, self).__init__()
        self.W_Q = nn.Linear(d_model, d_k * n_heads)
        self.W_K = nn.Linear(d_model, d_k * n_heads)
        self.W_V = nn.Linear(d_model, d_v * n_heads)
        self.linear = nn.Linear(n_heads * d_v, d_model)
        self.layer_norm = nn.LayerNorm(d_model)

    def forward(self, Q, K, V, attn_mask):
        residual, batch_size = Q, Q.size(0)
        q_s = self.W_Q(Q).view(batch_size, -1, n_heads, d_k).transpose(1, 2)  # [batch_size x n_heads x len_q x d_k]
        k_s = self.W_K(K).view(batch_size, -1, n_heads, d_k).transpose(1, 2)  # [batch_size x n_heads x len_k x d_k]
        v_s = self.W_V(V).view(batch_size, -1, n_heads, d_v).transpose(1, 2)  # [batch_size x n_heads x len_k x d_v]
        attn_mask = attn_mask.unsqueeze(1).repeat(1, n_heads, 1, 1)  # [batch_size x n_heads x len_q x len_k]
        context, attn = ScaledDotProductAttention()(q_s, k_s, v_s, attn_mask)
        context = context.transpose(1, 2).contiguous().view(batch_size, -1, n_heads * d_v)
        output = self.linear(context)
        return self.layer_norm(output + residual), attn


class Decoder(nn.Module):
    def __init__(self, tgt_vocab_size):
        super(Decoder, self).__init__()
        self.tgt_emb = nn.Embedding(tgt_vocab_size, d_model)
        self.self_attns = nn.ModuleList([MultiHeadAttention() for _ in range(n_layers)])
        self.enc_attns = nn.ModuleList([MultiHeadAttention() for _ in range(n_layers)])

    def forward(self, dec_inputs, enc_inputs, enc_outputs):
        dec_outputs = self.tgt_emb(dec_inputs)
        dec_self_attn_pad_mask = get_attn_pad_mask(dec_inputs, dec_inputs)
        dec_self_attn_subsequent_mask = get_attn_subsequent_mask(dec_inputs)
        dec_self_attn_mask = torch.gt((dec_self_attn_pad_mask + dec_self_attn_subsequent_mask), 0)
        dec_enc_attn_mask = get_attn_pad_mask(dec_inputs, enc_inputs)
        for self_attn, enc_attn in zip(self.self_attns, self.enc_attns):
            dec_outputs, _ = self_attn(dec_outputs, dec_outputs, dec_outputs, dec_self_attn_mask)
            dec_outputs, _ = enc_attn(dec_outputs, enc_outputs, enc_outputs, dec_enc_attn_mask)
        return dec_outputs
