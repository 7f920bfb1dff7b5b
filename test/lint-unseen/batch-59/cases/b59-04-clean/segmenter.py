# case: b59-04-clean
# modelled-on: lightly-ai/lightly-train https://github.com/lightly-ai/lightly-train/commit/d445dcd5e9009b7a4ccb97281e26590fd38ae6cf
# label: correct
# class: clean
# pattern: an encoder-only mask transformer for semantic segmentation (a folder: `schedule.py` anneals, per joint block, the probability that the mask is applied): learned queries are prepended to a ViT's tokens for the last blocks; while training, each of those blocks predicts masks from the queries and builds a boolean `attn_mask` for SDPA that is all True except the query-to-patch block, True only where the predicted mask logit is > 0; with probability 1 - p a query's row is reset to all True; the block's attention is rerun by hand with that mask
# why: correct: SDPA's boolean `attn_mask` is True where a pair takes part, so the mask built from ones keeps everything except the patches outside a query's predicted mask (`logit > 0` is the predicted foreground, the keys a query should attend to); disabling sets the row back to True, i.e. attend everywhere, and the schedule ends at p = 0; queries always keep themselves, the class token and the registers, so no row is empty; SDPA's default scale is 1/sqrt(head_dim)
# looks-like: ATT002, ATT003
# source: https://github.com/lightly-ai/lightly-train https://github.com/lightly-ai/lightly-train/commit/d445dcd5e9009b7a4ccb97281e26590fd38ae6cf src/lightly_train/_task_models/dinov2_eomt_semantic_segmentation/task_model.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor

from schedule import annealing_windows, update_mask_probs


class QuerySegmenter(nn.Module):
    def __init__(self, backbone, n_classes: int, n_queries: int = 100, joint_blocks: int = 4):
        super().__init__()
        self.backbone = backbone  # ViT: .blocks, .norm, .patch_size, .n_registers, .embed(x)
        self.n_queries = n_queries
        self.joint_blocks = joint_blocks
        width = backbone.embed_dim
        self.queries = nn.Embedding(n_queries, width)
        self.class_head = nn.Linear(width, n_classes + 1)
        self.mask_head = nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Linear(width, width))
        self.register_buffer("mask_probs", torch.ones(joint_blocks), persistent=False)

    def _prefix(self) -> int:
        return self.n_queries + 1 + self.backbone.n_registers  # queries, class token, registers

    def _heads(self, x: Tensor, grid: tuple[int, int]):
        q = x[:, : self.n_queries]
        patches = x[:, self._prefix():].transpose(1, 2).reshape(x.shape[0], -1, *grid)
        mask_logits = torch.einsum("bqc,bchw->bqhw", self.mask_head(q), patches)
        return mask_logits, self.class_head(q)

    def _maybe_drop(self, mask: Tensor, p: Tensor) -> Tensor:
        if p < 1:
            off = torch.rand(mask.shape[0], self.n_queries, device=mask.device) > p
            mask[:, : self.n_queries, self._prefix():][off] = True
        return mask

    def _masked_attention(self, attn, x: Tensor, mask) -> Tensor:
        B, N, C = x.shape
        qkv = attn.qkv(x).reshape(B, N, 3, attn.num_heads, C // attn.num_heads).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(
            qkv[0], qkv[1], qkv[2],
            attn_mask=None if mask is None else mask[:, None],
            dropout_p=attn.attn_drop.p if self.training else 0.0,
        )
        return attn.proj(out.transpose(1, 2).reshape(B, N, C))

    def forward(self, images: Tensor):
        H, W = images.shape[-2:]
        ps = self.backbone.patch_size
        grid = (math.ceil(H / ps), math.ceil(W / ps))
        x = self.backbone.embed(images)
        first_joint = len(self.backbone.blocks) - self.joint_blocks
        all_logits = []
        for i, block in enumerate(self.backbone.blocks):
            mask = None
            if i == first_joint:
                x = torch.cat([self.queries.weight[None].expand(x.shape[0], -1, -1), x], dim=1)
            if i >= first_joint:
                mask_logits, class_logits = self._heads(self.backbone.norm(x), grid)
                all_logits.append((mask_logits, class_logits))
                if self.training:
                    mask = torch.ones(x.shape[0], x.shape[1], x.shape[1], dtype=torch.bool, device=x.device)
                    small = F.interpolate(mask_logits, size=grid, mode="bilinear").flatten(2)
                    mask[:, : self.n_queries, self._prefix():] = small > 0
                    mask = self._maybe_drop(mask, self.mask_probs[i - first_joint])
            x = x + block.ls1(self._masked_attention(block.attn, block.norm1(x), mask))
            x = x + block.ls2(block.mlp(block.norm2(x)))
        all_logits.append(self._heads(self.backbone.norm(x), grid))
        return all_logits


def training_schedule(model: QuerySegmenter, total_steps: int):
    starts, ends = annealing_windows(total_steps, model.joint_blocks)
    return lambda step: update_mask_probs(model, step, starts, ends)
