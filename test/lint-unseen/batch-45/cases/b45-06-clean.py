# case: b45-06-clean
# modelled-on: MahdiRuzmeh/ImageCaptioningImprovedVisualQuestionAnswering https://github.com/MahdiRuzmeh/ImageCaptioningImprovedVisualQuestionAnswering/commit/7f4b01cc3f1ec218b56219389d796b4046f8d322
# label: correct
# class: clean
# pattern: a region-attention LSTM captioner (Show-Attend-Tell style, question-guided for VQA): up to 32 detector regions per image, zero-padded to a fixed count, attended at every decoding step; the previous hidden state (plus a question bias) and each region are projected to a 512-d space, the score is their elementwise product summed over the feature axis (B, R), softmax over the last axis, and the context is an einsum of the weights with the raw 2048-d regions
# why: correct: the paper's soft attention scores a region by the dot product of the projected state and region (its equations 5-7), with no 1/sqrt(d) factor, and the softmax over the last axis of (batch, regions) normalises over the regions; the einsum 'br,brd->bd' sums the weighted regions; the regions padded to the fixed count are zero feature vectors and are not masked, which no rule is about (there is no mask whose polarity or fill could be wrong)
# looks-like: ATT001, ATT003
# source: https://github.com/MahdiRuzmeh/ImageCaptioningImprovedVisualQuestionAnswering https://github.com/MahdiRuzmeh/ImageCaptioningImprovedVisualQuestionAnswering/commit/7f4b01cc3f1ec218b56219389d796b4046f8d322 SimpleImageCaptioner/models/captioner_v1.py
from typing import List, Optional, Tuple

import torch
import torch.nn as nn


class RegionSoftAttention(nn.Module):
    """Soft attention over detector regions (paper eqs. 5-7), scored in a 512-d working space."""

    def __init__(self, region_dim: int, state_dim: int, work_dim: int = 512) -> None:
        super().__init__()
        self.state_to_work = nn.Linear(state_dim, work_dim)
        self.region_to_work = nn.Linear(region_dim, work_dim)
        self.context_out = nn.Linear(region_dim, work_dim)

    def forward(self, regions: torch.Tensor, state: torch.Tensor) -> torch.Tensor:
        # regions (N, R, 2048), state (N, 512) -> context (N, 512)
        s = self.state_to_work(state).unsqueeze(1)
        r = self.region_to_work(regions)
        relevance = (r * s).sum(dim=-1)  # (N, R)
        alpha = torch.softmax(relevance, dim=-1)
        pooled = torch.einsum("nr,nrd->nd", alpha, regions)
        return self.context_out(pooled)


class RegionCaptioner(nn.Module):
    def __init__(self, vocab_size: int, pad_id: int, word_dim: int = 512, hidden: int = 512, region_dim: int = 2048):
        super().__init__()
        self.hidden = hidden
        self.attend = RegionSoftAttention(region_dim, hidden, hidden)
        self.word_emb = nn.Embedding(vocab_size, word_dim, padding_idx=pad_id)
        self.cell = nn.LSTMCell(word_dim + hidden, hidden)
        self.drop = nn.Dropout(0.5)
        self.to_vocab = nn.Linear(hidden, vocab_size)
        self.ctx_logit = nn.Linear(hidden, hidden)
        self.word_logit = nn.Linear(word_dim, hidden)
        self.init_h = nn.Linear(region_dim, hidden)
        self.init_c = nn.Linear(region_dim, hidden)

    def start_state(self, regions: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        pooled = regions.mean(dim=1)
        return torch.tanh(self.init_h(pooled)), torch.tanh(self.init_c(pooled))

    def step(self, regions, token, h, c, question_bias):
        context = self.attend(regions, h + question_bias)
        word = self.word_emb(token)
        h, c = self.cell(torch.cat([word, context], dim=-1), (h, c))
        logits = self.to_vocab(self.drop(h) + self.ctx_logit(context) + self.word_logit(word))
        return logits, h, c

    def forward(self, regions: torch.Tensor, caption_ids: torch.Tensor, question_bias: Optional[torch.Tensor] = None, sample_p: float = 0.0):
        n = regions.size(0)
        if question_bias is None:
            question_bias = regions.new_zeros(n, self.hidden)
        h, c = self.start_state(regions)
        token, outputs = caption_ids[:, 0], []  # type: torch.Tensor, List[torch.Tensor]
        for t in range(caption_ids.size(1) - 1):
            logits, h, c = self.step(regions, token, h, c, question_bias)
            outputs.append(logits)
            gold = caption_ids[:, t + 1]
            if sample_p > 0.0:
                pick_pred = torch.rand(n, device=regions.device) < sample_p
                token = torch.where(pick_pred, logits.argmax(dim=-1).detach(), gold)
            else:
                token = gold
        return torch.stack(outputs, dim=1)
