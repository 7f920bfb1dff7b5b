# case: b35-04-clean
# modelled-on: rezjsh/DL_NLP_PyTorch-Image-Captioning-with-Attention https://github.com/rezjsh/DL_NLP_PyTorch-Image-Captioning-with-Attention/commit/df599b936da0ad1bbf845f74534a8abeee33bcbe
# label: correct
# class: clean
# pattern: an image-captioning project (CNN grid features, nn.TransformerDecoder with batch_first=True, norm_first=True): the decoder's causal mask is PyTorch's square-subsequent idiom ((triu(ones) == 1).transpose(0, 1), made float, -inf where 0 and 0.0 where 1), and the training forward turns the caption padding into a float key padding mask, (captions == pad).float().masked_fill(captions == pad, -inf).masked_fill(captions != pad, 0.0), "to resolve PyTorch warnings" about mixing a boolean padding mask with a float causal mask; beam search passes only the causal mask
# why: correct: both masks are additive and of one dtype, as nn.TransformerDecoder accepts them: the padding mask is -inf exactly at the padding tokens and 0.0 at the real ones (the same positions the earlier boolean captions == pad marked True), and the causal mask is 0.0 on and below the diagonal, -inf above it; the image features are never padded, so no memory mask is needed; the <SOS> token is never padding, so no row is fully masked
# looks-like: ATT002, ATT007
# source: https://github.com/rezjsh/DL_NLP_PyTorch-Image-Captioning-with-Attention https://github.com/rezjsh/DL_NLP_PyTorch-Image-Captioning-with-Attention/commit/df599b936da0ad1bbf845f74534a8abeee33bcbe Image_Captioning/src/components/encoder_decoder.py (with Image_Captioning/src/components/decoder.py)
import torch
import torch.nn as nn
import torchvision

from .decoder import CaptionTransformerDecoder


class GridEncoder(nn.Module):
    def __init__(self, d_model: int = 512) -> None:
        super().__init__()
        backbone = torchvision.models.resnet50(weights=None)
        self.cnn = nn.Sequential(*list(backbone.children())[:-2])
        self.project = nn.Linear(2048, d_model)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        feats = self.cnn(images)  # (B, 2048, H, W)
        return self.project(feats.flatten(2).transpose(1, 2))  # (B, H*W, d_model)


class ImageCaptioner(nn.Module):
    def __init__(self, vocab_size: int, pad_idx: int, d_model: int = 512) -> None:
        super().__init__()
        self.pad_idx = pad_idx
        self.encoder = GridEncoder(d_model)
        self.decoder = CaptionTransformerDecoder(vocab_size, d_model)
        self.causal = self.decoder.subsequent_mask

    def forward(self, images: torch.Tensor, captions: torch.Tensor) -> torch.Tensor:
        """captions: (B, T) right-shifted, padded with pad_idx."""
        grid = self.encoder(images)
        causal = self.causal(captions.size(1), captions.device)
        is_pad = captions == self.pad_idx
        # float padding mask, so that it has the causal mask's dtype
        padding = is_pad.float().masked_fill(is_pad, float("-inf")).masked_fill(~is_pad, float(0.0))
        return self.decoder(captions, grid, causal=causal, token_padding=padding)
