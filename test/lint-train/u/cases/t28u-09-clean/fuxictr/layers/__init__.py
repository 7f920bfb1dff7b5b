from .dot_product_attention import ScaledDotProductAttention

__all__ = ["ScaledDotProductAttention"]
