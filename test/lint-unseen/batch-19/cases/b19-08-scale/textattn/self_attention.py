from textattn.attention import BasicAttention


class SelfAttention(BasicAttention):
    def __init__(self, size, qk_hidden=None, out_hidden=None, num_heads=1, score_func="scaled_dot", drop_rate=0.0):
        super().__init__(size, size, size, qk_hidden, out_hidden, num_heads, score_func, drop_rate)

    def forward(self, x):
        return super().forward(x, x, x)


class SentenceEncoder:
    """Builds the encoder the classifier uses: 4 heads over 256-wide projections."""

    @staticmethod
    def build(embed_size):
        return SelfAttention(embed_size, qk_hidden=256, out_hidden=256, num_heads=4)
