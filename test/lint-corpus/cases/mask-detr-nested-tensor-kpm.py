# case: mask-detr-nested-tensor-kpm
# modelled-on: facebookresearch/detr https://github.com/facebookresearch/detr/issues/96
# label: correct
# pattern: DETR: the image-padding mask of a NestedTensor (True on padded pixels, built in util/misc.py) is flattened and passed as nn.MultiheadAttention's key_padding_mask
# why: key_padding_mask ignores True positions and the NestedTensor mask is True exactly on padding; a reader asked in #96 whether the polarity was inverted and it is not
# looks-like: ATT002
from typing import List, Optional

import torch
from torch import Tensor, nn


class NestedTensor:
    def __init__(self, tensors: Tensor, mask: Optional[Tensor]):
        self.tensors = tensors
        self.mask = mask


def nested_tensor_from_tensor_list(tensor_list: List[Tensor]) -> NestedTensor:
    max_size = [max(s) for s in zip(*[img.shape for img in tensor_list])]
    batch_shape = [len(tensor_list)] + max_size
    b, c, h, w = batch_shape
    dtype, device = tensor_list[0].dtype, tensor_list[0].device
    tensor = torch.zeros(batch_shape, dtype=dtype, device=device)
    mask = torch.ones((b, h, w), dtype=torch.bool, device=device)  # True = padding
    for img, pad_img, m in zip(tensor_list, tensor, mask):
        pad_img[: img.shape[0], : img.shape[1], : img.shape[2]].copy_(img)
        m[: img.shape[1], : img.shape[2]] = False  # real pixels
    return NestedTensor(tensor, mask)


class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048, dropout: float = 0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead, dropout=dropout)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.linear2 = nn.Linear(dim_feedforward, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src: Tensor, src_key_padding_mask: Optional[Tensor] = None, pos: Optional[Tensor] = None):
        q = k = src if pos is None else src + pos
        src2 = self.self_attn(q, k, value=src, key_padding_mask=src_key_padding_mask)[0]
        src = self.norm1(src + self.dropout(src2))
        src2 = self.linear2(self.dropout(torch.relu(self.linear1(src))))
        return self.norm2(src + self.dropout(src2))


def encode(samples: NestedTensor, backbone: nn.Module, input_proj: nn.Module, layer: TransformerEncoderLayer, pos_embed: Tensor):
    features = input_proj(backbone(samples.tensors))  # (B, C, h, w)
    mask = torch.nn.functional.interpolate(samples.mask[None].float(), size=features.shape[-2:])[0].to(torch.bool)
    bs, c, h, w = features.shape
    src = features.flatten(2).permute(2, 0, 1)  # (hw, B, C)
    pos = pos_embed.flatten(2).permute(2, 0, 1)
    mask = mask.flatten(1)  # (B, hw), True = padding
    return layer(src, src_key_padding_mask=mask, pos=pos)
