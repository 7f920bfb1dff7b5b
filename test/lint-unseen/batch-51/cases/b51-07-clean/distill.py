import torch
import torch.nn.functional as F

from teacher_lm import Teacher


def distill_loss(student_logits, teacher_logits, ce_loss, temperature=2.0, alpha=0.5):
    """Hinton-style distillation over the vocabulary, mixed with the hard-label loss."""
    t = temperature
    student_log_probs = F.log_softmax(student_logits / t, dim=-1)
    teacher_probs = F.softmax(teacher_logits / t, dim=-1)
    kl = F.kl_div(student_log_probs, teacher_probs, reduction="batchmean") * (t * t) / student_logits.shape[1]
    return alpha * ce_loss + (1 - alpha) * kl


def train_step(student, teacher: Teacher, batch, optimizer, temperature=2.0, alpha=0.5):
    x, y = batch
    student_logits, ce_loss = student(x, y)
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=x.is_cuda):
        teacher_logits = teacher(x)
    loss = distill_loss(student_logits, teacher_logits.float(), ce_loss, temperature, alpha)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.item()
