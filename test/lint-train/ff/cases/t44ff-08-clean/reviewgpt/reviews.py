from copy import deepcopy

import pandas as pd
import torch


class PrefixedReviews(torch.utils.data.Dataset):
    """Each review is prefixed by its rating words and a separator; only the review tokens are trained on."""

    def __init__(self, csv_path, tokenizer, ctx, device="cpu"):
        frame = pd.read_csv(csv_path)
        texts, ratings = frame.iloc[:, 0].to_list(), frame.iloc[:, 1].to_list()
        keep = [i for i, t in enumerate(texts) if len(t.encode("utf-8")) > 3]
        self.texts = [texts[i] for i in keep]
        self.ratings = [ratings[i] for i in keep]
        self.tok = tokenizer
        self.ctx = ctx
        self.device = device
        self.good = tokenizer.encode("good")
        self.bad = tokenizer.encode("not good")

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        prefix = deepcopy(self.good if self.ratings[i] else self.bad) + [self.tok.sep_token]
        body = self.tok.encode(self.texts[i])
        inputs = prefix + body
        target = prefix + body[1:] + [self.tok.eos_token]
        mask = [0] * len(prefix) + [1] * len(body)
        short = self.ctx - len(inputs)
        if short > 0:
            inputs += [self.tok.pad_token] * short
            target += [self.tok.pad_token] * short
            mask += [0] * short
        inputs, target, mask = inputs[: self.ctx], target[: self.ctx], mask[: self.ctx]
        as_long = lambda xs: torch.as_tensor(xs).long().to(self.device)
        return {"input": as_long(inputs), "target": as_long(target), "mask": as_long(mask)}
