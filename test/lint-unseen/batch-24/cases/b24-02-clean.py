# case: b24-02-clean
# modelled-on: NinhTruong1412/WT-SASRec https://github.com/NinhTruong1412/WT-SASRec/commit/9576e3c10581d385f3efa4fa8527f4a58f7312d2
# label: correct
# class: clean
# pattern: a sequential recommender subclassing a library's multi-head attention and SASRec model (RecBole): the subclass calls the inherited transpose_for_scores, permutes the keys to (B, H, d, L) so a plain matmul gives the scores, divides by the inherited self.sqrt_attention_head_size, adds the library's additive extended attention mask (from self.get_attention_mask(item_seq)) and a learned per-key watch-time bias, and applies the inherited self.softmax
# why: correct: the library's MultiHeadAttention sets sqrt_attention_head_size = sqrt(hidden / heads) and softmax = nn.Softmax(dim=-1), and its get_attention_mask returns a causal-and-padding mask already turned additive ((1 - keep) * -10000, 0 where allowed), so adding it is the intended use; the keys were permuted (0, 2, 3, 1), which is the transpose; the watch-time bias is an additive per-key term by design, not a mask
# looks-like: ATT002, ATT003, ATT005, ATT006
# source: https://github.com/NinhTruong1412/WT-SASRec https://github.com/NinhTruong1412/WT-SASRec/commit/9576e3c10581d385f3efa4fa8527f4a58f7312d2 models/wt_sasrec.py
import torch
import torch.nn as nn
from recbole.model.layers import FeedForward, MultiHeadAttention
from recbole.model.sequential_recommender.sasrec import SASRec


class DwellBiasedAttention(MultiHeadAttention):
    """Library attention plus an additive bias per key from the dwell time."""

    def __init__(self, n_heads, hidden_size, hidden_dropout_prob, attn_dropout_prob, layer_norm_eps):
        super().__init__(n_heads, hidden_size, hidden_dropout_prob, attn_dropout_prob, layer_norm_eps)
        self.bias_gain = nn.Parameter(torch.zeros(1))

    def forward(self, input_tensor, attention_mask, dwell_bias=None):
        q = self.transpose_for_scores(self.query(input_tensor)).permute(0, 2, 1, 3)
        k = self.transpose_for_scores(self.key(input_tensor)).permute(0, 2, 3, 1)
        v = self.transpose_for_scores(self.value(input_tensor)).permute(0, 2, 1, 3)

        scores = torch.matmul(q, k)
        scores = scores / self.sqrt_attention_head_size
        scores = scores + attention_mask

        if dwell_bias is not None:
            # (B, L, heads) -> (B, heads, 1, L): the same bias for every query
            scores = scores + self.bias_gain * dwell_bias.permute(0, 2, 1).unsqueeze(2)

        probs = self.attn_dropout(self.softmax(scores))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        ctx = ctx.view(*ctx.size()[:-2], self.all_head_size)
        out = self.out_dropout(self.dense(ctx))
        return self.LayerNorm(out + input_tensor)


class DwellLayer(nn.Module):
    def __init__(self, n_heads, hidden_size, inner_size, hidden_dropout_prob, attn_dropout_prob, hidden_act, layer_norm_eps):
        super().__init__()
        self.attention = DwellBiasedAttention(n_heads, hidden_size, hidden_dropout_prob, attn_dropout_prob, layer_norm_eps)
        self.ffn = FeedForward(hidden_size, inner_size, hidden_dropout_prob, hidden_act, layer_norm_eps)

    def forward(self, hidden, attention_mask, dwell_bias=None):
        return self.ffn(self.attention(hidden, attention_mask, dwell_bias=dwell_bias))


class DwellSASRec(SASRec):
    def __init__(self, config, dataset):
        super().__init__(config, dataset)
        self.dwell_layers = nn.ModuleList(
            [
                DwellLayer(config["n_heads"], config["hidden_size"], config["inner_size"], config["hidden_dropout_prob"],
                           config["attn_dropout_prob"], config["hidden_act"], config["layer_norm_eps"])
                for _ in range(config["n_layers"])
            ]
        )
        self.dwell_proj = nn.Linear(1, config["n_heads"])
        self.apply(self._init_weights)

    def _dwell_bias(self, dwell):
        logd = torch.log1p(dwell.clamp(min=0.0))
        logd = logd / (logd.max(dim=1, keepdim=True).values + 1e-8)
        return torch.clamp(self.dwell_proj(logd.unsqueeze(-1)), -5.0, 5.0)

    def forward(self, item_seq, item_seq_len, dwell=None):
        pos = torch.arange(item_seq.size(1), dtype=torch.long, device=item_seq.device)
        hidden = self.item_embedding(item_seq) + self.position_embedding(pos.unsqueeze(0).expand_as(item_seq))
        hidden = self.dropout(self.LayerNorm(hidden))

        extended_mask = self.get_attention_mask(item_seq)
        bias = self._dwell_bias(dwell) if dwell is not None else None
        for layer in self.dwell_layers:
            hidden = layer(hidden, extended_mask, dwell_bias=bias)
        return self.gather_indexes(hidden, item_seq_len - 1)
