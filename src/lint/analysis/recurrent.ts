// Recurrent layers' layouts: what nn.LSTM / nn.GRU / nn.RNN and Keras' LSTM / GRU / SimpleRNN return, with the axis
// roles their construction states (torch's `batch_first`, Keras' `return_sequences`, `return_state`, `time_major`),
// and what `pad_packed_sequence` returns. Pure: the caller reads the constructor's arguments (ops.ts).
import { UNKNOWN, tensor, type AValue, type AxisInfo, type RecurrentInfo } from './values';

const BATCH: AxisInfo = { label: 'batch' };
const SEQ: AxisInfo = { label: 'seq' };
const FEAT: AxisInfo = { label: 'feat' };

/**
 * A sequence of hidden states: (B, T, H) batch first, (T, B, H) sequence first; with `batchFirst` not known only the
 * features are known to be last.
 */
export function sequenceOutput(batchFirst: boolean | undefined): AValue {
  const axes: AxisInfo[] = batchFirst === undefined ? [{}, {}, FEAT] : batchFirst ? [BATCH, SEQ, FEAT] : [SEQ, BATCH, FEAT];
  return tensor({ ndim: 3, axes, featLast: true });
}

/**
 * What calling a recurrent layer on `input` returns. torch: `(output, h_n)` (an LSTM `(output, (h_n, c_n))`),
 * output (T, B, H) or (B, T, H) with `batch_first=True`, and (T, H) for an unbatched (T, F) input; h_n and c_n are
 * (layers * directions, B, H) whatever `batch_first` says. An input that is not a tensor (a PackedSequence) gives
 * an output of no known layout. Keras (inputs are (B, T, F), or (T, B, F) with `time_major=True`): (B, T, H) with
 * `return_sequences=True`, else the last step (B, H); with `return_state=True` a list of the output and the
 * states, each (B, H).
 */
export function recurrentOutputs(info: RecurrentInfo, input: AValue): AValue {
  if (info.framework === 'torch') {
    const rank = input.kind === 'tensor' || input.kind === 'unknown' ? (input.ndim ?? 3) : undefined;
    const output =
      rank === 3 ? sequenceOutput(info.batchFirst) : rank === 2 ? tensor({ ndim: 2, axes: [SEQ, FEAT], featLast: true }) : tensor({ featLast: true });
    const state = (): AValue =>
      rank === 2 ? tensor({ ndim: 2, axes: [{}, FEAT], featLast: true }) : rank === 3 ? tensor({ ndim: 3, axes: [{}, BATCH, FEAT], featLast: true }) : tensor();
    return { kind: 'tuple', elements: [output, info.cellState ? { kind: 'tuple', elements: [state(), state()] } : state()] };
  }
  if (input.ndim !== undefined && input.ndim !== 3) return UNKNOWN;
  const output =
    info.sequences === true ? sequenceOutput(info.batchFirst) : info.sequences === false ? tensor({ ndim: 2, axes: [BATCH, FEAT], featLast: true }) : tensor();
  if (info.state === false) return output;
  if (info.state === undefined || info.bidirectional) return UNKNOWN;
  const state = tensor({ ndim: 2, axes: [BATCH, FEAT], featLast: true });
  return { kind: 'tuple', elements: [output, state, ...(info.cellState ? [state] : [])] };
}

/** `pad_packed_sequence(packed, batch_first=...)`: the padded (T, B, H) or (B, T, H) sequence and the lengths. */
export function padPackedOutputs(batchFirst: boolean | undefined): AValue {
  return { kind: 'tuple', elements: [sequenceOutput(batchFirst), tensor({ ndim: 1, axes: [BATCH] })] };
}
