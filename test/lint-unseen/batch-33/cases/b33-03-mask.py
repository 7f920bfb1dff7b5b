# case: b33-03-mask
# modelled-on: eufouria/s2t_RoPEConformer https://github.com/eufouria/s2t_RoPEConformer/commit/908ccd5221c3dab0a31bf996b0d8b5cf448dc5b6
# label: buggy
# class: real-bug
# pattern: the self-attention of a speech-to-text Conformer with rotary position embeddings: a hand-written scaled_dot_product_attention method that mirrors PyTorch's reference (an additive attn_bias of zeros; a boolean attn_mask is applied as masked_fill_(~attn_mask, -inf), any other attn_mask is added to the bias; the bias is added to q @ k^T * 1/sqrt(E) before the softmax); forward, when no mask is passed (the Conformer module never passes one), builds "a padding mask ... 1 for non-pad positions, 0 for pad positions" from x.sum(-1) != 0, expands it to (B, H, L, L) and turns it into float before handing it to that method
# why: buggy: the commit that added the padding mask ("padding mask", 908ccd5) converts the keep mask to float, so the method takes its additive arm and adds 1 to the scores of real keys and 0 to those of padded keys: the padded frames are not masked at all (the softmax is shift-invariant per row, so a constant 1 changes nothing where a row has no padding); the author's comment and the boolean arm (masked_fill_(~attn_mask, -inf)) show the mask was meant to remove the padded keys, which a boolean mask (no .float()) or an additive (1 - m) * -inf bias would do. The scale 1/sqrt(head_dims), the key transpose and the softmax axis are right
# source: https://github.com/eufouria/s2t_RoPEConformer https://github.com/eufouria/s2t_RoPEConformer/commit/908ccd5221c3dab0a31bf996b0d8b5cf448dc5b6 model/conformer/mhsa.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

from .embedding import RotaryEmbedding


class RoPEMultiHeadSelfAttention(nn.Module):
    """
    RoPE multi-head self-attention.

    Inputs:
        x: (batch_size, seq_len, input_dims)
        mask: (seq_len, seq_len) or (batch_size, 1, seq_len, seq_len), optional
    """

    def __init__(self, input_dims: int, num_heads: int, dropout: float = 0.0, theta: float = 10000.0) -> None:
        super(RoPEMultiHeadSelfAttention, self).__init__()
        assert input_dims % num_heads == 0, "input_dims must be divisible by num_heads"
        self.num_heads = num_heads
        self.input_dims = input_dims
        self.head_dims = input_dims // num_heads
        self.dropout = dropout

        self.wq = nn.Linear(input_dims, input_dims, bias=False)
        self.wk = nn.Linear(input_dims, input_dims, bias=False)
        self.wv = nn.Linear(input_dims, input_dims, bias=False)
        self.rope = RotaryEmbedding(input_dims // num_heads)
        self.out_proj = nn.Linear(input_dims, input_dims, bias=False)

    def scaled_dot_product_attention(
        self,
        query: torch.Tensor,
        key: torch.Tensor,
        value: torch.Tensor,
        attn_mask: Optional[torch.Tensor] = None,
        dropout: float = 0.1,
        is_causal: bool = False,
        scale: Optional[float] = None,
    ) -> torch.Tensor:
        # query (B, H, L, E), key and value (B, H, S, E)
        L, S = query.size(-2), key.size(-2)
        scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
        attn_bias = torch.zeros((query.size(0), query.size(1), L, S), dtype=query.dtype, device=query.device)

        if is_causal:
            assert attn_mask is None, "attn_mask should be None when is_causal is True"
            temp_mask = torch.ones(L, S, dtype=torch.bool, device=query.device).tril(diagonal=0)
            attn_bias.masked_fill_(~temp_mask, float("-inf"))

        if attn_mask is not None:
            if attn_mask.dtype == torch.bool:
                attn_bias.masked_fill_(~attn_mask, float("-inf"))
            else:
                attn_bias += attn_mask  # expect: ATT006

        attn_weights = torch.matmul(query, key.transpose(-2, -1)) * scale_factor
        attn_weights += attn_bias
        attn_weights = F.softmax(attn_weights, dim=-1)
        attn_weights = F.dropout(attn_weights, p=dropout, training=True)
        return torch.matmul(attn_weights, value)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        bsz, seqlen, _ = x.shape

        # Create padding mask if not provided (1 for non-pad positions, 0 for pad positions)
        if mask is None:
            mask = (x.sum(dim=-1) != 0).unsqueeze(1).unsqueeze(2)  # (batch_size, 1, 1, seq_len)
            mask = mask.expand(bsz, self.num_heads, seqlen, seqlen)
            mask = mask.float()

        xq = self.wq(x).view(bsz, seqlen, self.num_heads, self.head_dims)
        xk = self.wk(x).view(bsz, seqlen, self.num_heads, self.head_dims)
        xv = self.wv(x).view(bsz, seqlen, self.num_heads, self.head_dims)

        # rotary embedding on (B, L, H, E), then heads first
        xq, xk = self.rope(xq), self.rope(xk)
        xq, xk, xv = xq.transpose(1, 2), xk.transpose(1, 2), xv.transpose(1, 2)

        attn_output = self.scaled_dot_product_attention(xq, xk, xv, mask)
        attn_output = attn_output.transpose(1, 2).contiguous().view(bsz, seqlen, self.input_dims)
        return self.out_proj(attn_output)


class RoPEMultiHeadSelfAttentionModule(nn.Module):
    def __init__(self, input_dims: int, num_heads: int, dropout: float = 0.1) -> None:
        super(RoPEMultiHeadSelfAttentionModule, self).__init__()
        self.layer_norm = nn.LayerNorm(input_dims)
        self.mhsa = RoPEMultiHeadSelfAttention(input_dims, num_heads)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x) -> torch.Tensor:
        x = self.layer_norm(x)
        x = self.mhsa(x)
        return self.dropout(x)
