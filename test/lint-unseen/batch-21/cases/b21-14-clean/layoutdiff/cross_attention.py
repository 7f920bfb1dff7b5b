# case: b21-14-clean
# modelled-on: ZGCTroy/LayoutDiffusion https://github.com/ZGCTroy/LayoutDiffusion/commit/6dcc329a139025a58455679ddeabedf09ff7c3dd
# label: correct
# class: clean
# pattern: a layout-to-image diffusion U-Net block (channels-first, (N, C, L)) in which image-patch queries attend to the image patches and the layout objects together: per head, content and positional embeddings are concatenated on the channel axis, keys of both sources are concatenated on the sequence axis, q and k are each multiplied by scale = 1 / sqrt(sqrt(width)) before einsum("bct,bcs->bts") (width = the concatenated per-head channel count), the key padding mask is torch.cat([zeros(N, L1).bool(), layout_mask], dim=1) where the layout mask comes from another module as (1 - is_valid_obj).bool(), and masked_fill(mask[:, None, None, :], -inf) precedes a float32 softmax over the last axis
# why: correct: scaling q and k by width ** -1/4 each multiplies their product by width ** -1/2 once (the guided-diffusion trick for fp16), and width is the channel count the dot product runs over; the layout mask is True for padding objects (1 - valid), PyTorch's key-padding convention, and the image-patch keys are never masked (zeros), so no row is all -inf; the softmax is over the L1 + L2 keys
# looks-like: ATT002, ATT003, ATT004, ATT007
# source: https://github.com/ZGCTroy/LayoutDiffusion https://github.com/ZGCTroy/LayoutDiffusion/commit/6dcc329a139025a58455679ddeabedf09ff7c3dd layout_diffusion/layout_diffusion_unet.py
import math

import torch
import torch as th
import torch.nn as nn


class ObjectAwareCrossAttention(nn.Module):
    def __init__(self, channels, num_heads, layout_dim, pos_scale=1.0):
        super().__init__()
        self.channels = channels
        self.num_heads = num_heads
        self.pos_scale = pos_scale
        self.norm = nn.GroupNorm(32, channels)
        self.qkv = nn.Conv1d(channels, 3 * channels, 1)
        self.patch_pos = nn.Conv1d(4, int(channels * pos_scale), 1)
        self.layout_pos = nn.Conv1d(layout_dim, int(channels * pos_scale), 1)
        self.layout_content = nn.Conv1d(layout_dim, 2 * channels, 1)
        self.proj_out = nn.Conv1d(channels, channels, 1)

    def forward(self, x, patch_bbox, cond):
        b, c, *spatial = x.shape
        x = x.reshape(b, c, -1)
        L1, L2, H = x.shape[-1], cond["xf_out"].shape[-1], self.num_heads
        P = int(c * self.pos_scale)

        q, k, v = self.qkv(self.norm(x)).split(c, dim=1)
        patch_pe = self.patch_pos(patch_bbox).reshape(b * H, P // H, L1)
        q_img = torch.cat([q.reshape(b * H, c // H, L1), patch_pe], dim=1)
        k_img = torch.cat([k.reshape(b * H, c // H, L1), patch_pe], dim=1)
        v_img = v.reshape(b * H, c // H, L1)

        layout_pe = self.layout_pos(cond["obj_bbox_embedding"]).reshape(b * H, P // H, L2)
        k_lay, v_lay = self.layout_content(cond["xf_out"]).split(c, dim=1)
        k_lay = torch.cat([k_lay.reshape(b * H, c // H, L2), layout_pe], dim=1)
        v_lay = v_lay.reshape(b * H, c // H, L2)

        k_mix = th.cat([k_img, k_lay], dim=2)  # (N * heads, width, L1 + L2)
        v_mix = th.cat([v_img, v_lay], dim=2)

        key_padding_mask = torch.cat(
            [torch.zeros((b, L1), device=x.device).bool(), cond["key_padding_mask"]], dim=1
        )  # (N, L1 + L2)

        scale = 1 / math.sqrt(math.sqrt(int((1 + self.pos_scale) * c) // H))
        weights = th.einsum("bct,bcs->bts", q_img * scale, k_mix * scale)  # (N * heads, L1, L1 + L2)
        weights = weights.view(b, H, L1, L1 + L2)
        weights = weights.masked_fill(key_padding_mask.unsqueeze(1).unsqueeze(2), float("-inf"))
        weights = weights.view(b * H, L1, L1 + L2)
        weights = th.softmax(weights.float(), dim=-1).type(weights.dtype)

        out = th.einsum("bts,bcs->bct", weights, v_mix).reshape(b, c, L1)
        return (x + self.proj_out(out)).reshape(b, c, *spatial)
