# case: b60-08-clean
# modelled-on: yuhuahu310/VQA-Project https://github.com/yuhuahu310/VQA-Project/commit/681fabd235bcb301e2bbc804dc7da818f9f604ff
# label: correct
# class: clean
# pattern: a visual-question-answering answer generator: a ViT image vector and a frozen BERT question vector form the memory of a stack of nn.TransformerDecoderLayer(batch_first=True) over answer tokens; the look-ahead mask is built in two masked_fill steps on a boolean matrix, `m = (triu(ones) == 1).transpose(0, 1)` then `m.masked_fill(m == 0, 1).masked_fill(m == 1, 0)`, and passed as `tgt_mask`; greedy decoding re-runs the decoder on the growing answer
# why: correct: both conditions are evaluated on the original lower-triangular matrix (True on and below the diagonal), so the first fill sets the future entries to True and the second sets the past and diagonal entries to False; the result is True exactly above the diagonal, which for a boolean tgt_mask means "may not attend": future tokens are blocked and each token sees itself and its past; decoding re-runs the whole prefix without a cache, so the square mask always matches
# looks-like: ATT002, ATT008
# source: https://github.com/yuhuahu310/VQA-Project https://github.com/yuhuahu310/VQA-Project/commit/681fabd235bcb301e2bbc804dc7da818f9f604ff multimodal_baseline/vit_bert_atten_transformer.py
import numpy as np
import torch
import torch.nn as nn
import torchvision
from transformers import BertModel


class LearnedPositions(nn.Module):
    def __init__(self, dim, dropout=0.1, max_len=5000):
        super().__init__()
        self.table = nn.Embedding(max_len, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        n, s, _ = x.shape
        steps = torch.arange(s, device=x.device)
        return self.drop(x + self.table(steps).unsqueeze(0).expand(n, -1, -1))


class AnswerDecoder(nn.Module):
    def __init__(self, vocab_size, new_vocab_size, dim, heads=4, layers=2, max_length=50, device="cuda"):
        super().__init__()
        self.pad_id, self.start_id = 0, 101
        self.vocab_size = vocab_size
        self.device = device
        layer = nn.TransformerDecoderLayer(d_model=dim, nhead=heads, batch_first=True)
        self.layers = nn.ModuleList([layer for _ in range(layers)])
        self.answer_emb = nn.Embedding(vocab_size, dim, padding_idx=self.pad_id)
        self.positions = LearnedPositions(dim, max_len=max_length)
        self.bert = BertModel.from_pretrained("bert-base-uncased")
        self.bert.resize_token_embeddings(new_vocab_size)
        self.vit = torchvision.models.vit_b_16(weights=torchvision.models.ViT_B_16_Weights.DEFAULT)
        self.vit.heads = nn.Linear(768, dim)
        self.question_proj = nn.Linear(768, dim)
        self.to_vocab = nn.Linear(dim, vocab_size)
        self.to(device)

    def memory(self, images, questions):
        image_vec = self.vit(images)                      # (N, dim)
        with torch.no_grad():
            cls = self.bert(questions)[0][:, 0, :]        # frozen question encoder, [CLS]
        question_vec = self.question_proj(cls)            # (N, dim)
        return torch.stack([image_vec, question_vec], dim=1)  # (N, 2, dim)

    def look_ahead(self, size):
        m = (torch.triu(torch.ones(size, size, device=self.device)) == 1).transpose(0, 1)
        m = m.masked_fill(m == 0, 1).masked_fill(m == 1, 0)
        return m

    def forward(self, images, questions, answers):
        mem = self.memory(images, questions)
        out = self.positions(self.answer_emb(answers))
        blocked = self.look_ahead(answers.shape[1])
        for layer in self.layers:
            out = layer(out, mem, tgt_mask=blocked)
        return self.to_vocab(out)

    @torch.no_grad()
    def greedy(self, images, questions, max_length=30):
        n = images.shape[0]
        answer = torch.full((n, 1), self.start_id, dtype=torch.long, device=self.device)
        tokens = np.full((n, max_length), self.pad_id, dtype=np.int32)
        for t in range(max_length):
            step_logits = self.forward(images, questions, answer)[:, -1, :]
            word = step_logits.argmax(dim=1)
            tokens[:, t] = word.cpu().numpy()
            answer = torch.cat([answer, word.unsqueeze(1)], dim=1)
        return tokens
