from attn.multi_head import DotProductAttention, MultiHeadAttention
from attn.facet import FacetAttention

__all__ = ["DotProductAttention", "MultiHeadAttention", "FacetAttention"]
