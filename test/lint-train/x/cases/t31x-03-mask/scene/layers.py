import torch.nn as nn


class CrossAttLayerEnc(nn.Module):
    """Agents (queries) attend over road-graph or traffic-light elements (keys), separately at each time step."""

    def __init__(self, time_steps=91, feature_dim=256, head_num=4, k=4):
        super().__init__()
        self.time_steps = time_steps
        self.feature_dim = feature_dim
        self.layer_att_ = nn.MultiheadAttention(embed_dim=feature_dim, num_heads=head_num)
        self.layer_F1_ = nn.Sequential(nn.Linear(feature_dim, k * feature_dim), nn.ReLU())
        self.layer_F2_ = nn.Sequential(nn.Linear(k * feature_dim, feature_dim), nn.ReLU())
        self.layer_Z_ = nn.LayerNorm(feature_dim)

    def forward(self, q, kv, batch_mask, padding_mask=None):
        A, T, D = q.shape  # [L, N, E] : [A, T, D] (sequence-first: the agents are the sequence, time the batch)
        G, T_, D_ = kv.shape  # [S, N, E] : [G, T, D]
        assert T == T_ == self.time_steps and D == D_ == self.feature_dim
        assert batch_mask.shape == (A, G)  # [L, S]
        padding_mask = padding_mask.permute(1, 0)  # [N, S] : [T, G]

        k, v = kv.clone(), kv.clone()
        att_output, _ = self.layer_att_(q, k, v, key_padding_mask=padding_mask, attn_mask=batch_mask)  # expect: ATT002
        S_ = att_output + q
        return self.layer_Z_(self.layer_F2_(self.layer_F1_(S_)))
