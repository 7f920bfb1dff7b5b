# case: scale-cntkx-dk-without-sqrt
# modelled-on: delzac/cntkx https://github.com/delzac/cntkx/issues/10
# label: buggy
# pattern: a CNTK scaled_dot_product_attention computes dk from the query's static shape and divides the unpacked score matrix by dk, with no C.sqrt
# why: dividing by d_k instead of sqrt(d_k) shrinks the logits by a further sqrt(d_k), flattening the weights towards uniform; the maintainer fixed it in 0.1.33
import cntk as C
from cntk.layers import Dense


def scaled_dot_product_attention(query, key, value, obey_sequence_order=None, max_seq_len=None, output_as_seq=False, name=""):
    """query: sequence of d_k vectors; key/value: sequences over the memory axis."""
    dk = C.Constant(query.shape[-1], dtype="float32")
    unpacked_key = C.sequence.unpack(key, padding_value=0, no_mask_output=True)  # [#] [-3, d_k]
    unpacked_value = C.sequence.unpack(value, padding_value=0, no_mask_output=True)
    key_mask = C.sequence.unpack(key, padding_value=0).outputs[1]  # 1 = real step

    scores = C.times_transpose(query, unpacked_key)  # [#, *] [-3]
    scaled = scores / dk  # expect: ATT004
    # padded memory steps get -1e+30 (CNTK float32 graph)
    scaled = C.element_select(key_mask, scaled, C.constant(-1e+30))
    attention_weights = C.softmax(scaled, axis=-1)
    attended = C.times(attention_weights, unpacked_value)
    return attended if output_as_seq else C.sequence.unpack(attended, 0, True)


def MultiHeadAttention(num_heads, model_dim, name=""):
    head_dim = model_dim // num_heads
    q_proj = [Dense(head_dim) for _ in range(num_heads)]
    k_proj = [Dense(head_dim) for _ in range(num_heads)]
    v_proj = [Dense(head_dim) for _ in range(num_heads)]
    out_proj = Dense(model_dim)

    @C.Function
    def inner(query, key, value):
        heads = [scaled_dot_product_attention(q_proj[i](query), k_proj[i](key), v_proj[i](value), output_as_seq=True) for i in range(num_heads)]
        return out_proj(C.splice(*heads))

    return inner
