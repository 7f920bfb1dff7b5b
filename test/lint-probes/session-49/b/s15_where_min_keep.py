import torch


def masked_scores(q, k, attention_mask):
    scores = torch.matmul(q, k.transpose(-1, -2)) * q.shape[-1] ** -0.5
    keep = attention_mask.bool()[:, None, None, :]
    return torch.where(keep, scores, torch.finfo(scores.dtype).min).softmax(-1)


def encode(model, tokenizer, text):
    batch = tokenizer(text, return_tensors="pt", padding="max_length", max_length=32)
    q, k = model.proj(batch["input_ids"])
    return masked_scores(q, k, batch["attention_mask"])
