# case: b7-25-softmax
# modelled-on: Justin900429/vision-transformer https://github.com/Justin900429/vision-transformer/commit/4874948435ac9c33def58e539ad5a6c5411ced07
# label: buggy
# class: real-bug
# pattern: a Compact Convolutional Transformer classifier: encoder blocks from a layers module in another file, then sequence pooling, where a Linear(embed_dim, 1) scores each token, the scores are normalised with a softmax and transposed to (B, 1, S) to pool the tokens with pool_attn @ x
# why: buggy: the scores are (B, S, 1), so softmax(dim=-1) normalises over the length-1 axis and returns ones everywhere; pool_attn @ x then sums the tokens instead of weighting them (the comment's own shapes show the pooled axis is the sequence). CCT's paper and reference code take the softmax over the sequence (dim=1) before the transpose. No fix was found
# source: https://github.com/Justin900429/vision-transformer https://github.com/Justin900429/vision-transformer/commit/4874948435ac9c33def58e539ad5a6c5411ced07 CCT/cct.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import TransformerEncoder


class TransformerClassifier(nn.Module):
    def __init__(self, seq_pool=True, embed_dim=768, num_layers=12, num_heads=12, mlp_ratio=4, num_classes=1000, drop_rate=0.1, seq_len=None):
        super().__init__()
        assert seq_len is not None, "Sequence length should be given"
        self.seq_pool = seq_pool
        if self.seq_pool:
            self.attention_pool = nn.Linear(in_features=embed_dim, out_features=1)
        else:
            self.class_embed = nn.Parameter(torch.zeros(1, 1, embed_dim), requires_grad=True)
        self.pos_embed = nn.Parameter(torch.zeros(1, seq_len, embed_dim), requires_grad=True)
        self.dropout = nn.Dropout(drop_rate)
        self.transformers_blocks = nn.Sequential(*[TransformerEncoder(dim=embed_dim, num_heads=num_heads, factor=mlp_ratio) for _ in range(num_layers)])
        self.norm = nn.LayerNorm(embed_dim)
        self.classifier = nn.Linear(embed_dim, num_classes)

    def forward(self, x):
        if not self.seq_pool:
            x = torch.cat((self.class_embed.expand(x.shape[0], -1, -1), x), dim=1)
        x = self.dropout(x + self.pos_embed)
        x = self.norm(self.transformers_blocks(x))
        if self.seq_pool:
            # Before: (batch_size, seq_len, embed_dim); after: (batch_size, 1, seq_len)
            pool_attn = F.softmax(self.attention_pool(x), dim=-1).transpose(1, 2)  # expect: ATT001
            x = (pool_attn @ x).squeeze(1)  # (batch_size, embed_dim)
        else:
            x = x[:, 0]
        return self.classifier(x)
