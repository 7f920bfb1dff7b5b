import torch
from torch.autograd import gradcheck

from .attention import ScaledDotAttention


def test_attention_gradient() -> None:
    """Compare ScaledDotAttention.backward() with numerical gradients."""
    n, d = 8, 16
    q = torch.randn(n, d, dtype=torch.double, requires_grad=True)
    k = torch.randn(n, d, dtype=torch.double, requires_grad=True)
    v = torch.randn(n, d, dtype=torch.double, requires_grad=True)
    theta = torch.cat((q, k, v), dim=-1)
    assert gradcheck(ScaledDotAttention.apply, theta, eps=1e-6, atol=1e-4)
