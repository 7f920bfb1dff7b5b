import { strict as assert } from 'node:assert';
import { describeTensors, readTensors, readTensorsWithMetadata, WeightFileError, type LoaderOptions } from '../../../src/weights';
import { encodeNumbers, PickleWriter, rejectionOf, stateDictPickle, torchZip, zipFile, type TorchTensorSpec } from './builders';

const F = 'state.pt';

async function rejects(bytes: Uint8Array, pattern: RegExp, options?: LoaderOptions, file = F): Promise<void> {
  const e = await rejectionOf(readTensors(bytes, file, options));
  assert.ok(e instanceof WeightFileError, String(e));
  assert.ok(e.message.startsWith(`${file}: `), e.message);
  assert.match(e.message, pattern);
}

const range = (n: number, f = (i: number) => i) => Array.from({ length: n }, (_, i) => f(i));

function spec(name: string, over: Partial<TorchTensorSpec> = {}): TorchTensorSpec {
  return { name, storageKey: '0', storageClass: 'FloatStorage', storageNumel: 6, offset: 0, shape: [2, 3], strides: [3, 1], ...over };
}

/** A .pt with one float32 storage "0" holding 0..n-1 and the given tensors over it. */
function ptOver(tensors: TorchTensorSpec[], n = 6, options: Parameters<typeof torchZip>[2] = {}): Uint8Array {
  return torchZip(stateDictPickle(tensors), { '0': encodeNumbers(range(n), 'f32') }, options);
}

/** A pickle that is a state_dict {'w': <tensor over storage 0>} up to the point where `evil` is spliced in. */
function pickleWithValue(evil: (w: PickleWriter) => void): Uint8Array {
  const w = new PickleWriter().proto(2).emptyDict().string('x');
  evil(w);
  return w.setitem().stop().bytes();
}

