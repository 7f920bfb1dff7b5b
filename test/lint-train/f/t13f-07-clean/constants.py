# additive value written into disallowed attention positions
CAUSAL_MASK_FILL_VALUE = -1e9
