"""Flash-style tiled attention in Triton for any query length: q (B, H, Sq, D), k/v (B, H, Sk, D)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _fwd(
    Q, K, V, O,
    sqb, sqh, sqs, sqd,
    skb, skh, sks, skd,
    svb, svh, svs, svd,
    sob, soh, sos, sod,
    n_q, n_k, sm_scale,
    BQ: tl.constexpr, BK: tl.constexpr, BD: tl.constexpr, CAUSAL: tl.constexpr,
):
    b = tl.program_id(0)
    h = tl.program_id(1)
    blk = tl.program_id(2)
    rows = blk * BQ + tl.arange(0, BQ)
    cols_d = tl.arange(0, BD)
    q = tl.load(Q + b * sqb + h * sqh + rows[:, None] * sqs + cols_d[None, :] * sqd,
                mask=rows[:, None] < n_q, other=0.0).to(tl.float32)

    run_max = tl.full([BQ], float("-1e30"), dtype=tl.float32)
    run_sum = tl.zeros([BQ], dtype=tl.float32)
    acc = tl.zeros([BQ, BD], dtype=tl.float32)

    # query row r sits at absolute position (n_k - n_q) + r: the new tokens are the last n_q of the keys
    shift = n_k - n_q
    stop = n_k
    if CAUSAL:
        stop = tl.minimum(shift + (blk + 1) * BQ, n_k)

    for start in range(0, stop, BK):
        kcols = start + tl.arange(0, BK)
        in_k = kcols[:, None] < n_k
        kt = tl.load(K + b * skb + h * skh + kcols[:, None] * sks + cols_d[None, :] * skd, mask=in_k, other=0.0)
        s = tl.dot(q, tl.trans(kt.to(tl.float32))) * sm_scale
        ok = (rows[:, None] < n_q) & (kcols[None, :] < n_k)
        if CAUSAL:
            ok = ok & (rows[:, None] + shift >= kcols[None, :])
        s = tl.where(ok, s, float("-1e30"))

        new_max = tl.maximum(run_max, tl.max(s, axis=1))
        corr = tl.exp(run_max - new_max)
        p = tl.exp(s - new_max[:, None])
        run_sum = run_sum * corr + tl.sum(p, axis=1)
        vt = tl.load(V + b * svb + h * svh + kcols[:, None] * svs + cols_d[None, :] * svd, mask=in_k, other=0.0)
        acc = acc * corr[:, None] + tl.dot(p, vt.to(tl.float32))
        run_max = new_max

    acc = acc / run_sum[:, None]
    tl.store(O + b * sob + h * soh + rows[:, None] * sos + cols_d[None, :] * sod,
             acc.to(O.dtype.element_ty), mask=rows[:, None] < n_q)


def attention_forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, is_causal: bool = False) -> torch.Tensor:
    """With is_causal each query attends to keys at or before its absolute position (bottom-right aligned)."""
    if not (q.is_cuda and k.is_cuda and v.is_cuda):
        raise ValueError("attention_forward expects CUDA tensors")
    B, H, Sq, D = q.shape
    Sk = k.shape[2]
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    out = torch.empty_like(q)
    BQ = max(16, min(64, triton.next_power_of_2(Sq)))
    BK = max(16, min(64, triton.next_power_of_2(Sk)))
    BD = max(16, triton.next_power_of_2(D))
    _fwd[(B, H, triton.cdiv(Sq, BQ))](
        q, k, v, out,
        *q.stride(), *k.stride(), *v.stride(), *out.stride(),
        Sq, Sk, D ** -0.5,
        BQ=BQ, BK=BK, BD=BD, CAUSAL=is_causal,
        num_warps=4 if BQ * BK <= 4096 else 8, num_stages=2,
    )
    return out
