# requires: torch2
import torch
import torch.nn.functional as F

torch.manual_seed(0)
past_k, past_v = torch.randn(2, 1, 4, 10, 16).unbind(0)
q, k, v = torch.randn(3, 1, 4, 1, 16).unbind(0)  # one new token
k, v = torch.cat([past_k, k], dim=2), torch.cat([past_v, v], dim=2)
out = F.scaled_dot_product_attention(q, k, v, is_causal=q.shape[-2] > 1)
print(out.shape)
