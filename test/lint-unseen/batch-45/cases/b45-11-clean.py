# case: b45-11-clean
# modelled-on: Zettelkasten/returnn-self-attention https://github.com/Zettelkasten/returnn-self-attention/commit/242ff6b74415bab13124d0818791b232751179e3
# label: correct
# class: clean
# pattern: encoder-decoder (cross) attention written as RETURNN (TensorFlow) layer dicts: the query projection lives in the decoder's recurrent sub-network `d`, the key and value projections of the encoder output live in the base network `db` (computed once, outside the decoding loop, and read back as 'base:' layers), heads are split with split_dims and named; the energies are a dot over the per-head feature axis and softmax_over_spatial normalises over the encoder time axis with energy_factor = key_dim ** -0.5 and use_time_mask=True; the weights are dropped out and dotted with the values
# why: correct: energy_factor multiplies the energies by 1/sqrt(d_k) of the per-head key width before the softmax; use_time_mask makes softmax_over_spatial ignore the encoder frames beyond each sequence's length (RETURNN's padding mask, -inf before normalising), and every sequence has at least one frame; the softmax runs over the key (encoder) time axis, and the dot with the values reduces that same axis; keys computed once outside the loop are the same keys for every step, so nothing causal is involved
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/Zettelkasten/returnn-self-attention https://github.com/Zettelkasten/returnn-self-attention/commit/242ff6b74415bab13124d0818791b232751179e3 cross_attention.py


def encoder_decoder_attention(dec, base, query_src, memory_src, name, q_axis='stag:extern_data:classes',
                              k_axis='stag:extern_data:data', heads=8, d_key=64, d_value=64, drop=0.0):
    """Adds `name`_att to the decoder unit `dec`; the key/value layers go to the base network `base`."""
    assert memory_src.startswith('base:')
    memory_src = memory_src[len('base:'):]

    def proj(net, suffix, src, width):
        net[name + suffix + '_flat'] = {'class': 'linear', 'activation': None, 'with_bias': False,
                                        'from': [src], 'n_out': heads * width}
        net[name + suffix + '_split'] = {'class': 'split_dims', 'axis': 'F', 'dims': (heads, width),
                                         'from': [name + suffix + '_flat']}
        net[name + suffix] = {'class': 'name_axis', 'axis': 'static:-2', 'description': 'att-heads',
                              'from': [name + suffix + '_split']}

    proj(dec, '_q', query_src, d_key)       # [B,dec-T?,n,d_k]
    proj(base, '_k', memory_src, d_key)     # [B,enc-T,n,d_k], once per sequence
    proj(base, '_v', memory_src, d_value)   # [B,enc-T,n,d_v]

    dec[name + '_logits'] = {'class': 'dot', 'from': [name + '_q', 'base:' + name + '_k'],
                             'red1': 'static:-1', 'red2': 'static:-1', 'var1': q_axis + '?', 'var2': k_axis}
    dec[name + '_alpha'] = {'class': 'softmax_over_spatial', 'from': [name + '_logits'], 'axis': k_axis,
                            'energy_factor': d_key ** -0.5, 'use_time_mask': True}
    dec[name + '_alpha_drop'] = {'class': 'dropout', 'dropout_noise_shape': {'*': None}, 'dropout': drop,
                                 'from': [name + '_alpha']}
    dec[name + '_ctx_named'] = {'class': 'dot', 'from': [name + '_alpha_drop', 'base:' + name + '_v'],
                                'red1': k_axis, 'red2': k_axis, 'var1': q_axis + '?', 'var2': 'static:-1'}
    dec[name + '_ctx'] = {'class': 'name_axis', 'from': [name + '_ctx_named'], 'axis': 'stag:att-heads',
                          'description': None}
    dec[name + '_att'] = {'class': 'merge_dims', 'axes': 'static', 'from': [name + '_ctx']}  # [B,dec-T?,n*d_v]
    return name + '_att'


def translation_network(layers=6):
    net = {'encoder': {'class': 'copy', 'from': ['data']},
           'output': {'class': 'rec', 'from': [], 'target': 'classes', 'unit': {}}}
    unit = net['output']['unit']
    x = 'prev:target_embed'
    for i in range(layers):
        x = encoder_decoder_attention(unit, net, x, 'base:encoder', 'dec_%02i_cross' % i)
    unit['output_prob'] = {'class': 'softmax', 'from': [x], 'target': 'classes', 'loss': 'ce'}
    return net
