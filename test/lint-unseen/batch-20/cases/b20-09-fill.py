# case: b20-09-fill
# modelled-on: deepnetni/zeta https://github.com/deepnetni/zeta/commit/780a6d8ed1337f2c4ce4974fa7868a5dac4ea6db
# label: buggy
# class: real-bug
# pattern: axial self-attention (ASA) for causal speech enhancement on (B, C, T, F) feature maps: a frequency attention over (t, f_query, f_key) scores softmaxed over the last axis, then a time attention whose (b, f, t_query, t_key) scores should be causal: the module builds ones(i, j).triu_(j - i + 1).bool() (True above the diagonal) and calls t_score.masked_fill(mask, -finfo.max) as a statement of its own before t_score.softmax(dim=-1)
# why: buggy: masked_fill is out of place and its result is thrown away, so the time scores are never masked and every frame attends to future frames although the module is built causal=True (the default), which breaks the streaming, causal model it is part of; masked_fill_ or an assignment was meant; no fix exists in the repository
# source: https://github.com/deepnetni/zeta https://github.com/deepnetni/zeta/commit/780a6d8ed1337f2c4ce4974fa7868a5dac4ea6db core/comps/ASA.py
import einops
import torch
import torch.nn as nn


class AxialSelfAttention(nn.Module):
    """Input and output (B, C, T, F); attention along F, then (causally) along T."""

    def __init__(self, in_channels, causal=True):
        super().__init__()
        self.atten_ch = in_channels
        self.f_qkv = nn.Sequential(
            nn.Conv2d(in_channels, self.atten_ch * 3, kernel_size=(1, 1)),
            nn.BatchNorm2d(self.atten_ch * 3),
            nn.PReLU(),
        )
        self.t_qk = nn.Sequential(
            nn.Conv2d(in_channels, self.atten_ch * 2, kernel_size=(1, 1)),
            nn.BatchNorm2d(self.atten_ch * 2),
            nn.PReLU(),
        )
        self.proj = nn.Sequential(
            nn.Conv2d(self.atten_ch, in_channels, kernel_size=(1, 1)),
            nn.BatchNorm2d(in_channels),
            nn.PReLU(),
        )
        self.causal = causal

    def forward(self, inp):
        # frequency attention: b,t,f_query,f_key
        qf, kf, v = tuple(einops.rearrange(self.f_qkv(inp), "b (c k) t f -> k b c t f", k=3))
        f_score = torch.einsum("bctf,bcty->btfy", qf, kf) / (self.atten_ch**0.5)
        f_score = f_score.softmax(dim=-1)
        f_out = torch.einsum("btfy,bcty->bctf", f_score, v)

        # time attention: b,f,t_query,t_key
        qt, kt = tuple(einops.rearrange(self.t_qk(inp), "b (c k) t f -> k b c t f", k=2))
        t_score = torch.einsum("bctf,bcyf->bfty", qt, kt) / (self.atten_ch**0.5)
        if self.causal is True:
            mask_v = -torch.finfo(t_score.dtype).max
            i, j = t_score.shape[-2:]  # query frames, key frames
            mask = torch.ones(i, j, device=t_score.device).triu_(j - i + 1).bool()
            # set the future to mask_v where the mask is True
            t_score.masked_fill(mask, mask_v)  # expect: ATT007

        t_score = t_score.softmax(dim=-1)
        t_out = torch.einsum("bfty,bcyf->bctf", t_score, f_out).contiguous()
        return self.proj(t_out) + inp
