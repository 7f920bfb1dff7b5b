# case: fill-lerobot-big-neg-bf16
# modelled-on: huggingface/lerobot https://github.com/huggingface/lerobot/pull/710
# label: correct
# pattern: the same eager attention with big_neg = -2.3819763e38, run the way the policy ships: weights and activations in bfloat16, no float16 autocast
# why: bfloat16 has float32's exponent range (max about 3.39e38), so -2.38e38 is representable and the masked weights become exactly 0
# looks-like: ATT007
import torch
import torch.nn.functional as F


def eager_attention_forward(attention_mask: torch.Tensor, head_dim: int, query_states: torch.Tensor, key_states: torch.Tensor, value_states: torch.Tensor) -> torch.Tensor:
    # (B, H, L, hd) in bfloat16; attention_mask (B, L, S) bool, True = attend
    att_weights = torch.matmul(query_states, key_states.transpose(2, 3)) * head_dim ** -0.5
    big_neg = -2.3819763e38
    masked = torch.where(attention_mask[:, None, :, :], att_weights, big_neg)
    probs = F.softmax(masked.float(), dim=-1).to(dtype=value_states.dtype)
    return torch.matmul(probs, value_states)


def load_policy(policy_cls, path: str, device: str = "cuda"):
    policy = policy_cls.from_pretrained(path)
    return policy.to(device=device, dtype=torch.bfloat16).eval()
