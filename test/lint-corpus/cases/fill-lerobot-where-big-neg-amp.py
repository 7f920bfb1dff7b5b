# case: fill-lerobot-where-big-neg-amp
# modelled-on: huggingface/lerobot https://github.com/huggingface/lerobot/pull/710
# label: buggy
# pattern: a VLA policy's eager attention over (B, H, L, S) scores selects the masked positions with torch.where(mask, scores, big_neg) where big_neg is the float32-sized constant -2.3819763e38, and the policy is run with use_amp=True by the control loop in the same file
# why: under AMP the scores are float16, and torch.where with -2.38e38 raises "value cannot be converted to type at::Half without overflow" (the PR picks a half-safe constant for half precision)
import torch
import torch.nn as nn
import torch.nn.functional as F


def eager_attention_forward(query_states, key_states, value_states, attention_mask, head_dim: int):
    # query_states: (B, L, H, D); key_states, value_states: (B, S, H, D); attention_mask: (B, L, S) True = may attend
    query_states = query_states.transpose(1, 2)
    key_states = key_states.transpose(1, 2)
    value_states = value_states.transpose(1, 2)
    att_weights = torch.matmul(query_states, key_states.transpose(2, 3)) * head_dim ** -0.5  # (B, H, L, S)
    big_neg = -2.3819763e38
    masked_att_weights = torch.where(attention_mask[:, None, :, :], att_weights, big_neg)  # expect: ATT007
    probs = F.softmax(masked_att_weights, dim=-1).to(dtype=value_states.dtype)
    out = torch.matmul(probs, value_states)  # (B, H, L, D)
    return out.transpose(1, 2).reshape(out.shape[0], out.shape[2], -1)


def select_action(policy: nn.Module, observation: dict, device: str, use_amp: bool):
    with torch.inference_mode(), torch.autocast(device_type=device) if use_amp else torch.inference_mode():
        return policy.select_action(observation)


def control_loop(policy: nn.Module, robot, steps: int, use_amp: bool = True):
    for _ in range(steps):
        action = select_action(policy, robot.capture_observation(), "cuda", use_amp)
        robot.send_action(action)
