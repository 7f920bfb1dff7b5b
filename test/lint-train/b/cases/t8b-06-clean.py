# case: t8b-06-clean
# modelled-on: AlphaGPU/leetgpu-challenges https://github.com/AlphaGPU/leetgpu-challenges/commit/c0b9cf15f4a26cc5531288e7647b1abe632f2542
# label: correct
# class: clean
# pattern: the reference implementation of a paged KV-cache decode challenge: one query per sequence and head (B, H, D), keys and values stored in fixed-size physical blocks (num_blocks, block_size, H, D) addressed through a block table; the reference gathers the logical positions, scores with einsum "bhd,bthd->bth" times 1/sqrt(head_dim), hides positions past each context length and softmaxes over dim=1
# why: correct: the scores are laid out (batch, token, head), so dim=1 is the key axis; positions at or past context_lens are filled with -inf and every sequence has at least one valid position; the scale is 1/sqrt(head_dim); the einsum contracts the head features of one query with each cached key
# looks-like: ATT001, ATT002, ATT005, ATT007, ATT008
# source: https://github.com/AlphaGPU/leetgpu-challenges https://github.com/AlphaGPU/leetgpu-challenges/commit/c0b9cf15f4a26cc5531288e7647b1abe632f2542 challenges/medium/86_paged_attention/challenge.py
import math

import torch


def paged_decode_reference(
    Q: torch.Tensor,  # (batch, heads, head_dim)
    K_cache: torch.Tensor,  # (num_blocks, block_size, heads, head_dim)
    V_cache: torch.Tensor,
    block_table: torch.Tensor,  # (batch, max_blocks) int32
    context_lens: torch.Tensor,  # (batch,) int32, each >= 1
    block_size: int,
) -> torch.Tensor:
    batch, heads, head_dim = Q.shape
    max_blocks = block_table.shape[1]
    scale = 1.0 / math.sqrt(head_dim)

    max_ctx = max_blocks * block_size
    pos = torch.arange(max_ctx, device=Q.device)
    logical_block = torch.div(pos, block_size, rounding_mode="floor")
    offset = pos - logical_block * block_size

    phys = block_table.long()[:, logical_block]  # (batch, max_ctx)
    within = offset.unsqueeze(0).expand(batch, max_ctx)
    K = K_cache[phys, within]  # (batch, max_ctx, heads, head_dim)
    V = V_cache[phys, within]

    scores = torch.einsum("bhd,bthd->bth", Q, K) * scale
    valid = pos.unsqueeze(0) < context_lens.long().unsqueeze(1)  # (batch, max_ctx)
    scores = scores.masked_fill(~valid.unsqueeze(-1), float("-inf"))
    weights = torch.softmax(scores, dim=1)
    return torch.einsum("bth,bthd->bhd", weights, V)


if __name__ == "__main__":
    B, H, D, bs, nb = 2, 4, 16, 8, 6
    q = torch.randn(B, H, D)
    kc, vc = torch.randn(nb, bs, H, D), torch.randn(nb, bs, H, D)
    table = torch.tensor([[0, 2, 4], [1, 3, 5]], dtype=torch.int32)
    lens = torch.tensor([5, 20], dtype=torch.int32)
    print(paged_decode_reference(q, kc, vc, table, lens, bs).shape)
