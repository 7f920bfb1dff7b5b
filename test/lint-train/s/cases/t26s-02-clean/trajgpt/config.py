from dataclasses import dataclass


@dataclass
class GPTConfig:
    vocab_size: int
    block_size: int
    observation_dim: int
    action_dim: int
    transition_dim: int
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128
    attn_pdrop: float = 0.1
    resid_pdrop: float = 0.1


def make_config(obs_dim, act_dim, seq_len=10, n_bins=100, n_head=4, embd_per_head=32):
    # one transition = observation dims + action dims + reward + value, each discretised to one token
    transition_dim = obs_dim + act_dim + 2
    return GPTConfig(
        vocab_size=n_bins,
        block_size=seq_len * transition_dim - 1,
        observation_dim=obs_dim,
        action_dim=act_dim,
        transition_dim=transition_dim,
        n_head=n_head,
        n_embd=embd_per_head * n_head,
    )
