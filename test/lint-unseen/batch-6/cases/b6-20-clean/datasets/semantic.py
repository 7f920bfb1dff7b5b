import torch
import torch.nn.functional as F


class TextToSemanticCollator:
    def __init__(self, pad_token_id, max_length=4096):
        self.pad_token_id = pad_token_id
        self.max_length = max_length

    def __call__(self, examples):
        tokens, attention_masks, labels = [], [], []
        max_len = min(max(e["tokens"].size(0) for e in examples), self.max_length)
        for e in examples:
            _tokens = e["tokens"][:max_len]
            _labels = e["labels"][:max_len]
            _attention_mask = torch.ones((max_len,), dtype=torch.bool)
            n = _tokens.size(0)
            _attention_mask[:n] = False  # True from here on: padding
            if n < max_len:
                _tokens = F.pad(_tokens, (0, max_len - n), value=self.pad_token_id)
                _labels = F.pad(_labels, (0, max_len - n), value=-100)
            tokens.append(_tokens)
            attention_masks.append(_attention_mask)
            labels.append(_labels)
        return {"inputs": torch.stack(tokens), "attention_masks": torch.stack(attention_masks), "labels": torch.stack(labels)}
