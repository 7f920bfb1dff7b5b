import torch
import torch.nn.functional as F


class Head(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q, self.k, self.v = torch.nn.Linear(d, d), torch.nn.Linear(d, d), torch.nn.Linear(d, d)

    def forward(self, x):  # training: full sequence
        return F.scaled_dot_product_attention(self.q(x), self.k(x), self.v(x), is_causal=True)

    @torch.no_grad()
    def generate_step(self, x_new, k_cache, v_cache):
        # x_new: (B, 1, d)
        k_cache = torch.cat([k_cache, self.k(x_new)], dim=1)
        v_cache = torch.cat([v_cache, self.v(x_new)], dim=1)
        out = F.scaled_dot_product_attention(self.q(x_new), k_cache, v_cache, is_causal=False)
        return out, k_cache, v_cache
