# case: b3-16-mask
# modelled-on: lucidrains/native-sparse-attention-pytorch https://github.com/lucidrains/native-sparse-attention-pytorch/commit/5a6146095249162c1ecccc0be2ddaf7fc2fb40ad
# label: buggy
# class: real-bug
# pattern: native sparse attention, compressed and selected branches: the compressed branch builds cmask with einx.less (a compressed block is visible when it ends before the query, True = attend) and the selected branch builds fmask from the top-k importance values (> mask value) concatenated with a block-causal tril (True = attend); both are filled into einops-einsum scores before a softmax over the last axis
# why: both masks are keep masks but are filled where True, so each query attends only to the future compressed blocks and the unselected / future fine keys; commit 5a61460 ("fix an issue with mask, make sure it converges for enwik8") fills ~cmask and ~fmask
# source: https://github.com/lucidrains/native-sparse-attention-pytorch https://github.com/lucidrains/native-sparse-attention-pytorch/commit/5a6146095249162c1ecccc0be2ddaf7fc2fb40ad native_sparse_attention_pytorch/native_sparse_attention.py
import einx
import torch
import torch.nn.functional as F
from einops import einsum, rearrange, repeat
from torch import arange, cat, nn


class SparseBranches(nn.Module):
    def __init__(self, dim_head, heads, compress_block_size, selection_block_size, num_selected_blocks, num_mem_kv=1):
        super().__init__()
        self.scale = dim_head ** -0.5
        self.compress_block_size = compress_block_size
        self.selection_block_size = selection_block_size
        self.num_selected_blocks = num_selected_blocks
        self.compress_mem_kv = nn.Parameter(torch.zeros(2, heads, num_mem_kv, dim_head))
        self.k_compress = nn.Linear(dim_head * compress_block_size, dim_head)
        self.v_compress = nn.Linear(dim_head * compress_block_size, dim_head)

    def compress(self, t, proj, n_blocks):
        t = t[..., : n_blocks * self.compress_block_size, :]
        t = rearrange(t, "b h (w n) d -> b h w (n d)", n=self.compress_block_size)
        return proj(t)

    def forward(self, q, k, v):
        """q, k, v: (b, h, n, d); n a multiple of the selection block size."""
        batch, _, seq_len, _ = q.shape
        device = q.device
        n_compress = seq_len // self.compress_block_size
        n_fine = seq_len // self.selection_block_size

        # 1. coarse attention over compressed blocks (plus learned memory blocks)
        mem_ck, mem_cv = repeat(self.compress_mem_kv, "kv ... -> kv b ...", b=batch)
        num_mem = mem_ck.shape[-2]
        ck = cat((mem_ck, self.compress(k, self.k_compress, n_compress)), dim=-2)
        cv = cat((mem_cv, self.compress(v, self.v_compress, n_compress)), dim=-2)

        csim = einsum(q, ck, "b h i d, b h j d -> b h i j") * self.scale
        cq_seq = arange(seq_len, device=device)
        ck_seq = ((arange(n_compress, device=device) + 1) * self.compress_block_size) - 1
        ck_seq = F.pad(ck_seq, (num_mem, 0), value=-1)
        cmask = einx.less("j, i -> i j", ck_seq, cq_seq)

        mask_value = -torch.finfo(csim.dtype).max
        csim = csim.masked_fill(cmask, mask_value)  # expect: ATT002
        cattn = csim.softmax(dim=-1)
        compressed_out = einsum(cattn, cv, "b h i j, b h j d -> b h i d")

        # 2. fine attention over the blocks the compressed logits rank highest, plus the query's own block
        importance = csim[..., num_mem:]
        selected_values, selected_blocks = importance.topk(self.num_selected_blocks, dim=-1)
        fmask = selected_values > mask_value

        own_block = arange(seq_len, device=device) // self.selection_block_size
        own_block = rearrange(own_block, "n -> n 1").expand_as(selected_blocks)
        selected_blocks = cat((selected_blocks, own_block), dim=-1)

        fmask = repeat(fmask, "b h i w -> b h i w j", j=self.selection_block_size)
        causal = torch.ones((self.selection_block_size,) * 2, device=device, dtype=torch.bool).tril()
        causal = repeat(causal, "i j -> (w i) 1 j", w=n_fine).expand_as(fmask)
        fmask = cat((fmask, causal), dim=-2)
        fmask = rearrange(fmask, "b h i w j -> b h i (w j)")

        fk = rearrange(k, "b h (w n) d -> b h w n d", w=n_fine)
        fv = rearrange(v, "b h (w n) d -> b h w n d", w=n_fine)
        fk = einx.get_at("b h [w] j d, b h i selected -> b h i (selected j) d", fk, selected_blocks)
        fv = einx.get_at("b h [w] j d, b h i selected -> b h i (selected j) d", fv, selected_blocks)

        fsim = einsum(q, fk, "b h i d, b h i j d -> b h i j") * self.scale
        fsim = fsim.masked_fill(fmask, mask_value)  # expect: ATT002
        fattn = fsim.softmax(dim=-1)
        fine_out = einsum(fattn, fv, "b h i j, b h i j d -> b h i d")

        return compressed_out, fine_out
