/**
 * A table of strings kept as UTF-8 bytes in one growing buffer with an offset array, for the shared
 * strings of an uploaded .xlsx: a million distinct strings as JavaScript strings cost ~40 bytes of
 * heap each plus the array, and are scanned by every garbage collection; here they cost their UTF-8
 * bytes and four bytes of offset, outside the heap. A string is decoded again when asked for.
 */
export class StringTable {
  private bytes = Buffer.allocUnsafe(64 * 1024)
  private ends = new Uint32Array(1024)
  private used = 0
  size = 0

  /** `maxBytes` bounds the table (a zip bomb of shared strings must not take the server's memory). */
  constructor(private readonly maxBytes = 512 * 1024 * 1024) {}

  add(text: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    const need = this.used + text.length * 3
    if (need > this.bytes.length) {
      if (need > this.maxBytes) throw new RangeError('string table too large')
      const grown = Buffer.allocUnsafe(Math.min(this.maxBytes, Math.max(need, this.bytes.length * 2)))
      this.bytes.copy(grown, 0, 0, this.used)
      this.bytes = grown
    }
    this.used += this.bytes.write(text, this.used, 'utf8')
    if (this.size === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2)
      grown.set(this.ends)
      this.ends = grown
    }
    this.ends[this.size++] = this.used
  }

  /** The string at `index`; undefined past the end. */
  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.size)) return undefined
    const start = index ? this.ends[index - 1] : 0
    return this.bytes.toString('utf8', start, this.ends[index])
  }

  /** Bytes held (buffer and offsets), for measurements. */
  get footprint(): number {
    return this.bytes.length + this.ends.byteLength
  }
}
