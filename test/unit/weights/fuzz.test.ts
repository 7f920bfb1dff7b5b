// Property tests with fast-check: random bytes, and mutations (bit flips, truncation, splices, insertions,
// deletions, length-field edits) of real fixture files of every format, plus mutations *inside* zip members
// (re-zipped so the CRC passes) to reach the unpickler and the .npy parser. The property: the loader
// returns well-formed float32 tensors (data length == product of shape) or throws an Error whose message
// starts with the file name; it never crashes otherwise, hangs or allocates without bound.
//
// FUZZ_RUNS sets the runs per property (default 400; e.g. FUZZ_RUNS=20000 for a long local run).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { unzipSync, zipSync } from 'fflate';
import { readTensorsSync, type LoaderOptions } from '../../../src/weights';
import { loadFixture, loadFixtureBytes } from '../helpers/fixtures';
import { centralDirectoryOffsets } from './builders';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
// Small limits keep each input cheap; the limits themselves are what the unit tests check.
const OPTIONS: LoaderOptions = { maxTotalElements: 4_000_000, maxInflatedBytes: 64_000_000, maxPickleStack: 100_000 };
const stats = { inputs: 0, loaded: 0, refused: 0, slowestMs: 0 };

/**
 * The same bytes, held three ways a caller may hold them: a plain Uint8Array, a Node Buffer at an odd offset
 * of a larger allocation (what fs.readFile and Buffer.from give; Buffer.slice is a view), and a Uint8Array
 * view at an unaligned offset of a larger ArrayBuffer.
 */
export function heldThreeWays(bytes: Uint8Array): { how: string; bytes: Uint8Array }[] {
  const buffer = Buffer.alloc(bytes.length + 3).subarray(3);
  buffer.set(bytes);
  const view = new Uint8Array(new ArrayBuffer(bytes.length + 5), 1, bytes.length);
  view.set(bytes);
  return [
    { how: 'Uint8Array', bytes: bytes.slice() },
    { how: 'Buffer at offset 3', bytes: buffer },
    { how: 'Uint8Array view at offset 1', bytes: view },
  ];
}

type Outcome = { error: string } | { tensors: [string, number[], Uint8Array][] };

function load(bytes: Uint8Array, fileName: string): Outcome {
  try {
    const tensors = readTensorsSync(bytes, fileName, OPTIONS).tensors;
    return {
      tensors: [...tensors].map(([name, t]) => {
        assert.ok(t.data instanceof Float32Array, name);
        assert.ok(
          t.shape.every((d) => Number.isSafeInteger(d) && d >= 0),
          `${name} shape ${t.shape}`,
        );
        assert.equal(
          t.data.length,
          t.shape.reduce((a, b) => a * b, 1),
          `${name}: data length vs shape [${t.shape}]`,
        );
        return [name, t.shape, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength).slice()];
      }),
    };
  } catch (e) {
    if (e instanceof assert.AssertionError) throw e;
    assert.ok(e instanceof Error, `threw a non-Error: ${String(e)}`);
    assert.ok(e.message.startsWith(`${fileName}: `), `message does not name the file: ${e.message}`);
    assert.ok(!/undefined|\[object /.test(e.message), `sloppy message: ${e.message}`);
    return { error: e.message };
  }
}

/**
 * The property: well-formed tensors, or an Error naming the file; the same outcome whichever way the bytes
 * are held (Buffer, unaligned view), and the caller's bytes never changed.
 */
function check(bytes: Uint8Array, fileName: string): void {
  stats.inputs++;
  const started = performance.now();
  const outcomes = heldThreeWays(bytes).map(({ how, bytes: held }) => {
    const outcome = load(held, fileName);
    assert.ok(Buffer.from(held.buffer, held.byteOffset, held.byteLength).equals(bytes), `${fileName} held as ${how}: the loader changed the caller's bytes`);
    return { how, outcome };
  });
  stats.slowestMs = Math.max(stats.slowestMs, (performance.now() - started) / 3);
  const [first, ...others] = outcomes;
  for (const o of others) assert.deepStrictEqual(o.outcome, first.outcome, `${fileName}: held as ${o.how} it reads differently than as ${first.how}`);
  if ('error' in first.outcome) stats.refused++;
  else stats.loaded++;
}

type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'splice'; from: number; to: number; length: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'field'; which: number; value: number; width: 1 | 2 | 4 | 8 };

const INTERESTING = [0, 1, 2, 7, 8, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('splice' as const), from: fc.nat(), to: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({
    kind: fc.constant('field' as const),
    which: fc.nat(),
    value: fc.oneof(fc.constantFrom(...INTERESTING), fc.nat()),
    width: fc.constantFrom(1 as const, 2 as const, 4 as const, 8 as const),
  }),
);

