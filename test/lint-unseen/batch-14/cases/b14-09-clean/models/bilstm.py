# case: b14-09-clean
# modelled-on: AFUFAFU-FAT/transformer-from-scratch https://github.com/AFUFAFU-FAT/transformer-from-scratch/commit/26a4aed52779e8f83ad25aaf97973e285d68657e
# label: correct
# class: clean
# pattern: a sign-language recogniser (hand and pose landmarks per video frame) served by a small web app: a BiLSTM over (batch, frames, features) followed by attention pooling, where nn.Linear(2 * hidden, 1) scores every frame, torch.softmax(..., dim=1) turns the (batch, frames, 1) scores into weights, and the weighted frames are summed over dim=1 before the classifier; the recognition module (another file) rebuilds the model from a saved config and feeds it sliding windows of frames
# why: correct: the scores are (batch, frames, 1), so dim=1 is the frame axis and the weights sum to one over the frames of each clip (a softmax over the last, length-1 axis would make every weight 1); the pooling is additive attention with a learned projection, which has no 1/sqrt(d) by design; what a naive linter could misread: ATT001 (softmax over dim=1 rather than the last axis), ATT003 (no scale)
# looks-like: ATT001, ATT003
# source: https://github.com/AFUFAFU-FAT/transformer-from-scratch https://github.com/AFUFAFU-FAT/transformer-from-scratch/commit/26a4aed52779e8f83ad25aaf97973e285d68657e recognize.py
import torch
import torch.nn as nn


class SignLanguageBiLSTM(nn.Module):
    def __init__(self, input_dim: int, num_classes: int, hidden_dim: int = 64, num_layers: int = 1, dropout: float = 0.6):
        super().__init__()
        self.input_proj = nn.Sequential(nn.Linear(input_dim, 64), nn.LayerNorm(64), nn.ReLU())
        self.lstm = nn.LSTM(
            input_size=64,
            hidden_size=hidden_dim,
            num_layers=num_layers,
            batch_first=True,
            dropout=dropout if num_layers > 1 else 0,
            bidirectional=True,
        )
        out_dim = hidden_dim * 2
        self.attention = nn.Linear(out_dim, 1)
        self.classifier = nn.Sequential(nn.Dropout(dropout), nn.Linear(out_dim, num_classes))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.input_proj(x)  # (batch, frames, 64)
        lstm_out, _ = self.lstm(x)  # (batch, frames, 2 * hidden)
        lstm_out = self.dropout(lstm_out)
        attn_weights = torch.softmax(self.attention(lstm_out), dim=1)  # (batch, frames, 1)
        context = (attn_weights * lstm_out).sum(dim=1)
        return self.classifier(context)
