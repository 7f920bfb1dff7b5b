// The panel's saved view state: whatever comes back from setState (an older panel, a corrupted store) is
// made valid, fits the run it is applied to, and its switches become trace options the host accepts.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseFromWebview } from '../../../src/protocol/webview';
import { restoreState } from '../../../src/host/panel/restore';
import { DEFAULT_SWITCHES, type DebuggerSwitches, defaultState, fitStateToRun, sanitizeState, sanitizeSwitches, traceOptionsOf } from '../../../webview/state';

const arbSwitches = fc.record<DebuggerSwitches>({
  scale: fc.constantFrom('inv-sqrt-dk', 'inv-dk', 'none', 'custom', 'model'),
  customScale: fc.double({ min: -100, max: 100, noNaN: true }).filter((x) => !Object.is(x, -0)),
  temperature: fc.double({ min: 0.01, max: 100, noNaN: true }),
  causal: fc.constantFrom('none', 'top-left', 'bottom-right'),
  padLast: fc.nat(64),
  padBuiltAs: fc.constantFrom('true-means-pad', 'true-means-keep'),
  padPassedTo: fc.constantFrom('sdpa', 'mha'),
  softmaxDim: fc.constantFrom(-1, -2),
  fullyMaskedRows: fc.constantFrom('nan', 'zero'),
  causalIntent: fc.constantFrom('auto', 'none', 'top-left', 'bottom-right'),
  rope: fc.boolean(),
  softcap: fc.boolean(),
  slidingWindow: fc.boolean(),
});

describe('webview state', () => {
  it('turns anything into a valid state', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const s = sanitizeState(v);
        return (
          s.version === 1 &&
          ['grid', 'debugger'].includes(s.mode) &&
          ['heads', 'heatmap', 'lines'].includes(s.view) &&
          [0, 1, 2, 3, 4].includes(s.step) &&
          s.switches.temperature > 0 &&
          Number.isFinite(s.switches.customScale) &&
          Number.isInteger(s.switches.padLast) &&
          s.switches.padLast >= 0
        );
      }),
      { numRuns: 400 },
    );
    assert.deepEqual(sanitizeState(null), defaultState());
    assert.deepEqual(sanitizeState({ mode: 'debugger', focus: { layer: -1, head: 2 }, step: 9, switches: { temperature: 0, softmaxDim: 3 } }).focus, undefined);
  });

  it('keeps a valid state as it is (round trip through setState)', () => {
    fc.assert(
      fc.property(arbSwitches, fc.constantFrom('grid', 'debugger'), fc.constantFrom(0, 1, 2, 3, 4), (switches, mode, step) => {
        const s = {
          ...defaultState(mode),
          focus: { layer: 1, head: 2 },
          step: step as 0,
          switches: { ...switches },
          cursor: { row: 3, col: 1 },
        };
        assert.deepEqual(sanitizeState(JSON.parse(JSON.stringify(s))), s);
      }),
    );
  });

  it('fits the state to a smaller run', () => {
    const s = {
      ...defaultState('grid'),
      focus: { layer: 3, head: 0 },
      view: 'heatmap' as const,
      cursor: { row: 20, col: 0 },
      switches: { ...DEFAULT_SWITCHES, padLast: 50 },
    };
    const f = fitStateToRun(s, 2, 4, 10);
    assert.equal(f.focus, undefined);
    assert.equal(f.view, 'heads');
    assert.equal(f.cursor, undefined);
    assert.equal(f.switches.padLast, 10);
    assert.equal(s.switches.padLast, 50, 'the input is not changed');
  });

  it('turns the switches into trace options that the host’s validator accepts unchanged', () => {
    fc.assert(
      fc.property(arbSwitches, fc.option(fc.integer({ min: 1, max: 64 })), (sw, window) => {
        const options = traceOptionsOf(sw, window);
        const msg = parseFromWebview({ type: 'request', messageId: 1, request: { kind: 'trace', layer: 0, head: 0, options } });
        assert.ok(!(msg instanceof Error), msg instanceof Error ? msg.message : '');
        assert.deepEqual((msg as { request: { options: unknown } }).request.options, options);
      }),
    );
  });

  it('builds the masks the switches describe', () => {
    const o = traceOptionsOf({
      ...DEFAULT_SWITCHES,
      causal: 'bottom-right',
      padLast: 2,
      padBuiltAs: 'true-means-keep',
      padPassedTo: 'sdpa',
      scale: 'custom',
      customScale: 0.5,
      causalIntent: 'top-left',
    });
    assert.deepEqual(o.mask, [
      { kind: 'causal', align: 'bottom-right' },
      { kind: 'padding', padLast: 2, builtAs: 'true-means-keep', passedTo: 'sdpa' },
    ]);
    assert.deepEqual(o.scale, { kind: 'custom', value: 0.5 });
    assert.equal(o.causalIntent, 'top-left');
    const plain = traceOptionsOf(DEFAULT_SWITCHES);
    assert.equal(plain.mask, undefined);
    assert.equal(plain.causalIntent, undefined);
    assert.deepEqual(sanitizeSwitches({ softmaxDim: -2, padLast: 2.5, temperature: -1 }), { ...DEFAULT_SWITCHES, softmaxDim: -2 });
  });

  it("adds the model steps: the layer's sliding window, RoPE and the soft-cap switched off", () => {
    const on = traceOptionsOf({ ...DEFAULT_SWITCHES, causal: 'top-left' }, 4);
    assert.deepEqual(on.mask, [
      { kind: 'causal', align: 'top-left' },
      { kind: 'sliding-window', size: 4 },
    ]);
    assert.equal(on.rope, undefined, "RoPE and the soft-cap are the model's unless switched off");
    assert.equal(on.softcap, undefined);
    const off = traceOptionsOf({ ...DEFAULT_SWITCHES, causal: 'top-left', rope: false, softcap: false, slidingWindow: false, scale: 'model' }, 4);
    assert.deepEqual(off.mask, [{ kind: 'causal', align: 'top-left' }]);
    assert.deepEqual(off.rope, { apply: false });
    assert.equal(off.softcap, null);
    assert.deepEqual(off.scale, { kind: 'model' });
    assert.equal(traceOptionsOf(DEFAULT_SWITCHES, null).mask, undefined);
  });

  it('gives the host’s serializer the mode and opened head (and nothing it cannot trust)', () => {
    const s = { ...defaultState('debugger'), focus: { layer: 2, head: 5 } };
    assert.deepEqual(restoreState(JSON.parse(JSON.stringify(s))), { mode: 'debugger', focus: { layer: 2, head: 5 } });
    assert.deepEqual(restoreState({ mode: 'evil', focus: { layer: '1', head: 2 } }), { mode: 'grid' });
    assert.deepEqual(restoreState(undefined), { mode: 'grid' });
    assert.deepEqual(restoreState({ mode: 'grid', focus: { layer: 1e9, head: 0 } }), { mode: 'grid' });
  });
});