/** Applies mutations; `fields` are offsets of length/offset fields of this format (for 'field' edits). */
function mutate(original: Uint8Array, mutations: readonly Mutation[], fields: readonly number[]): Uint8Array {
  let b = original.slice();
  for (const m of mutations) {
    if (b.length === 0) break;
    switch (m.kind) {
      case 'flip':
        b[m.at % b.length] ^= 1 << m.bit;
        break;
      case 'truncate':
        b = b.slice(0, m.at % b.length);
        break;
      case 'splice': {
        const from = m.from % b.length;
        b.copyWithin(m.to % b.length, from, Math.min(b.length, from + m.length));
        break;
      }
      case 'insert': {
        const at = m.at % (b.length + 1);
        const out = new Uint8Array(b.length + m.bytes.length);
        out.set(b.subarray(0, at));
        out.set(m.bytes, at);
        out.set(b.subarray(at), at + m.bytes.length);
        b = out;
        break;
      }
      case 'delete': {
        const at = m.at % b.length;
        const out = new Uint8Array(b.length - Math.min(m.length, b.length - at));
        out.set(b.subarray(0, at));
        out.set(b.subarray(at + m.length), at);
        b = out;
        break;
      }
      case 'field': {
        if (fields.length === 0) break;
        const at = fields[m.which % fields.length];
        if (at + m.width > b.length) break;
        const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
        if (m.width === 1) view.setUint8(at, m.value & 0xff);
        else if (m.width === 2) view.setUint16(at, m.value & 0xffff, true);
        else if (m.width === 4) view.setUint32(at, m.value >>> 0, true);
        else view.setBigUint64(at, BigInt(m.value) * BigInt(m.value & 0xff), true); // includes absurd u64s
        break;
      }
    }
  }
  return b;
}

/** Offsets of the length/offset fields of a file, by format. */
function lengthFields(name: string, bytes: Uint8Array): number[] {
  if (name.endsWith('.safetensors')) return [0, 4];
  if (name.endsWith('.npy')) return [8];
  if (name.endsWith('.json')) return [];
  // zip: every central-directory entry's crc, sizes, name/extra lengths and header offset; the end record.
  const out: number[] = [];
  for (const at of centralDirectoryOffsets(bytes)) out.push(at + 16, at + 20, at + 24, at + 28, at + 30, at + 42);
  const eocd = bytes.length - 22;
  out.push(eocd + 8, eocd + 10, eocd + 12, eocd + 16, eocd + 20);
  for (let p = 0; p + 4 <= bytes.length; p++) {
    if (bytes[p] === 0x50 && bytes[p + 1] === 0x4b && bytes[p + 2] === 3 && bytes[p + 3] === 4) out.push(p + 18, p + 22, p + 26, p + 28);
  }
  return out;
}

const FIXTURES = [
  'mha_state_dict.pt',
  'mha_weights.npz',
  'mha_weights_compressed.npz',
  'in_proj_weight.npy',
  'in_proj_weight_f64_fortran.npy',
  'gpt2_tiny.safetensors',
  'bert_tiny.safetensors',
];

function jsonFixture(): Uint8Array {
  const weights = loadFixture('mha').cases[0].weights;
  return new TextEncoder().encode(JSON.stringify({ ...weights, __metadata__: { a: 'b' } }));
}

describe('weights: fuzzing (fast-check)', function () {
  this.timeout(600_000);

  after(() => {
    // Reported so a run says how much it tried.
    console.log(
      `      weights fuzz: ${stats.inputs} inputs (${RUNS} runs per property): ${stats.loaded} loaded, ${stats.refused} refused with a named Error; slowest input ${stats.slowestMs.toFixed(1)} ms`,
    );
  });

  const names = fc.constantFrom('w.safetensors', 'w.npy', 'w.npz', 'w.pt', 'w.bin', 'w.json', 'w.dat');

  it('random bytes, under every file name', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), names, (bytes, name) => check(bytes, name)),
      { numRuns: RUNS },
    );
  });

  it('random bytes behind each format’s magic number', () => {
    const magics = [
      [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], // .npy
      [0x50, 0x4b, 0x03, 0x04], // zip
      [0x50, 0x4b, 0x05, 0x06], // empty zip end record
      [0x40, 0, 0, 0, 0, 0, 0, 0, 0x7b], // safetensors, header length 64
      [0x80, 0x02], // pickle
      [0x7b, 0x22], // JSON
    ];
    fc.assert(
      fc.property(fc.constantFrom(...magics), fc.uint8Array({ maxLength: 512 }), names, (magic, rest, name) => {
        const bytes = new Uint8Array(magic.length + rest.length);
        bytes.set(magic);
        bytes.set(rest, magic.length);
        check(bytes, name);
      }),
      { numRuns: RUNS },
    );
  });

  for (const file of [...FIXTURES, 'mha_weights.json']) {
    it(`mutations of ${file}`, () => {
      const original = file.endsWith('.json') ? jsonFixture() : loadFixtureBytes(file);
      const fields = lengthFields(file, original);
      check(original, file); // the unmutated file loads
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => check(mutate(original, ms, fields), file)),
        { numRuns: RUNS },
      );
    });
  }

  /** Mutates one member of a zip fixture and re-zips it with correct CRCs, so the member's parser is reached. */
  for (const [file, member] of [
    ['mha_state_dict.pt', 'mha_state_dict/data.pkl'],
    ['mha_weights.npz', 'out_proj.weight.npy'],
  ] as const) {
    it(`mutations inside ${file}: ${member} (re-zipped, CRCs valid)`, () => {
      const members = unzipSync(loadFixtureBytes(file));
      const original = members[member];
      assert.ok(original, member);
      const fields = member.endsWith('.npy') ? [8] : [];
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
          const rezipped = zipSync({ ...members, [member]: mutate(original, ms, fields) }, { level: 0 });
          check(rezipped, file);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
