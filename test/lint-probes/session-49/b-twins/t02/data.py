import torch


def collate_fn(samples, pad_id=0):
    L = max(len(s) for s in samples)
    ids = torch.full((len(samples), L), pad_id, dtype=torch.long)
    for i, s in enumerate(samples):
        ids[i, : len(s)] = torch.tensor(s)
    attention_mask = (ids != pad_id).long()
    return {"input_ids": ids, "attention_mask": attention_mask}
