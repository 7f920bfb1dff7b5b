import torch
from torch import nn
from transformers import AutoModel, AutoTokenizer


class Reranker(nn.Module):
    def __init__(self, name="bert-base-uncased"):
        super().__init__()
        self.bert = AutoModel.from_pretrained(name)
        self.cross = nn.MultiheadAttention(768, 8, batch_first=True)

    def forward(self, q_enc, d_enc):
        qh = self.bert(**q_enc).last_hidden_state
        dh = self.bert(**d_enc).last_hidden_state
        out, _ = self.cross(qh, dh, dh, key_padding_mask=d_enc["attention_mask"].eq(0))
        return out[:, 0]


def score(texts, docs):
    tok = AutoTokenizer.from_pretrained("bert-base-uncased")
    return Reranker()(tok(texts, return_tensors="pt", padding=True), tok(docs, return_tensors="pt", padding=True))
