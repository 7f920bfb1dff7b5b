# case: scale-minference-vs-estimate-scaled
# modelled-on: microsoft/MInference https://github.com/microsoft/MInference/commit/5e37e0dc631aeccc4341e38a40f0c178b2178e22
# label: correct
# class: fixed
# pattern: nested kernels inside a method estimate the sparse pattern from the softmax of the last 64 queries against all keys (einsum 'bhmk, bhnk -> bhmn') with a module-level causal keep mask applied by torch.where; after the fix the scale sits on the einsum line of each kernel
# why: after the fix every estimation path divides the einsum scores by sqrt(head_dim) before the softmax over the key axis; the causal keep mask is applied by torch.where(keep, scores, -inf) and each query row keeps its diagonal, and the dense path relies on flash-attn's default scale (softmax_scale=None)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/microsoft/MInference https://github.com/microsoft/MInference/commit/5e37e0dc631aeccc4341e38a40f0c178b2178e22 minference/modules/minference_forward.py
import math

import torch

from ..ops.pit_sparse_flash_attention_v2 import vertical_slash_sparse_attention

try:
    from flash_attn import flash_attn_func
except ImportError:
    from ..ops.flash_attn_triton import _flash_attn_triton_decoding as flash_attn_func

last_q = 64
arange = torch.arange(last_q, device="cuda")
LAST_Q_MASK = arange[None, None, :, None] >= arange[None, None, None, :]


def sum_all_diagonal_matrix(mat: torch.Tensor):
    b, h, n, m = mat.shape
    zero_mat = torch.zeros((b, h, n, n)).to(mat.device)
    mat_padded = torch.cat((zero_mat, mat, zero_mat), -1)
    mat_strided = mat_padded.as_strided((1, 1, n, n + m), (1, n * (2 * n + m), 2 * n + m + 1, 1))
    return torch.sum(mat_strided, 2)[:, :, 1:]


def gather_last_q_vertical_slash_topk(self, q, k, v, head_id, attention_mask):
    def vertical_and_slash(vertical_size, slash_size):
        q_len = q.shape[2]
        qk_idxs = [ii + q_len for ii in list(range(-last_q, 0, 1))]
        qk = torch.matmul(q[:, :, qk_idxs, :], k.transpose(2, 3)) / math.sqrt(self.head_dim) + attention_mask[:, :, qk_idxs]
        qk = torch.nn.functional.softmax(qk, dim=-1, dtype=torch.float32)
        return qk.sum(-2, keepdim=True)

    def vertical_and_slash_kernel(q, k, v, vertical_size, slash_size):
        vertical_size, slash_size = min(q_len, max(vertical_size, 30)), min(q_len, max(slash_size, 50))
        n_last = min(64, q_len)
        qk = torch.einsum('bhmk, bhnk -> bhmn', q[:, :, -n_last:, :], k) / math.sqrt(self.head_dim)
        qk[:, :, :, -n_last:] = torch.where(LAST_Q_MASK[..., -n_last:, -n_last:].to(q.device), qk[:, :, :, -n_last:], -torch.inf)
        qk = torch.nn.functional.softmax(qk, dim=-1, dtype=torch.float32)
        vertical = qk.sum(-2, keepdim=True)
        vertical[..., :30] = torch.inf
        vertical_topk = torch.topk(vertical, vertical_size, -1).indices

        slash = sum_all_diagonal_matrix(qk)[..., :-n_last + 1]
        slash[..., -100:] = torch.inf
        slash = (q_len - 1) - torch.topk(slash, slash_size, -1).indices
        return vertical_slash_sparse_attention(q, k, v, vertical_topk, slash)

    def vertical_and_slash_kernel_static(q, k, v, vertical_size, slash_size):
        if "vs" in self.__dict__:
            vertical_topk, slash = self.vs
        else:
            vertical_size, slash_size = min(q_len, max(vertical_size, 30)), min(q_len, max(slash_size, 50))
            qk = torch.einsum('bhmk, bhnk -> bhmn', q[:, :, -last_q:, :], k) / math.sqrt(self.head_dim)
            qk[:, :, :, -last_q:] = torch.where(LAST_Q_MASK, qk[:, :, :, -last_q:], -torch.inf)
            qk = torch.nn.functional.softmax(qk, dim=-1, dtype=torch.float32)
            vertical = qk.sum(-2, keepdim=True)
            vertical[..., :30] = torch.inf
            vertical_topk = torch.topk(vertical, vertical_size, -1).indices

            slash = sum_all_diagonal_matrix(qk)[..., :-last_q + 1]
            slash[..., -30:] = torch.inf
            slash = (q_len - 1) - torch.topk(slash, slash_size, -1).indices
            self.vs = vertical_topk, slash
        return vertical_slash_sparse_attention(q, k, v, vertical_topk, slash)

    def dense(q, k, v):
        return flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), 0.0,
                               softmax_scale=None, causal=q_len != 1).view(bsz, 1, q_len, self.head_dim)

    q_len = q.shape[2]
    bsz = q.shape[0]
    if q_len == 1:
        return dense(q, k, v)
    _, vertical_size, slash_size, _ = self.best_pattern.get(head_id, ("vertical_and_slash", 1000, 6096, 1))
    if self.config.to_dict().get("static_pattern", False):
        return vertical_and_slash_kernel_static(q, k, v, vertical_size, slash_size)
    return vertical_and_slash_kernel(q, k, v, vertical_size, slash_size)
