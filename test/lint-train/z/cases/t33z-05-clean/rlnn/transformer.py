import haiku as hk

from rlnn.attention import CAUSAL, Attention


class AttentionBlock(hk.Module):
  def __init__(self, attn_config=None, name='attn_block'):
    super().__init__(name=name)
    self.attn_config = attn_config or {}

  def __call__(self, x, kv=None, mask=None, data_mask=None, query_mask=None,
               kv_mask=None, training=False):
    x_ln = hk.LayerNorm(-1, True, True)(x)
    if kv is not None:
      kv = hk.LayerNorm(-1, True, True, name='kv_ln')(kv)
    y = Attention(**self.attn_config)(x_ln, kv, mask=mask, data_mask=data_mask,
                                      query_mask=query_mask, kv_mask=kv_mask,
                                      training=training)
    return x + y


class AgentEncoder(hk.Module):
  """Self-attention over the agents of a team (data_mask: 1 = agent present)."""

  def __init__(self, n_blocks, attn_config=None, name='agent_encoder'):
    super().__init__(name=name)
    self.n_blocks = n_blocks
    self.attn_config = attn_config or {}

  def __call__(self, x, data_mask=None, training=False):
    for i in range(self.n_blocks):
      x = AttentionBlock(self.attn_config, name=f'block{i}')(x, data_mask=data_mask, training=training)
    return x


class HistoryDecoder(hk.Module):
  """Causal attention over a trajectory's time steps."""

  def __init__(self, n_blocks, attn_config=None, name='history_decoder'):
    super().__init__(name=name)
    self.n_blocks = n_blocks
    self.attn_config = attn_config or {}

  def __call__(self, x, training=False):
    for i in range(self.n_blocks):
      x = AttentionBlock(self.attn_config, name=f'block{i}')(x, mask=CAUSAL, training=training)
    return x
