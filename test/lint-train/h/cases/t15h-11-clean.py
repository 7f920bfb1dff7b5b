# case: t15h-11-clean
# modelled-on: pals-ttic/adapting-CLIP https://github.com/pals-ttic/adapting-CLIP/commit/d2026f3f8c326c247a15cae4f1242f7d0b8a8905
# label: correct
# class: clean
# pattern: a zero-shot segmentation model that reuses CLIP's ViT: region masks (1 on the object) are inverted with 1 - masks.bool().float(), resized to the patch grid, flattened, concatenated with 1 - eye(N) so that each of N region tokens sees only itself among the region tokens, and turned into a float mask with .bool().half() * (-100); from a chosen block on, the region tokens (copies of the class token) attend over the patches plus themselves through the block's nn.MultiheadAttention with attn_mask=attn_mask (sequence-first layout), while the patches go through the unmodified blocks
# why: correct: nn.MultiheadAttention adds a float attn_mask to the logits, and after the inversion the mask is 1 exactly on the patches outside each region and on the other regions' tokens, so those get -100 and the region's own patches and token get 0; the authors chose a finite -100 (representable in float16, far below CLIP's logits) and explained it on the issue tracker; the query-by-key shape (N, H*W + N) matches the N region queries against the patches and region tokens
# looks-like: ATT002, ATT007
# source: https://github.com/pals-ttic/adapting-CLIP https://github.com/pals-ttic/adapting-CLIP/commit/d2026f3f8c326c247a15cae4f1242f7d0b8a8905 spatial_clip/vit/spatial_vit.py
import clip
import torch
import torch.nn as nn
import torch.nn.functional as F


class RegionTokenViT(nn.Module):
    def __init__(self, grid=14, start_block=0):
        super().__init__()
        self.model, self.preprocess = clip.load("ViT-B/16")
        self.grid = grid
        self.start_block = start_block

    def region_bias(self, masks):
        """masks: (N, H, W), 1 on each region -> additive (N, grid*grid + N) attention bias."""
        n = masks.size(0)
        outside = 1 - masks.bool().float()  # 1 where the query must not look
        outside = F.interpolate(outside.unsqueeze(1), size=(self.grid, self.grid), mode="nearest").squeeze(1)
        bias = outside.view(n, -1)
        bias = torch.cat([bias, 1 - torch.eye(n).to(bias.device)], 1)  # region tokens see only themselves
        return bias.bool().half() * (-100)

    def forward(self, image, masks):
        vit = self.model.visual
        x = vit.conv1(image.type(self.model.dtype))
        x = x.reshape(x.shape[0], x.shape[1], -1).permute(0, 2, 1)  # (B, grid**2, width)
        cls = vit.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype, device=x.device)
        x = vit.ln_pre(torch.cat([cls, x], dim=1) + vit.positional_embedding.to(x.dtype))
        x = x.permute(1, 0, 2)  # (L, B, width), sequence first

        bias = self.region_bias(masks).type(self.model.dtype)
        n = bias.size(0)
        regions = None
        for i, block in enumerate(vit.transformer.resblocks):
            if i == self.start_block:
                regions = x[:1].repeat(n, 1, 1)
            if i >= self.start_block:
                source = block.ln_1(torch.cat([x[1:], regions], 0))
                regions = regions + block.attn(source[-n:], source, source, need_weights=False, attn_mask=bias)[0]
                regions = regions + block.mlp(block.ln_2(regions))
            x = block(x)

        regions = vit.ln_post(regions.permute(1, 0, 2))
        return regions @ vit.proj
