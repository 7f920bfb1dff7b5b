// Every kind of ModelInfo the model families make, for the tests of their names and descriptions: each family
// with and without config.json / tokenizer.json, prefixed checkpoints, a bare attention layer in its layouts,
// seeded weights of several shapes.
import { createSeededModel, loadModel } from '../../../src/models';
import type { ModelInfo } from '../../../src/protocol/engine';
import { readTensors } from '../../../src/weights';
import { loadFixture } from '../helpers/fixtures';
import { fixtureTensors, withPrefix } from './helpers';
import { DECODER_FIXTURES, ENCODER_FIXTURES, modernFile, modernText } from './modern-fixtures';

export interface NamedInfo {
  what: string;
  info: ModelInfo;
}

export async function everyModelInfo(): Promise<NamedInfo[]> {
  const out: NamedInfo[] = [];
  for (const [seed, heads, dModel] of [
    [0, 4, 64],
    [7, 1, 8],
  ] as const) {
    out.push({ what: `seeded ${seed}/${heads}/${dModel}`, info: createSeededModel({ seed, heads, dModel }).info });
  }
  const tokenizerJson = modernText('llama', 'tokenizer.json');
  for (const file of ['gpt2_tiny', 'gpt2_hf_init', 'bert_tiny']) {
    const tensors = await fixtureTensors(`${file}.safetensors`);
    const configJson = JSON.stringify(loadFixture(file).hf_config_json);
    const prefix = file.startsWith('bert') ? 'bert.' : 'transformer.';
    const fileName = `${file}.safetensors`;
    out.push({ what: `${file} with config`, info: loadModel(tensors, { fileName, configJson }).info });
    out.push({ what: `${file} without config`, info: loadModel(tensors, { fileName }).info });
    out.push({ what: `${file} prefixed, tokenizer.json`, info: loadModel(withPrefix(tensors, prefix), { fileName, configJson, tokenizerJson }).info });
  }
  for (const family of [...DECODER_FIXTURES, ...ENCODER_FIXTURES]) {
    const tensors = await readTensors(modernFile(family, 'model.safetensors'), 'model.safetensors');
    const configJson = modernText(family, 'config.json');
    out.push({
      what: `${family} folder`,
      info: loadModel(tensors, { fileName: family, configJson, tokenizerJson: modernText(family, 'tokenizer.json') }).info,
    });
    out.push({ what: `${family} without tokenizer`, info: loadModel(tensors, { fileName: 'model.safetensors', configJson }).info });
  }
  for (const file of ['in_proj_weight.npy', 'mha_weights.npz', 'mha_state_dict.pt']) {
    const tensors = await fixtureTensors(file);
    out.push({ what: file, info: loadModel(tensors, { fileName: file }).info });
    out.push({ what: `${file}, 2 heads, seed 3`, info: loadModel(tensors, { fileName: file, heads: 2, seed: 3 }).info });
  }
  return out;
}
