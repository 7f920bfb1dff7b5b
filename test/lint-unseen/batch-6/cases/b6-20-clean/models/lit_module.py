import torch.nn.functional as F

from .llama import BaseTransformer


def training_step(model: BaseTransformer, batch):
    logits = model(inp=batch["inputs"], key_padding_mask=batch["attention_masks"])
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), batch["labels"][:, 1:].reshape(-1), ignore_index=-100)