describe('weights: PyTorch zip checkpoints', () => {
  it('reads contiguous tensors as views over the stored storage in the file', async () => {
    const bytes = ptOver([spec('w')]);
    const r = await readTensorsWithMetadata(bytes, F);
    assert.equal(r.format, 'torch');
    const w = r.tensors.get('w')!;
    assert.deepEqual(w.shape, [2, 3]);
    assert.deepEqual([...w.data], [0, 1, 2, 3, 4, 5]);
    assert.equal(w.data.buffer, bytes.buffer);
  });

  it('materialises non-contiguous tensors (transposes, storage offsets, stride 0) in row-major order', async () => {
    const bytes = ptOver(
      [
        spec('t', { shape: [3, 2], strides: [1, 3] }), // the transpose of [[0,1,2],[3,4,5]]
        spec('row1', { offset: 3, shape: [3], strides: [1] }),
        spec('col2', { offset: 2, shape: [2], strides: [3] }),
        spec('expanded', { offset: 4, shape: [2, 3], strides: [0, 1], storageNumel: 12 }),
        spec('every_other', { shape: [2, 2], strides: [6, 2], storageNumel: 12 }),
      ].map((s) => ({ ...s, storageNumel: 12 })),
      12,
    );
    const t = await readTensors(bytes, F);
    assert.deepEqual([...t.get('t')!.data], [0, 3, 1, 4, 2, 5]);
    assert.deepEqual(t.get('t')!.shape, [3, 2]);
    assert.deepEqual([...t.get('row1')!.data], [3, 4, 5]);
    assert.deepEqual([...t.get('col2')!.data], [2, 5]);
    assert.deepEqual([...t.get('expanded')!.data], [4, 5, 6, 4, 5, 6]);
    assert.deepEqual([...t.get('every_other')!.data], [0, 2, 6, 8]);
  });

  it('tensors sharing a storage (tied weights) share its memory', async () => {
    const bytes = ptOver([spec('wte'), spec('lm_head'), spec('tail', { offset: 4, shape: [2], strides: [1] })]);
    const t = await readTensors(bytes, F);
    assert.deepEqual([...t.get('lm_head')!.data], [0, 1, 2, 3, 4, 5]);
    assert.deepEqual([...t.get('tail')!.data], [4, 5]);
    assert.equal(t.get('wte')!.data.buffer, t.get('lm_head')!.data.buffer);
  });

  it('converts Half, BFloat16, Double, Long and Bool storages, in both byte orders', async () => {
    for (const byteorder of ['little', 'big']) {
      const little = byteorder === 'little';
      const storages = {
        h: encodeNumbers([0x3c00, 0xc100], 'u16', little),
        b: encodeNumbers([0x3f80, 0x4049], 'u16', little), // 1.0, 3.140625
        d: encodeNumbers([1 / 3, -2], 'f64', little),
        l: encodeNumbers([7, -9], 'i64', little),
        o: Uint8Array.from([1, 0]),
        f: encodeNumbers([1.5, -2.5], 'f32', little),
      };
      const classes = { h: 'HalfStorage', b: 'BFloat16Storage', d: 'DoubleStorage', l: 'LongStorage', o: 'BoolStorage', f: 'FloatStorage' };
      const pickle = stateDictPickle(
        Object.entries(classes).map(([key, storageClass]) => ({
          name: key,
          storageKey: key,
          storageClass,
          storageNumel: 2,
          offset: 0,
          shape: [2],
          strides: [1],
        })),
      );
      const r = await readTensorsWithMetadata(torchZip(pickle, storages, { byteorder }), F);
      const values = (k: string) => [...r.tensors.get(k)!.data];
      assert.deepEqual(values('h'), [1, -2.5], byteorder);
      assert.deepEqual(values('b'), [1, 3.140625], byteorder);
      assert.deepEqual(values('d'), [Math.fround(1 / 3), -2], byteorder);
      assert.deepEqual(values('l'), [7, -9], byteorder);
      assert.deepEqual(values('o'), [1, 0], byteorder);
      assert.deepEqual(values('f'), [1.5, -2.5], byteorder);
      assert.deepEqual(
        describeTensors(r.tensors, r.sourceDtypes).map((d) => d.dtype),
        ['float16', 'bfloat16', 'float64', 'int64', 'bool', 'float32'],
      );
    }
  });

  it('old archives without a byteorder record, deflated records, and any prefix directory', async () => {
    const t = await readTensors(ptOver([spec('w')], 6, { byteorder: null, level: 6, prefix: 'pytorch_model' }), 'pytorch_model.bin');
    assert.deepEqual([...t.get('w')!.data], [0, 1, 2, 3, 4, 5]);
  });

  it('an OrderedDict state_dict with _metadata set by BUILD, _rebuild_parameter, nested dicts and lists', async () => {
    const w = new PickleWriter().proto(2);
    const tensor = (offset: number) =>
      w
        .global('torch._utils', '_rebuild_tensor_v2')
        .mark()
        .mark()
        .string('storage')
        .global('torch', 'FloatStorage')
        .string('0')
        .string('cpu')
        .int(6)
        .tuple()
        .binpersid()
        .int(offset)
        .intTuple([2])
        .intTuple([1])
        .bool(false)
        .global('collections', 'OrderedDict')
        .emptyTuple()
        .reduce()
        .tuple()
        .reduce();
    // {'model': OrderedDict(w=Parameter(t0)) with _metadata, 'opt': {'step': 10, 'bufs': [t4]}, 'epoch': 3}
    w.emptyDict().mark();
    w.string('model').global('collections', 'OrderedDict').emptyTuple().reduce().string('w');
    w.global('torch._utils', '_rebuild_parameter').mark();
    tensor(0);
    w.bool(true).global('collections', 'OrderedDict').emptyTuple().reduce().tuple().reduce().setitem();
    w.emptyDict().string('_metadata').global('collections', 'OrderedDict').emptyTuple().reduce().setitem().build();
    w.string('opt').emptyDict().string('step').int(10).setitem().string('bufs').emptyList();
    tensor(4);
    w.append().setitem();
    w.string('epoch').int(3).setitems().stop();
    const t = await readTensors(torchZip(w.bytes(), { '0': encodeNumbers(range(6), 'f32') }), F);
    assert.deepEqual([...t.keys()], ['model.w', 'opt.bufs.0']);
    assert.deepEqual([...t.get('model.w')!.data], [0, 1]);
    assert.deepEqual([...t.get('opt.bufs.0')!.data], [4, 5]);
  });

  it('the real fixture pickle parses through memo references (BINGET) to the same storages', async () => {
    // Covered by fixtures.test.ts on mha_state_dict.pt; here: a bare tensor saved alone gets the file's name.
    const w = new PickleWriter()
      .proto(2)
      .global('torch._utils', '_rebuild_tensor_v2')
      .binput(0)
      .mark()
      .mark()
      .string('storage')
      .global('torch', 'FloatStorage')
      .string('0')
      .string('cpu')
      .int(6)
      .tuple()
      .binpersid()
      .int(0)
      .intTuple([6])
      .intTuple([1])
      .bool(false)
      .global('collections', 'OrderedDict')
      .emptyTuple()
      .reduce()
      .tuple()
      .reduce()
      .stop();
    const t = await readTensors(torchZip(w.bytes(), { '0': encodeNumbers(range(6), 'f32') }), 'checkpoints/bias.pt');
    assert.deepEqual([...t.keys()], ['bias']);
  });

  describe('refuses what a state_dict never needs, executing nothing', () => {
    it('os.system and builtins.eval globals', async () => {
      const osSystem = pickleWithValue((w) => w.global('os', 'system').string('touch /tmp/pwned').op(0x85).reduce());
      await rejects(torchZip(osSystem, {}), /^state\.pt: pickle asks for global os\.system, which is not allowed in a state_dict$/);
      const evalCall = pickleWithValue((w) => w.global('builtins', 'eval').string('1+1').op(0x85).reduce());
      await rejects(torchZip(evalCall, {}), /pickle asks for global builtins\.eval, which is not allowed/);
      const stackGlobal = pickleWithValue((w) => w.string('posix').string('system').op(0x93));
      await rejects(torchZip(stackGlobal, {}), /pickle asks for global posix\.system/);
    });

    it('__reduce__ of an unknown class, and objects built by NEWOBJ / INST / OBJ', async () => {
      await rejects(
        torchZip(
          pickleWithValue((w) => w.global('mymodel', 'Net').emptyTuple().reduce()),
          {},
        ),
        /pickle asks for global mymodel\.Net/,
      );
      await rejects(
        torchZip(
          pickleWithValue((w) => w.op(0x81)),
          {},
        ),
        /pickle: opcode NEWOBJ \(0x81\) is not allowed in a state_dict/,
      );
      await rejects(
        torchZip(
          pickleWithValue((w) => w.op(0x69)),
          {},
        ),
        /opcode INST \(0x69\) is not allowed/,
      );
      await rejects(
        torchZip(
          pickleWithValue((w) => w.mark().op(0x6f)),
          {},
        ),
        /opcode OBJ \(0x6f\) is not allowed/,
      );
      await rejects(
        torchZip(
          pickleWithValue((w) => w.op(0xff)),
          {},
        ),
        /pickle: unknown opcode 0xff/,
      );
    });

    it('BUILD on anything but a dict, and storage classes used as functions', async () => {
      await rejects(
        torchZip(
          pickleWithValue((w) => w.emptyList().emptyDict().build()),
          {},
        ),
        /pickle BUILD on list is not allowed in a state_dict/,
      );
      await rejects(
        torchZip(
          pickleWithValue((w) => w.global('torch', 'FloatStorage').emptyTuple().reduce()),
          {},
        ),
        /calls torch\.FloatStorage, which may only appear inside a storage persistent id/,
      );
      await rejects(
        torchZip(
          pickleWithValue((w) => w.string('os').binpersid()),
          {},
        ),
        /persistent id must be \('storage', type, key, location, numel\), got str/,
      );
    });

    it('storage references that do not match the archive', async () => {
      await rejects(
        torchZip(stateDictPickle([spec('w', { storageKey: '7' })]), { '0': new Uint8Array(24) }),
        /storage "7" is missing \(no record "archive\/data\/7"\)/,
      );
      await rejects(ptOver([spec('w', { storageNumel: 7 })]), /storage "0" should hold 7 float32 elements \(28 bytes\) but its record has 24 bytes/);
      await rejects(ptOver([spec('w'), spec('v', { storageClass: 'HalfStorage' })]), /storage "0" is described twice with different types or sizes/);
      await rejects(ptOver([spec('w', { storageClass: 'Float8_e4m3fnStorage' })]), /pickle asks for global torch\.Float8_e4m3fnStorage/);
    });

    it('views past the end of their storage, and bad sizes or strides', async () => {
      await rejects(ptOver([spec('w', { offset: 2 })]), /tensor "w": view \(offset 2, shape \[2, 3\], strides \[3, 1\]\) reaches element 8 of a storage of 6/);
      await rejects(ptOver([spec('w', { shape: [3, 3], strides: [3, 1] })]), /reaches element 9 of a storage of 6/);
      await rejects(ptOver([spec('w', { shape: [2, 3], strides: [3] })]), /size \[2, 3\] and stride \[3\] have different lengths/);
      await rejects(ptOver([spec('w', { shape: [2 ** 30, 2 ** 30], strides: [0, 0] })]), /\(1\.2e18 elements\) takes the file past the limit/);
      await rejects(ptOver([spec('w', { shape: [1000, 1000], strides: [0, 0] })]), /takes the file past the limit of 1,000 elements/, {
        maxTotalElements: 1000,
      });
    });

    it('deep nesting, self-reference, exponential sharing, stack and memo limits', async () => {
      const deepLists = new PickleWriter().proto(2);
      for (let i = 0; i < 500; i++) deepLists.emptyList();
      for (let i = 0; i < 499; i++) deepLists.append();
      await rejects(torchZip(deepLists.stop().bytes(), {}), /containers nest deeper than 100 levels/);

      const cycle = new PickleWriter().proto(2).emptyList().binput(0).binget(0).append().stop();
      await rejects(torchZip(cycle.bytes(), {}), /the pickled object contains itself/);

      // l0 = []; l_{i+1} = [l_i, l_i]: 60 levels is 2^60 paths through a few hundred bytes.
      const doubling = new PickleWriter().proto(2).emptyList().binput(0).op(0x30);
      for (let i = 0; i < 60; i++) doubling.emptyList().binget(0).append().binget(0).append().binput(0).op(0x30);
      await rejects(torchZip(doubling.binget(0).stop().bytes(), {}), /holds more than 10,000 values to walk \(option maxPickleStack\)/, {
        maxNestingDepth: 1000,
        maxPickleStack: 10_000,
      });

      const marks = new PickleWriter().proto(2);
      for (let i = 0; i < 2000; i++) marks.mark();
      await rejects(torchZip(marks.stop().bytes(), {}), /more than 1,000 nested MARKs \(option maxPickleStack\)/, { maxPickleStack: 1000 });
      const values = new PickleWriter().proto(2);
      for (let i = 0; i < 2000; i++) values.none();
      await rejects(torchZip(values.stop().bytes(), {}), /stack grows past 1,000 values/, { maxPickleStack: 1000 });
      const memo = new PickleWriter().proto(2).none();
      for (let i = 0; i < 300; i++) memo.op(0x72, i & 0xff, i >> 8, 0, 0); // LONG_BINPUT i
      await rejects(torchZip(memo.stop().bytes(), {}), /memo grows past 200 entries/, { maxPickleStack: 200 });
    });

    it('malformed pickles: truncation, underflow, missing memo, huge lengths', async () => {
      const full = stateDictPickle([spec('w')]);
      await rejects(torchZip(full.subarray(0, full.length - 1), { '0': new Uint8Array(24) }), /pickle: data ends without a STOP opcode/);
      await rejects(torchZip(new PickleWriter().proto(2).append().stop().bytes(), {}), /pickle: stack underflow/);
      await rejects(torchZip(new PickleWriter().proto(2).binget(5).stop().bytes(), {}), /memo entry 5 is read before it is written/);
      await rejects(
        torchZip(new PickleWriter().proto(2).op(0x58, 0xff, 0xff, 0xff, 0x7f).stop().bytes(), {}),
        /data ends early: needs 2,147,483,647 more bytes/,
      );
      await rejects(torchZip(new PickleWriter().proto(2).none().none().stop().bytes(), {}), /STOP with 2 values/);
      await rejects(torchZip(new PickleWriter().proto(9).stop().bytes(), {}), /unknown pickle protocol 9/);
    });
  });

  describe('archive-level problems', () => {
    it('a zip without data.pkl, a bad byteorder, a TorchScript archive', async () => {
      await rejects(
        zipFile({ 'a/weights.bin': new Uint8Array(4) }),
        /no <dir>\/data\.pkl record, so it is not a torch\.save checkpoint \(members: "a\/weights\.bin"\)/,
      );
      await rejects(ptOver([spec('w')], 6, { byteorder: 'middle' }), /byteorder record says "middle"; expected "little" or "big"/);
      const script = zipFile({
        'm/data.pkl': new PickleWriter().proto(2).global('__torch__', 'Net').emptyTuple().reduce().stop().bytes(),
        'm/code/__torch__.py': new Uint8Array(1),
      });
      await rejects(script, /global __torch__\.Net, which is not allowed in a state_dict\. This is a TorchScript archive/);
    });

    it('the legacy (pre-1.6) format is refused with a clear message', async () => {
      const legacy = Uint8Array.from([0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, 0x2e]);
      await rejects(legacy, /legacy torch\.save format \(before PyTorch 1\.6.*re-save it with a current PyTorch/, undefined, 'old.pt');
    });
  });
});
