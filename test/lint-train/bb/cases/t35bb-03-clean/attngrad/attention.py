# case: t35bb-03-clean
# modelled-on: dscamiss/attention-gradient https://github.com/dscamiss/attention-gradient/commit/560c43e34869e6c0e4fd6e5a5fa49a8a27f035cd
# label: correct
# class: clean
# pattern: scaled dot-product attention as a torch.autograd.Function with a hand-written backward pass: the forward takes theta = [Q, K, V] of shape (n, 3d), softmax(q @ k.transpose(-1, -2) / sqrt(d), dim=-1) @ v; the backward builds the softmax Jacobian row by row (diag(s) - s_col @ s_row), an "omega" matrix scaled by 1/sqrt(d), then dQ = omega @ k, dK = omega.transpose(-1, -2) @ q and dV as a sum of outer products s_col @ g_row; checked against autograd by gradcheck in another module
# why: correct: the forward is standard scaled dot-product attention over the key axis (2-D q, k: (n, d)); in the backward, omega is d(loss)/d(scores) times the 1/sqrt(d) of the forward (the chain rule through the scale), omega.T @ q is the key gradient (not a forward product with untransposed keys), s_col @ s_row is the outer product of one row of weights with itself (the Jacobian of one softmax row, not attention scores), and dV = S^T @ G written as a sum over rows; the repository's test passes gradcheck
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/dscamiss/attention-gradient https://github.com/dscamiss/attention-gradient/commit/560c43e34869e6c0e4fd6e5a5fa49a8a27f035cd attention.py
import math

import torch
from torch import Tensor
from torch.autograd import Function
from torch.autograd.function import FunctionCtx


class ScaledDotAttention(Function):
    """Scaled dot-product attention map with an explicit backward()."""

    @staticmethod
    def forward(ctx: FunctionCtx, theta: Tensor) -> Tensor:
        """theta: (n, 3d) = [Q, K, V]; returns (n, d)."""
        if theta.dim() != 2 or theta.shape[-1] % 3 != 0:
            raise ValueError(f"theta has invalid shape {theta.shape}")
        d = theta.shape[-1] // 3
        q, k, v = theta.split(d, dim=-1)
        s = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), dim=-1)
        ctx.save_for_backward(q, k, v, s)
        return s @ v

    @staticmethod
    def backward(ctx: FunctionCtx, grad_output: Tensor) -> Tensor:  # type: ignore[override]
        """grad_output: (n, d); returns the gradient with respect to theta, (n, 3d)."""
        q, k, v, s = ctx.saved_tensors  # type: ignore[attr-defined]
        n, d = q.shape
        v_t = v.transpose(-1, -2)

        # omega[i, :] = g_i V^T J_i, with J_i the Jacobian of softmax row i
        omega = torch.zeros(n, n, dtype=torch.double)
        for i in range(n):
            s_row = s[i, :].unsqueeze(0)
            s_col = s_row.transpose(-1, -2)
            jac = torch.diag(s_col.squeeze()) - (s_col @ s_row)
            omega[i, :] = grad_output[i, :].unsqueeze(0) @ v_t @ jac

        # chain rule through the 1/sqrt(d) of the forward
        omega = (1.0 / math.sqrt(d)) * omega

        grad_q = omega @ k
        grad_k = omega.transpose(-1, -2) @ q

        grad_v = torch.zeros(n, d, dtype=torch.double)
        for i in range(n):
            s_col = s[i, :].unsqueeze(0).transpose(-1, -2)
            grad_v += s_col @ grad_output[i, :].unsqueeze(0)

        return torch.cat((grad_q, grad_k, grad_v), dim=-1)
