# case: fill-lerobot-big-neg-fp16-amp
# modelled-on: huggingface/lerobot https://github.com/huggingface/lerobot/pull/710
# label: buggy
# pattern: an eager attention for a VLA policy replaces masked scores with big_neg = -2.3819763e38 via torch.where; the control loop runs the policy with use_amp=True, i.e. under float16 autocast
# why: -2.38e38 is fine for float32 and bfloat16 but overflows float16 ("value cannot be converted to type at::Half without overflow")
import torch
import torch.nn.functional as F


def eager_attention_forward(attention_mask: torch.Tensor, batch_size: int, head_dim: int,
                            query_states: torch.Tensor, key_states: torch.Tensor, value_states: torch.Tensor) -> torch.Tensor:
    # query_states: (B, L, H, hd); key/value_states: (B, S, H, hd); attention_mask: (B, L, S) bool, True = attend
    query_states = query_states.transpose(1, 2)
    key_states = key_states.transpose(1, 2)
    value_states = value_states.transpose(1, 2)
    att_weights = torch.matmul(query_states, key_states.transpose(2, 3))
    att_weights *= head_dim ** -0.5
    big_neg = -2.3819763e38
    masked_att_weights = torch.where(attention_mask[:, None, :, :], att_weights, big_neg)  # expect: ATT007
    probs = F.softmax(masked_att_weights, dim=-1).to(dtype=value_states.dtype)
    att_output = torch.matmul(probs, value_states)  # (B, H, L, hd)
    return att_output.transpose(1, 2).reshape(batch_size, -1, query_states.shape[1] * head_dim)


@torch.no_grad()
def select_action(policy, observation: dict, device: str = "cuda", use_amp: bool = True):
    with torch.autocast(device_type=device, dtype=torch.float16, enabled=use_amp):
        return policy.select_action(observation)
