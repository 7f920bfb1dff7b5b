// parseFromWebview: every message from the webview is untrusted input. Good messages come back as typed
// values (unknown fields dropped); anything else is refused with an Error saying what was wrong, and
// nothing makes the validator throw.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseFromWebview } from '../../../src/protocol/webview';

const refused = (v: unknown, pattern: RegExp) => {
  const r = parseFromWebview(v);
  assert.ok(r instanceof Error, `accepted ${JSON.stringify(v)}`);
  assert.match(r.message, /^invalid message from the panel: /);
  assert.match(r.message, pattern);
};

const trace = (options: unknown) => ({ type: 'request', messageId: 1, request: { kind: 'trace', layer: 0, head: 0, options } });

describe('parseFromWebview', () => {
  it('accepts each well-formed message and drops unknown fields', () => {
    assert.deepEqual(parseFromWebview({ type: 'ready', extra: 1 }), { type: 'ready' });
    assert.deepEqual(parseFromWebview({ type: 'cancel', messageId: 4 }), { type: 'cancel', messageId: 4 });
    assert.deepEqual(parseFromWebview({ type: 'revealToken', index: 3 }), { type: 'revealToken', index: 3 });
    assert.deepEqual(parseFromWebview({ type: 'viewState', mode: 'debugger', focus: { layer: 1, head: 2, x: 3 } }), {
      type: 'viewState',
      mode: 'debugger',
      focus: { layer: 1, head: 2 },
    });
    assert.deepEqual(parseFromWebview({ type: 'export', format: 'csv', suggestedName: 'a.csv', content: 'x,y' }), {
      type: 'export',
      format: 'csv',
      suggestedName: 'a.csv',
      content: 'x,y',
    });
    assert.deepEqual(parseFromWebview({ type: 'request', messageId: 7, request: { kind: 'attention', layer: 0, head: 3, evil: true } }), {
      type: 'request',
      messageId: 7,
      request: { kind: 'attention', layer: 0, head: 3 },
    });
    const opts = {
      scale: { kind: 'custom', value: 0.5 },
      temperature: 2,
      mask: [
        { kind: 'causal', align: 'bottom-right' },
        { kind: 'padding', padLast: 2, builtAs: 'true-means-keep', passedTo: 'sdpa' },
      ],
      softmaxDim: -2,
      fullyMaskedRows: 'zero',
      causalIntent: 'top-left',
    };
    assert.deepEqual((parseFromWebview(trace(opts)) as { request: { options: unknown } }).request.options, opts);
  });

  it('refuses what is not a message', () => {
    for (const v of [null, undefined, 42, 'ready', [], [{ type: 'ready' }], () => 1]) refused(v, /message is not an object/);
    refused({}, /type must be one of/);
    refused({ type: 'eval' }, /type must be one of/);
    refused({ type: 'constructor' }, /type must be one of/);
    refused({ type: '__proto__' }, /type must be one of/);
    refused(JSON.parse('{"__proto__": {"type": "ready"}}'), /type must be one of/);
  });

  it('refuses bad numbers: negative, fractional, NaN, huge, strings', () => {
    refused({ type: 'revealToken', index: -1 }, /index is not an integer/);
    refused({ type: 'revealToken', index: 1.5 }, /index is not an integer/);
    refused({ type: 'revealToken', index: NaN }, /index is not an integer/);
    refused({ type: 'revealToken', index: '3' }, /index is not an integer/);
    refused({ type: 'revealToken', index: 2 ** 40 }, /index is not an integer/);
    refused({ type: 'cancel', messageId: Infinity }, /messageId is not an integer/);
    refused({ type: 'request', messageId: 1, request: { kind: 'attention', layer: 5000, head: 0 } }, /layer is not an integer/);
    refused({ type: 'viewState', mode: 'debugger', focus: { layer: 0, head: -2 } }, /head is not an integer/);
  });

  it('accepts head requests for rows and downsampled views of a long run, and refuses bad ones', () => {
    const head = (extra: object) => ({ type: 'request', messageId: 2, request: { kind: 'attention', layer: 1, head: 0, ...extra } });
    assert.deepEqual(parseFromWebview(head({ rowStart: 10, rowEnd: 20, downsample: 1024 })), {
      type: 'request',
      messageId: 2,
      request: { kind: 'attention', layer: 1, head: 0, rowStart: 10, rowEnd: 20, downsample: 1024 },
    });
    assert.deepEqual((parseFromWebview(head({ downsample: 1 })) as { request: unknown }).request, { kind: 'attention', layer: 1, head: 0, downsample: 1 });
    assert.deepEqual((parseFromWebview(head({ rowEnd: 5 })) as { request: unknown }).request, { kind: 'attention', layer: 1, head: 0, rowEnd: 5 });
    refused(head({ rowStart: 5, rowEnd: 5 }), /request.rowStart must be below request.rowEnd/);
    refused(head({ rowStart: -1 }), /request.rowStart is not an integer/);
    refused(head({ rowEnd: 0 }), /request.rowEnd is not an integer in \[1, /);
    refused(head({ rowEnd: 2 ** 30 }), /request.rowEnd is not an integer/);
    refused(head({ downsample: 0 }), /request.downsample is not an integer in \[1, 4096\]/);
    refused(head({ downsample: 4097 }), /request.downsample is not an integer/);
    refused(head({ downsample: 1.5 }), /request.downsample is not an integer/);
    refused(head({ downsample: '8' }), /request.downsample is not an integer/);
  });

  it('refuses export names that are paths, and unknown formats', () => {
    for (const name of ['../evil.csv', 'a/b.csv', 'a\\b.csv', '..', '.', '/etc/passwd', 'C:\\x.png'])
      refused({ type: 'export', format: 'csv', suggestedName: name, content: '' }, /plain file name/);
    refused({ type: 'export', format: 'exe', suggestedName: 'a', content: '' }, /format must be one of/);
    refused({ type: 'export', format: 'png', suggestedName: 'x'.repeat(201), content: '' }, /suggestedName is not a string of at most 200/);
    refused({ type: 'export', format: 'png', suggestedName: 'a.png', content: 42 }, /content is not a string/);
  });

  it('refuses debugger switches the debugger does not offer', () => {
    refused(trace({ scale: { kind: 'custom', value: Infinity } }), /scale.value is not a finite number/);
    refused(trace({ scale: { kind: 'sqrt' } }), /scale.kind must be one of/);
    refused(trace({ temperature: 0 }), /temperature must be positive/);
    refused(trace({ temperature: -1 }), /temperature must be positive/);
    refused(trace({ softmaxDim: 0 }), /softmaxDim must be one of -1, -2/);
    refused(trace({ mask: { kind: 'explicit', mask: { data: [1], shape: [1] } } }), /mask.kind must be one of none, causal, padding/);
    refused(trace({ mask: { kind: 'causal', align: 'middle' } }), /mask.align/);
    refused(trace({ mask: { kind: 'padding', padLast: -1, builtAs: 'true-means-pad', passedTo: 'sdpa' } }), /mask.padLast/);
    refused(trace({ mask: Array.from({ length: 5 }, () => ({ kind: 'none' })) }), /too many masks/);
    refused(trace({ fullyMaskedRows: 'inf' }), /fullyMaskedRows/);
    refused(trace(null), /options is not an object/);
    refused({ type: 'request', messageId: 1, request: { kind: 'run', layer: 0, head: 0 } }, /request.kind must be one of attention, trace/);
  });

  it('never throws, whatever arrives', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true, withNullPrototype: true }), (v) => {
        const r = parseFromWebview(v);
        return r instanceof Error || typeof r.type === 'string';
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            type: fc.constantFrom('request', 'export', 'viewState', 'revealToken', 'cancel'),
            messageId: fc.anything(),
            request: fc.anything(),
            format: fc.anything(),
            suggestedName: fc.anything(),
            content: fc.anything(),
            index: fc.anything(),
            mode: fc.anything(),
            focus: fc.anything(),
          },
          { requiredKeys: ['type'] },
        ),
        (v) => {
          const r = parseFromWebview(v);
          return r instanceof Error || r.type === v.type;
        },
      ),
      { numRuns: 1000 },
    );
  });
});
