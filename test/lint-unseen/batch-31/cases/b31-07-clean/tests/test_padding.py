import jax.numpy as jnp
import numpy as np
from flax import nnx

from modeling import Config, ModernBert


def test_with_padding_mask():
  """A [2, 32] batch: row 0 has 32 real tokens, row 1 has 20 real tokens and 12 padding tokens."""
  cfg = Config(num_hidden_layers=3)
  model = ModernBert(cfg, rngs=nnx.Rngs(0))
  rng = np.random.RandomState(77)

  T = 32
  input_ids_BT = rng.randint(0, cfg.vocab_size, size=(2, T)).astype(np.int32)
  input_ids_BT[1, 20:] = cfg.pad_token_id

  padding_mask_BT = np.ones((2, T), dtype=bool)
  padding_mask_BT[1, 20:] = False

  hidden_BTD = np.array(model(jnp.array(input_ids_BT), padding_mask_BT=jnp.array(padding_mask_BT)))
  assert np.isfinite(hidden_BTD).all()
