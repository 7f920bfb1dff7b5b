import torch
import torch.nn as nn
import torch.nn.functional as F


class AttnDistillLoss(nn.Module):
    """MiniLM-style: KL between teacher and student attention distributions."""

    def __init__(self, temperature=1.0):
        super().__init__()
        self.temperature = temperature

    def forward(self, student_q, student_k, teacher_attn):
        d = student_q.shape[-1]
        s = student_q @ student_k.transpose(-1, -2) / d ** 0.5
        log_p = F.log_softmax(s / self.temperature, dim=-1)
        kl = F.kl_div(log_p, teacher_attn, reduction="batchmean")
        return kl * self.temperature ** 2
