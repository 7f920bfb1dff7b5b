import numpy as np
from numpy import ndarray


class Softmax:
    def __init__(self, axis: int = -1):
        self.axis = axis
        self._mask_cache = None

    def forward(self, x: ndarray, causal_mask: ndarray = None) -> ndarray:
        if causal_mask is not None:
            if x.shape != causal_mask.shape:
                raise ValueError("Input and mask must have the same shape.")
            self._mask_cache = causal_mask
            x = np.where(causal_mask, x, -1e9)
        shifted = x - np.max(x, axis=self.axis, keepdims=True)
        e = np.exp(shifted)
        return e / np.sum(e, axis=self.axis, keepdims=True)

    def __call__(self, x: ndarray, causal_mask: ndarray = None) -> ndarray:
        return self.forward(x, causal_mask)
