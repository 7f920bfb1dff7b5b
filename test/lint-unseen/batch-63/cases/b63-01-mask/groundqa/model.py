import torch
import torch.nn as nn

from .attention import FrameQuestionAttention, QuestionPooling


class Grounder(nn.Module):
    def __init__(self, video_dim, text_dim, n_layers=2):
        super().__init__()
        self.frame_conv = nn.Conv1d(video_dim, video_dim, kernel_size=3, padding=1)
        self.word_rnn = nn.GRU(text_dim, text_dim, num_layers=n_layers, batch_first=True)
        self.cross = FrameQuestionAttention(video_dim, text_dim, 300)
        self.pool = QuestionPooling(text_dim)
        self.start_end = nn.Linear(video_dim + text_dim, 2)

    @staticmethod
    def positions(frame_mask):
        """1-based position of every real frame, 0 for padding."""
        steps = torch.arange(1, frame_mask.shape[1] + 1, device=frame_mask.device)
        return torch.where(frame_mask != 0, steps, torch.zeros_like(steps))

    def forward(self, frames, frame_mask, words, word_mask):
        pos = self.positions(frame_mask)
        x = self.frame_conv(frames.transpose(1, 2)).transpose(1, 2)
        w, _ = self.word_rnn(words)
        x = self.cross(x, w, frame_mask, word_mask)
        q = self.pool(w, word_mask)
        joint = torch.cat([x, q.unsqueeze(1).expand(-1, x.shape[1], -1)], -1)
        return self.start_end(joint), pos
