import torch


def pad_batch(examples):
    lens = torch.tensor([len(e) for e in examples])
    T = int(lens.max())
    ids = torch.zeros(len(examples), T, dtype=torch.long)
    for i, e in enumerate(examples):
        ids[i, : len(e)] = torch.tensor(e)
    key_bias = torch.zeros(len(examples), T)
    key_bias.masked_fill_(torch.arange(T)[None, :] >= lens[:, None], torch.finfo(torch.float32).min)
    return {"input_ids": ids, "key_bias": key_bias}
