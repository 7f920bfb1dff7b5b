from typing import NamedTuple


class Settings(NamedTuple):
    d_model: int
    d_k: int
    d_v: int
    n_heads_kv: int
    n_rep_kv: int
    n_layers: int
    return_kv_cache: bool = False


SEVEN_B = Settings(d_model=4096, d_k=128, d_v=128, n_heads_kv=32, n_rep_kv=1, n_layers=32)
SEVENTY_B = Settings(d_model=8192, d_k=128, d_v=128, n_heads_kv=8, n_rep_kv=8, n_layers=80)
