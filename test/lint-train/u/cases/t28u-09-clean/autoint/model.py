# case: t28u-09-clean
# modelled-on: reczoo/FuxiCTR https://github.com/reczoo/FuxiCTR/commit/0245987fdc1d43c36164ea496a02324885a8557a
# label: correct
# class: clean
# pattern: AutoInt in a CTR-prediction library: every feature field's embedding (batch, fields, emb) goes through stacked multi-head self-attention over the fields; the layer keeps self.scale = self.head_dim ** 0.5 if use_scale else None (use_scale defaults to False, as in the model's config), splits Linear(input_dim, attention_dim) into (batch, heads, fields, head_dim) and calls the library's ScaledDotProductAttention (another package) with scale=self.scale, which forms Q @ K.transpose(-1, -2), divides only `if scale:` and softmaxes over dim=-1; a ReLU residual block follows
# why: correct: AutoInt (Song et al. 2019) defines its field-interaction attention as the softmax of the plain inner products <W_q e_m, W_k e_k>, with no 1/sqrt(d) (the fields are few and attention_dim is 8 here), so the library's default, unscaled, is the paper's model and the optional flag scales by the per-head width, not the model width; the keys are transposed on their last two axes and the softmax runs over the attended fields
# looks-like: ATT003, ATT004, ATT005
# source: https://github.com/reczoo/FuxiCTR https://github.com/reczoo/FuxiCTR/commit/0245987fdc1d43c36164ea496a02324885a8557a model_zoo/AutoInt/src/AutoInt.py
import torch
from torch import nn

from fuxictr.layers import ScaledDotProductAttention


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, input_dim, attention_dim=None, num_heads=1, dropout_rate=0.0,
                 use_residual=True, use_scale=False, layer_norm=False):
        super().__init__()
        if attention_dim is None:
            attention_dim = input_dim
        assert attention_dim % num_heads == 0
        self.head_dim = attention_dim // num_heads
        self.num_heads = num_heads
        self.use_residual = use_residual
        self.scale = self.head_dim ** 0.5 if use_scale else None
        self.W_q = nn.Linear(input_dim, attention_dim, bias=False)
        self.W_k = nn.Linear(input_dim, attention_dim, bias=False)
        self.W_v = nn.Linear(input_dim, attention_dim, bias=False)
        self.W_res = nn.Linear(input_dim, attention_dim, bias=False) if use_residual and input_dim != attention_dim else None
        self.dot_attention = ScaledDotProductAttention(dropout_rate)
        self.layer_norm = nn.LayerNorm(attention_dim) if layer_norm else None

    def forward(self, X):
        # X: (batch, fields, input_dim)
        residual = X
        batch_size = X.size(0)
        query = self.W_q(X).view(batch_size, -1, self.num_heads, self.head_dim).transpose(1, 2)
        key = self.W_k(X).view(batch_size, -1, self.num_heads, self.head_dim).transpose(1, 2)
        value = self.W_v(X).view(batch_size, -1, self.num_heads, self.head_dim).transpose(1, 2)
        output, _ = self.dot_attention(query, key, value, scale=self.scale)
        output = output.transpose(1, 2).contiguous().view(batch_size, -1, self.num_heads * self.head_dim)
        if self.W_res is not None:
            residual = self.W_res(residual)
        if self.use_residual:
            output = output + residual
        if self.layer_norm is not None:
            output = self.layer_norm(output)
        return output.relu()


class AutoInt(nn.Module):
    def __init__(self, num_fields, vocab_size, embedding_dim=10, attention_layers=2, num_heads=1,
                 attention_dim=8, net_dropout=0.0, layer_norm=False, use_scale=False, use_residual=True):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.self_attention = nn.Sequential(
            *[MultiHeadSelfAttention(embedding_dim if i == 0 else attention_dim,
                                     attention_dim=attention_dim,
                                     num_heads=num_heads,
                                     dropout_rate=net_dropout,
                                     use_residual=use_residual,
                                     use_scale=use_scale,
                                     layer_norm=layer_norm)
              for i in range(attention_layers)])
        self.fc = nn.Linear(num_fields * attention_dim, 1)

    def forward(self, X):
        # X: (batch, fields) feature ids
        feature_emb = self.embedding(X)  # (batch, fields, embedding_dim)
        attention_out = torch.flatten(self.self_attention(feature_emb), start_dim=1)
        return torch.sigmoid(self.fc(attention_out))
