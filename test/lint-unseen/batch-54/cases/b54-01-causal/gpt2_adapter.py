import torch.nn as nn

from streaming_attention import StreamingAttention


class GPT2BlockAttention(nn.Module):
    """Takes the place of transformers' GPT2Attention inside a loaded GPT-2."""

    def __init__(self, cfg):
        super().__init__()
        cfg.use_qkv_projections = True
        self.core = StreamingAttention(cfg)

    def forward(self, hidden_states=None, layer_past=None, attention_mask=None, head_mask=None,
                use_cache=False, output_attentions=False, **unused):
        # GPT2Attention's keyword interface; cross-attention arguments arrive in `unused`
        past = None
        if isinstance(layer_past, tuple) and len(layer_past) == 2:
            past = (layer_past[0], layer_past[1])
        result = self.core(
            hidden_states=hidden_states,
            past_key_value=past,
            use_cache=use_cache,
            causal=True,
        )
        if use_cache:
            out, present = result
            return (out, present, None) if output_attentions else (out, present)
        return (result, None) if output_attentions else result


def swap_gpt2_attention(model, cfg, suffix: str = "attn") -> int:
    count = 0
    for name, module in list(model.named_modules()):
        if type(module).__name__ == "GPT2Attention" and name.endswith(suffix):
            parent = model.get_submodule(name.rsplit(".", 1)[0])
            setattr(parent, name.rsplit(".", 1)[1], GPT2BlockAttention(cfg))
            count += 1
    return count
