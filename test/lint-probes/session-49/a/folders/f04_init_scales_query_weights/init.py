import torch.nn as nn

from layers import UnscaledAttention


def init_weights(module, factor=1.0):
    if isinstance(module, UnscaledAttention):
        d_model = module.q.in_features
        key_value_proj_dim = module.d_kv
        n_heads = module.n_heads
        nn.init.normal_(module.q.weight, mean=0.0, std=factor * ((d_model * key_value_proj_dim) ** -0.5))
        nn.init.normal_(module.k.weight, mean=0.0, std=factor * (d_model ** -0.5))
        nn.init.normal_(module.v.weight, mean=0.0, std=factor * (d_model ** -0.5))
        nn.init.normal_(module.o.weight, mean=0.0, std=factor * ((n_heads * key_value_proj_dim) ** -0.5))
