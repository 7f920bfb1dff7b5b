// The 32-bit Mersenne Twister (Matsumoto & Nishimura 1998), in the form PyTorch's CPU generator uses
// (ATen's `at::mt19937`): seeded from the low 32 bits of a seed with the 1812433253 initialisation, the whole
// 624-word state regenerated ("twisted") when it runs out, then tempered. Its output sequence is the standard
// MT19937 sequence (the same as C++ `std::mt19937`, NumPy's `RandomState` core and Python's `random` core).

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

export class MT19937 {
  private readonly state = new Uint32Array(N);
  /** Index of the next state word to temper; N means "twist before the next output". */
  private index = N;

  /** `seed32` is used modulo 2^32 (callers pass the low 32 bits of a 64-bit seed). */
  constructor(seed32: number) {
    this.seed(seed32);
  }

  /** Re-initialises the state from a 32-bit seed (the standard `init_genrand`). */
  seed(seed32: number): void {
    const s = this.state;
    s[0] = seed32 >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = s[i - 1] ^ (s[i - 1] >>> 30);
      s[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = N;
  }

  /** The next 32-bit output, as an unsigned integer in [0, 2^32). */
  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.state[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** A copy with the same state: both produce the same sequence from here on. */
  clone(): MT19937 {
    const copy = new MT19937(0);
    copy.state.set(this.state);
    copy.index = this.index;
    return copy;
  }

  private twist(): void {
    // Word i becomes s[i+M] ^ twist(upper bit of s[i], lower bits of s[i+1]), indices mod N, in place and in
    // order of i (so words past i+M < N are still old, words before it already new), split into three loops
    // to avoid the modulo.
    const s = this.state;
    let i = 0;
    for (; i < N - M; i++) {
      const y = (s[i] & UPPER_MASK) | (s[i + 1] & LOWER_MASK);
      s[i] = s[i + M] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    for (; i < N - 1; i++) {
      const y = (s[i] & UPPER_MASK) | (s[i + 1] & LOWER_MASK);
      s[i] = s[i + M - N] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    }
    const y = (s[N - 1] & UPPER_MASK) | (s[0] & LOWER_MASK);
    s[N - 1] = s[M - 1] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
    this.index = 0;
  }
}
