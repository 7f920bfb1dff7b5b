# case: b6-16-clean
# modelled-on: mad-hav-22-07/Vision-Transformer https://github.com/mad-hav-22-07/Vision-Transformer/commit/352c4f150ece13abd57c15112f82c6de336a7307
# label: correct
# class: clean
# pattern: a segmentation decoder (deformable-DETR style queries over a ViT encoder) ends with a query-pixel modulation: learned queries are projected to the pixel-feature width, a (B, N_q, C) x (B, C, H*W) product gives a query-by-pixel map scaled by C ** 0.5, the softmax runs over dim=1 (the queries), and each pixel's modulation is the query features weighted by that column, added to the pixel features before the segmentation head
# why: correct: the map is used pixel by pixel (query_projected^T @ attn_map sums over the queries), so each pixel's weights over the N_q queries must sum to one, which is the softmax over dim=1 the comment states; the scale is the square root of the shared width C of both factors
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/mad-hav-22-07/Vision-Transformer https://github.com/mad-hav-22-07/Vision-Transformer/commit/352c4f150ece13abd57c15112f82c6de336a7307 src/model/decoder.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class QueryPixelDecoderHead(nn.Module):
    def __init__(self, d_model=256, fpn_channels=128, num_queries=100, num_classes=2):
        super().__init__()
        self.query_embed = nn.Embedding(num_queries, d_model)
        self.query_pos = nn.Embedding(num_queries, d_model)
        self.decoder_norm = nn.LayerNorm(d_model)
        self.query_to_pixel = nn.Linear(d_model, fpn_channels)
        self.seg_head = nn.Conv2d(fpn_channels, num_classes, kernel_size=1)

    def forward(self, pixel_features, decoder_layers=(), target_size=None):
        """pixel_features: (B, C, H_p, W_p) from the pixel decoder."""
        B = pixel_features.shape[0]
        query = self.query_embed.weight.unsqueeze(0).expand(B, -1, -1)
        query = query + self.query_pos.weight.unsqueeze(0).expand(B, -1, -1)
        for layer in decoder_layers:
            query = layer(query)
        query = self.decoder_norm(query)

        query_projected = self.query_to_pixel(query)  # (B, N_q, C)
        B, C, H_p, W_p = pixel_features.shape
        pixel_flat = pixel_features.flatten(2)  # (B, C, H_p*W_p)

        # (B, N_q, C) x (B, C, H_p*W_p) -> (B, N_q, H_p*W_p)
        attn_map = torch.bmm(query_projected, pixel_flat)
        attn_map = attn_map / (C**0.5)
        attn_map = F.softmax(attn_map, dim=1)  # normalize over queries, per pixel

        # (B, C, N_q) x (B, N_q, H_p*W_p) -> (B, C, H_p*W_p)
        modulated = torch.bmm(query_projected.transpose(1, 2), attn_map).view(B, C, H_p, W_p)
        logits = self.seg_head(pixel_features + modulated)
        if target_size is not None:
            logits = F.interpolate(logits, size=target_size, mode="bilinear", align_corners=False)
        return logits
