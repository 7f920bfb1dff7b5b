# case: b45-04-mask
# modelled-on: Zettelkasten/returnn-self-attention https://github.com/Zettelkasten/returnn-self-attention/commit/3e89622c18c36ccd555a1b0df0f8a7c40232aa3b
# label: correct
# class: fixed
# pattern: the same RETURNN (TensorFlow) network-dict self-attention after its author's fix: per-head q/k/v from one linear layer, keys and values accumulated over decoder steps with cum_concat, dot-product energies, a past-only mask from a 'compare' of query and key positions (kind 'greater_equal') feeding a 'switch' that writes -inf where the key lies in the future, and softmax_over_spatial over the key history with energy_factor = key_dim ** -0.5 and the layer's own time mask switched off when the explicit mask is used
# why: correct: softmax_over_spatial multiplies the energies by energy_factor before normalising, so the scores are scaled by 1/sqrt(d_k) of the per-head key width; the switch keeps the energy where query position >= key position (the past and the current step, aligned to the accumulated history) and puts -inf on the future, and the diagonal always survives, so no row is all -inf; the built-in time mask is disabled only when the explicit past mask replaces it (the fix's comment explains that both together would empty rows and give NaN gradients)
# looks-like: ATT002, ATT003, ATT007, ATT008
# source: https://github.com/Zettelkasten/returnn-self-attention https://github.com/Zettelkasten/returnn-self-attention/commit/3e89622c18c36ccd555a1b0df0f8a7c40232aa3b self_attention.py
import tensorflow as tf


def vanilla_self_attention(d, inp, out, inside_rec_layer=True, past_only=None, time_axis=None,
                           num_heads=8, key_dim=64, value_dim=64):
    """Like RETURNN's 'self_attention' layer, spelled out as separate layers in the network dict `d`."""
    if past_only is None:
        past_only = inside_rec_layer
    time_axis = time_axis or ('stag:extern_data:classes' if inside_rec_layer else 'stag:extern_data:data')

    def layer(suffix, **opts):
        d[out + suffix] = opts
        return out + suffix

    qkv = layer('_qkv', **{'class': 'split_dims', 'axis': 'F', 'dims': (num_heads, 2 * key_dim + value_dim),
                           'from': [layer('_qkv0', **{'class': 'linear', 'activation': None, 'with_bias': False,
                                                      'n_out': num_heads * (2 * key_dim + value_dim),
                                                      'from': [inp]})]})
    split = layer('_qkv_split', **{'class': 'split', 'axis': 'F', 'size_splits': (key_dim, key_dim, value_dim),
                                   'from': [qkv]})
    query = layer('_query', **{'class': 'copy', 'from': [split + '/0']})
    key = layer('_key', **{'class': 'copy', 'from': [split + '/1']})
    value = layer('_value', **{'class': 'copy', 'from': [split + '/2']})

    key_accum = layer('_key_accum', **{'class': 'cum_concat', 'from': [key]})
    value_accum = layer('_value_accum', **{'class': 'cum_concat', 'from': [value]})

    energy = layer('_energy', **{'class': 'dot', 'from': [query, key_accum], 'red1': 'static:-1',
                                 'red2': 'static:-1', 'var1': time_axis + '?', 'var2': 'stag:rec-history'})
    if past_only:
        if inside_rec_layer:
            query_pos = ':i'
        else:
            query_pos = layer('_query_indices', **{'class': 'range_in_axis', 'from': [inp], 'axis': time_axis,
                                                   'keepdims': False})
        key_pos = layer('_key_accum_indices', **{'class': 'range_in_axis', 'from': [key_accum],
                                                 'axis': 'stag:rec-history', 'keepdims': False})
        allowed = layer('_energy_mask', **{'class': 'compare', 'kind': 'greater_equal', 'from': [query_pos, key_pos]})
        energy = layer('_energy_masked', **{'class': 'switch', 'condition': allowed, 'true_from': energy,
                                            'false_from': float('-inf')})
    # the explicit past mask replaces the layer's own time mask (both together would leave rows empty)
    weights = layer('_weights', **{'class': 'softmax_over_spatial', 'from': [energy], 'axis': 'stag:rec-history',
                                   'energy_factor': key_dim ** -0.5, 'use_time_mask': not past_only})
    context = layer('_output', **{'class': 'dot', 'from': [weights, value_accum], 'red1': 'stag:rec-history',
                                  'red2': 'stag:rec-history', 'var1': time_axis + '?', 'var2': 'static:-1'})
    return layer('_att', **{'class': 'merge_dims', 'axes': 'static', 'from': [context]})


def decoder_network(num_layers=6):
    net = {'output': {'class': 'rec', 'from': [], 'unit': {}}}
    unit = net['output']['unit']
    x = 'prev:target_embed'
    for i in range(num_layers):
        x = vanilla_self_attention(unit, x, 'dec_%02i_self' % i)
    unit['output_prob'] = {'class': 'softmax', 'from': [x], 'target': 'classes', 'loss': 'ce'}
    return net
