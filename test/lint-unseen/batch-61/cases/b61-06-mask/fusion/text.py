import torch.nn as nn
from transformers import BertModel, BertTokenizer


class InstructionEncoder(nn.Module):
    """Encodes robot instructions with a pretrained Chinese BERT."""

    def __init__(self, name="bert-base-chinese", device="cuda"):
        super().__init__()
        self.tok = BertTokenizer.from_pretrained(name)
        self.bert = BertModel.from_pretrained(name).to(device)
        self.device = device

    def forward(self, texts):
        if isinstance(texts, str):
            texts = [texts]
        batch = self.tok(texts, return_tensors="pt", padding=True, truncation=True, max_length=64).to(self.device)
        hidden = self.bert(**batch).last_hidden_state
        return {
            "sentence": hidden[:, 0],
            "tokens": hidden,
            "attention_mask": batch["attention_mask"],
        }
