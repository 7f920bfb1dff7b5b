import math

ATTENTION_HEADS = 4
DROPOUT = 0.2
NEG_INF = -math.inf
