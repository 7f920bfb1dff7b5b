import torch
import torch.nn.functional as F
from einops import pack, repeat, unpack
from torch import nn


class TextTokens(nn.Module):
    """Projects frozen CLIP token encodings, adds a learned global token and runs a small transformer."""

    def __init__(self, clip, dim, transformer):
        super().__init__()
        self.clip = clip
        self.global_token = nn.Parameter(torch.randn(dim))
        self.project_in = nn.Linear(clip.dim_latent, dim) if clip.dim_latent != dim else nn.Identity()
        self.transformer = transformer

    def forward(self, texts=None, encodings=None):
        assert (texts is None) != (encodings is None)
        if encodings is None:
            with torch.no_grad():
                self.clip.eval()
                _, encodings = self.clip.embed_texts(texts)

        is_token = (encodings != 0.0).any(dim=-1)          # (b, n): True on real tokens
        encodings = self.project_in(encodings)

        glob = repeat(self.global_token, "d -> b d", b=encodings.shape[0])
        seq, ps = pack([glob, encodings], "b * d")
        seq = self.transformer(seq, mask=F.pad(is_token, (1, 0), value=True))
        glob, encodings = unpack(seq, ps, "b * d")
        return glob, encodings, is_token


def attend_to_text(fmap, cross_attn, text_tokens, texts):
    """The generator's use of the text mask: pixels attend to the real text tokens only."""
    _, tokens, is_token = text_tokens(texts=texts)
    return cross_attn(fmap, tokens, text_mask=is_token) + fmap
