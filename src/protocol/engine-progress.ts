// What the engine says it is doing while a model loads or runs (the progress notification's text), as English
// templates with vscode.l10n's `{0}` placeholders under the l10n comment `progress` (src/protocol/message.ts).
// The session, the models and the snapshot reader report them as parts; they cross the worker channel as parts
// beside their English text (src/protocol/rpc.ts, ProgressEnvelope) and the host renders them in the display
// language (src/host/progress.ts). Arguments are names and numbers; a model's name is its own parts (`model`).
import { defineTemplates } from './message';

export const ENGINE_PROGRESS = defineTemplates(
  {
    running: 'running {0} on {1} tokens',
    gpt2Block: 'GPT-2 block {0} of {1}',
    bertLayer: 'BERT layer {0} of {1}',
    decoderLayer: '{0} layer {1} of {2}',
    attentionComputed: 'attention computed',
    summarising: 'summarising layer {0} head {1}',
    reading: 'reading {0}',
    readingShard: 'reading {0} ({1} of {2})',
  },
  'progress',
);
