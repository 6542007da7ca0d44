/** The slot holds a fingerprint (its high word always has this bit: 0 is an empty slot). */
const USED = 1;
/** The fingerprint is flagged (`flag`): a bit of the high word, never compared. */
const FLAGGED = 2;

/**
 * A compact set of 64-bit fingerprints of strings (8 bytes a slot), to find repeated order ids
 * among millions without keeping the ids: a repeated fingerprint names a candidate, which is then
 * checked against the real ids. It doubles when three slots in four are used.
 */
export class FingerprintSet {
  private high = new Uint32Array(1 << 16);
  private low = new Uint32Array(1 << 16);
  private count = 0;

  /** Adds a text; returns true when its fingerprint was already there. */
  add(text: string): boolean {
    const slot = this.slotOf(text, true);
    return slot < 0;
  }

  /** Flags the fingerprint of a text already added (shared by any text with the same fingerprint). */
  flag(text: string): void {
    const slot = ~this.slotOf(text, false);
    if (slot >= 0) this.high[slot]! |= FLAGGED;
  }

  /** Whether the fingerprint of a text was flagged. */
  flagged(text: string): boolean {
    const slot = ~this.slotOf(text, false);
    return slot >= 0 && (this.high[slot]! & FLAGGED) !== 0;
  }

  /**
   * The slot of a new fingerprint (added when `insert`), ~slot (negative) of one already there, 0 when absent
   * and not inserted.
   */
  private slotOf(text: string, insert: boolean): number {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    const high = (b & ~FLAGGED) | USED; // int32, as `stored & ~FLAGGED` is
    const low = a >>> 0;
    const mask = this.high.length - 1;
    for (let slot = low & mask; ; slot = (slot + 1) & mask) {
      const stored = this.high[slot]!;
      if (stored === 0) {
        if (!insert) return 0;
        this.high[slot] = high;
        this.low[slot] = low;
        if (++this.count * 4 > this.high.length * 3) this.grow();
        return slot;
      }
      if ((stored & ~FLAGGED) === high && this.low[slot] === low) return ~slot;
    }
  }

  private grow(): void {
    const { high, low } = this;
    this.high = new Uint32Array(high.length * 2);
    this.low = new Uint32Array(low.length * 2);
    const mask = this.high.length - 1;
    for (let i = 0; i < high.length; i++) {
      if (high[i] === 0) continue;
      let slot = low[i]! & mask;
      while (this.high[slot] !== 0) slot = (slot + 1) & mask;
      this.high[slot] = high[i]!;
      this.low[slot] = low[i]!;
    }
  }
}
