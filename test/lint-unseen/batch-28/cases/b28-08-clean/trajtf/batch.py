from .functional import no_peek_mask


class TrackBatch(object):
    """Holds a batch of data with its masks during training."""

    def __init__(self, obs, fut=None, pad=0):
        self.obs = obs
        self.obs_mask = (obs != pad).unsqueeze(-2)
        if fut is not None:
            self.fut = fut[:, :-1]
            self.fut_y = fut[:, 1:]
            self.fut_mask = self.target_mask(self.fut, pad)
            self.n_points = (self.fut_y != pad).data.sum().item()

    @staticmethod
    def target_mask(seq, pad):
        """Create a mask to hide padding and future words."""
        m = (seq != pad).unsqueeze(-2)
        m = m & no_peek_mask(seq.size(-1)).type_as(m.data)
        return m
