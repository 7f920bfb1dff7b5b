import torch


def create_masks(src: torch.Tensor, tgt_in: torch.Tensor, pad_id: int):
    """src: (B, S), tgt_in: (B, T). Returns keep masks: src (B, 1, 1, S), tgt (B, 1, T, T)."""
    src_mask = (src != pad_id).unsqueeze(1).unsqueeze(2)
    tgt_pad = (tgt_in != pad_id).unsqueeze(1).unsqueeze(2)  # (B, 1, 1, T)
    T = tgt_in.size(1)
    lower = torch.tril(torch.ones((T, T), device=tgt_in.device)).bool()
    return src_mask, tgt_pad & lower


def collate(batch, pad_id: int, src_max: int, tgt_max: int):
    B = len(batch)
    src = torch.full((B, src_max), pad_id, dtype=torch.long)
    tgt = torch.full((B, tgt_max), pad_id, dtype=torch.long)
    for i, ex in enumerate(batch):
        s = torch.tensor(ex["src_ids"][:src_max])
        t = torch.tensor(ex["tgt_ids"][:tgt_max])  # starts with [SOS]
        src[i, : s.numel()] = s
        tgt[i, : t.numel()] = t
    tgt_in, labels = tgt[:, :-1], tgt[:, 1:]
    src_mask, tgt_mask = create_masks(src, tgt_in, pad_id)
    return {"src": src, "tgt_in": tgt_in, "labels": labels, "src_mask": src_mask, "tgt_mask": tgt_mask}
