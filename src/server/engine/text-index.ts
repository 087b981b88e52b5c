import { StringTable } from './string-table.js'

/**
 * A map from text to a whole number (0 to 2³²-1) kept outside the JavaScript heap: the texts in a
 * StringTable, an open-addressing hash table over them in typed arrays. An import remembers the
 * code of every row of its file (a code twice in the file fails the later row); a Map of a million
 * codes costs ~60 MB of heap (~100 MB resident) and is scanned by every collection, this ~30 MB.
 */
export class TextIndex {
  private readonly texts = new StringTable()
  private hashes = new Uint32Array(1024)
  private values = new Uint32Array(1024)
  /** Entry number + 1 by slot (0: free); a power of two, at most half full. */
  private slots = new Uint32Array(2048)

  get size(): number {
    return this.texts.size
  }

  get(text: string): number | undefined {
    const h = hash(text)
    const mask = this.slots.length - 1
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = this.slots[i]
      if (!s) return undefined
      if (this.hashes[s - 1] === h && this.texts.get(s - 1) === text) return this.values[s - 1]
    }
  }

  set(text: string, value: number): void {
    const h = hash(text)
    const mask = this.slots.length - 1
    let i = h & mask
    for (let s = this.slots[i]; s; i = (i + 1) & mask, s = this.slots[i]) {
      if (this.hashes[s - 1] === h && this.texts.get(s - 1) === text) {
        this.values[s - 1] = value
        return
      }
    }
    const entry = this.texts.size
    this.texts.add(text)
    if (entry === this.hashes.length) {
      this.hashes = grow(this.hashes)
      this.values = grow(this.values)
    }
    this.hashes[entry] = h
    this.values[entry] = value
    this.slots[i] = entry + 1
    if ((entry + 1) * 2 > this.slots.length) this.rehash()
  }

  private rehash(): void {
    const slots = new Uint32Array(this.slots.length * 2)
    const mask = slots.length - 1
    for (let e = 0; e < this.texts.size; e++) {
      let i = this.hashes[e] & mask
      while (slots[i]) i = (i + 1) & mask
      slots[i] = e + 1
    }
    this.slots = slots
  }
}

function grow(list: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const grown = new Uint32Array(list.length * 2)
  grown.set(list)
  return grown
}

/** FNV-1a over the UTF-16 units. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}
