# case: b49-07-clean
# modelled-on: yl4579/styletts2 https://github.com/yl4579/styletts2/commit/5cedc71c333f8d8b8551ca59378bdcc7af4c9529
# label: correct
# class: clean
# pattern: the first-stage training step of a text-to-speech model (a folder: the mask helpers, where the length mask is True on padding, a float token-by-frame mask and a monotonic path search; and the step, which runs a pretrained text aligner with the padding mask, drops its start-token row, builds a boolean mask that is True where a token or a frame is padding by inverting both length masks, zeroes those entries of the already-normalised alignment with masked_fill_(mask, 0.0), derives a hard monotonic alignment from it, and multiplies the text encoding by either alignment)
# why: correct: the alignment is the aligner's attention output (softmax inside the aligner, whose padded frames were already excluded there); zeroing after it only clears rows of padded tokens and columns of padded frames, which carry no weight that should be kept, and the matrix is then used as a soft token-to-frame alignment (t_en @ attn), not renormalised attention; (~mask) * (~text_mask) is 1 on real pairs, so `< 1` marks exactly the padded pairs; the aligner receives the True-on-padding mask that its key-padding argument expects
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/yl4579/styletts2 https://github.com/yl4579/styletts2/commit/5cedc71c333f8d8b8551ca59378bdcc7af4c9529 train_first.py
import random

import torch

from masks import monotonic_path, pair_mask, padding_mask


def alignment_step(model, batch, n_down: int, device: str):
    texts, text_lengths, mels, frame_lengths = (t.to(device) for t in batch)
    frames = frame_lengths // (2 ** n_down)

    with torch.no_grad():
        frame_pad = padding_mask(frames)  # (B, T_frames), True = padding
        token_pad = padding_mask(text_lengths)  # (B, T_text), True = padding

    _, _, attn = model.text_aligner(mels, frame_pad, texts)  # (B, T_text + 1, T_frames)
    attn = attn[:, 1:, :]  # drop the start-token row

    with torch.no_grad():
        real_frames = (~frame_pad).unsqueeze(1).float()  # (B, 1, T_frames)
        real_tokens = (~token_pad).unsqueeze(2).float()  # (B, T_text, 1)
        padded_pair = (real_tokens * real_frames) < 1

    attn.masked_fill_(padded_pair, 0.0)

    with torch.no_grad():
        valid = pair_mask(text_lengths, frames, attn)
        hard = monotonic_path(attn, valid)

    text_enc = model.text_encoder(texts, text_lengths, token_pad)  # (B, C, T_text)
    aligned = text_enc @ (attn if random.random() < 0.5 else hard)  # (B, C, T_frames)
    return aligned, attn, hard


def clip_pairs(aligned, mels, frame_lengths, clip: int):
    starts = [random.randint(0, int(n) // 2 - clip) for n in frame_lengths]
    enc = torch.stack([aligned[b, :, s : s + clip] for b, s in enumerate(starts)])
    tgt = torch.stack([mels[b, :, 2 * s : 2 * (s + clip)] for b, s in enumerate(starts)])
    return enc, tgt.detach()
