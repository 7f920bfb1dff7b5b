# case: b63-01-mask
# modelled-on: AlanSwift/videolocalization https://github.com/AlanSwift/videolocalization/commit/a6d87bff5a5a8206272856791856c5819dc4e494
# label: buggy
# class: real-bug
# pattern: temporal grounding of a question in a video, as a folder: `data.py` builds a frame mask of ones and a question mask that is 1 on the real words and 0 on the padding; `model.py` treats a non-zero mask entry as a real position (`mask != 0` gives a frame its position index) and hands both masks on; `attention.py` holds an additive video-to-question attention that broadcasts the frame mask over the (batch, frames, words, dim) scores and the question mask over the word axis, and a question self-attention pooling over (batch, words, 1); every mask is cast to bool and used directly as `masked_fill`'s mask with -1e30 before the softmax over the word axis
# why: buggy: both masks are keep masks (1 = real frame / word, as `data.py` builds them and `model.py` reads them), but `masked_fill` fills where the mask is True, so the question self-attention hides every real word and pools only padding, and the cross attention fills whole rows of real frames and the real words, leaving padding words (or a uniform row) to be attended; the intent, to ignore padding, needs `mask == 0` (or `~mask`); no fix commit exists (the repository's last commit keeps the same calls)
# source: https://github.com/AlanSwift/videolocalization https://github.com/AlanSwift/videolocalization/commit/a6d87bff5a5a8206272856791856c5819dc4e494 model/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F

NEG = -1e30


class FrameQuestionAttention(nn.Module):
    def __init__(self, video_dim, text_dim, attn_dim):
        super().__init__()
        self.v_proj = nn.Parameter(torch.randn(video_dim, attn_dim))
        self.t_proj = nn.Parameter(torch.randn(text_dim, attn_dim))
        self.score = nn.Parameter(torch.randn(attn_dim, 1))
        self.bias = nn.Parameter(torch.randn(attn_dim))
        self.out = nn.Parameter(torch.randn(attn_dim * 4, video_dim))
        self.out_bias = nn.Parameter(torch.randn(video_dim))
        self.attn_dim = attn_dim

    def forward(self, video, text, video_mask, text_mask):
        b, n_f, _ = video.shape
        n_w = text.shape[1]
        hv = torch.matmul(video.unsqueeze(2).expand(-1, -1, n_w, -1), self.v_proj)
        ht = torch.matmul(text.unsqueeze(1).expand(-1, n_f, -1, -1), self.t_proj)
        e = torch.matmul(torch.tanh(hv + ht + self.bias), self.score)  # (b, n_f, n_w, 1)
        e = e.expand(-1, -1, -1, self.attn_dim)
        frame_keep = video_mask.view(b, n_f, 1, 1).expand(-1, -1, n_w, self.attn_dim).bool()
        word_keep = text_mask.view(b, 1, n_w, 1).expand(-1, n_f, -1, self.attn_dim).bool()
        e = e.masked_fill(frame_keep, NEG)  # expect: ATT002
        e = e.masked_fill(word_keep, NEG)  # expect: ATT002
        alpha = F.softmax(e, dim=2)
        attended = (alpha * ht).sum(dim=2)
        base = torch.matmul(video, self.v_proj)
        fused = torch.cat((base, attended, base * attended, base - attended), -1)
        return torch.tanh(torch.matmul(fused, self.out) + self.out_bias)


class QuestionPooling(nn.Module):
    def __init__(self, text_dim, attn_dim=500):
        super().__init__()
        self.proj = nn.Parameter(torch.randn(text_dim, attn_dim))
        self.bias = nn.Parameter(torch.randn(attn_dim))
        self.score = nn.Parameter(torch.randn(attn_dim, 1))

    def forward(self, words, mask):
        """words: (b, n_w, dim); mask: (b, n_w) -> (b, dim)."""
        b, n_w, d = words.shape
        e = torch.matmul(torch.tanh(torch.matmul(words, self.proj) + self.bias), self.score)  # (b, n_w, 1)
        keep = mask.view(b, n_w, 1).bool()
        e = e.masked_fill(keep, NEG)  # expect: ATT002
        alpha = F.softmax(e, dim=1)
        return (alpha.expand(-1, -1, d) * words).sum(dim=1)
