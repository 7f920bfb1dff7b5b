from typing import List, Sequence, Tuple

import torch
from torch import Tensor


def pad_clip_features(clips: Sequence[Tensor]) -> Tuple[Tensor, Tensor]:
    """Stack per-clip features (t_i, E) into (B, T, E) and a padding mask (B, T)."""
    batch = len(clips)
    dim = clips[0].shape[1]
    lengths = [c.shape[0] for c in clips]
    longest = max(lengths)
    feats = torch.zeros(batch, longest, dim)
    pad = torch.ones(batch, longest, dtype=torch.long)
    for i, clip in enumerate(clips):
        feats[i, : lengths[i]] = clip
        pad[i, : lengths[i]] = 0
    pad = pad == 1  # bool tensor, True on padded frames
    return feats, pad


def pad_captions(captions: List[Tensor], pad_id: int) -> Tuple[Tensor, Tensor]:
    """Returns token ids (B, S) and their mask."""
    longest = max(len(c) for c in captions)
    ids = torch.full((len(captions), longest), pad_id, dtype=torch.long)
    for i, cap in enumerate(captions):
        ids[i, : len(cap)] = cap
    return ids, ids == pad_id


def collate_train(batch):
    modal_clips, captions, video_ids = zip(*batch)
    feats, masks = [], []
    for clips in zip(*modal_clips):  # one list per modality
        f, m = pad_clip_features(clips)
        feats.append(f)
        masks.append(m)
    ids, caption_pad = pad_captions(list(captions), pad_id=0)
    return feats, masks, ids, caption_pad, list(video_ids)
