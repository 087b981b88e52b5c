import fs from 'node:fs'
import zlib from 'node:zlib'
import { StringDecoder } from 'node:string_decoder'

/**
 * The entries of a zip file on disk, read from its central directory, each opened as a stream of
 * text without reading the archive whole (an .xlsx of a million rows is a 50 MB zip holding a
 * 300 MB sheet). The central directory, not the local headers, gives the sizes: streaming writers
 * (ExcelJS, WPS) put them only after the data. ZIP64 records are understood (large sheets); stored
 * and deflated entries are read, anything else (encrypted, other methods) is refused.
 */

export interface ZipEntry {
  name: string
  method: number
  compressedSize: number
  size: number
  /** Offset of the entry's local header. */
  offset: number
}

const EOCD = 0x06054b50
const ZIP64_LOCATOR = 0x07064b50
const ZIP64_EOCD = 0x06064b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const MAX_COMMENT = 0xffff

export class ZipError extends Error {}

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length)
  const n = fs.readSync(fd, buf, 0, length, position)
  if (n !== length) throw new ZipError('zip: truncated')
  return buf
}

/** The zip64 extended information of a central record: the fields whose 32-bit value is saturated. */
function zip64Fields(extra: Buffer, entry: ZipEntry, saturated: { size: boolean; compressed: boolean; offset: boolean }): void {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at)
    const len = extra.readUInt16LE(at + 2)
    if (id === 0x0001) {
      let p = at + 4
      const take = () => {
        const v = Number(extra.readBigUInt64LE(p))
        p += 8
        return v
      }
      if (saturated.size) entry.size = take()
      if (saturated.compressed) entry.compressedSize = take()
      if (saturated.offset) entry.offset = take()
      return
    }
    at += 4 + len
  }
}

/** The entries of the zip file at `file` by lower-cased name (part names of OOXML ignore case). */
export function zipEntries(file: string): Map<string, ZipEntry> {
  const fd = fs.openSync(file, 'r')
  try {
    const size = fs.fstatSync(fd).size
    const tailLength = Math.min(size, 22 + MAX_COMMENT)
    const tail = readAt(fd, size - tailLength, tailLength)
    let eocd = -1
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        eocd = i
        break
      }
    }
    if (eocd < 0) throw new ZipError('zip: no end of central directory')
    let count = tail.readUInt16LE(eocd + 10)
    let dirSize = tail.readUInt32LE(eocd + 12)
    let dirOffset = tail.readUInt32LE(eocd + 16)
    const locatorAt = eocd - 20
    if (locatorAt >= 0 && tail.readUInt32LE(locatorAt) === ZIP64_LOCATOR) {
      const z = readAt(fd, Number(tail.readBigUInt64LE(locatorAt + 8)), 56)
      if (z.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipError('zip: bad zip64 record')
      count = Number(z.readBigUInt64LE(32))
      dirSize = Number(z.readBigUInt64LE(40))
      dirOffset = Number(z.readBigUInt64LE(48))
    }
    if (dirOffset + dirSize > size) throw new ZipError('zip: central directory out of bounds')
    const dir = readAt(fd, dirOffset, dirSize)
    const entries = new Map<string, ZipEntry>()
    let at = 0
    for (let i = 0; i < count; i++) {
      if (at + 46 > dir.length || dir.readUInt32LE(at) !== CENTRAL) throw new ZipError('zip: bad central record')
      const flags = dir.readUInt16LE(at + 8)
      const nameLength = dir.readUInt16LE(at + 28)
      const extraLength = dir.readUInt16LE(at + 30)
      const commentLength = dir.readUInt16LE(at + 32)
      // Bit 11: the name is UTF-8; otherwise CP437, where part names (ASCII) read the same.
      const name = dir.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength)
      const entry: ZipEntry = {
        name,
        method: dir.readUInt16LE(at + 10),
        compressedSize: dir.readUInt32LE(at + 20),
        size: dir.readUInt32LE(at + 24),
        offset: dir.readUInt32LE(at + 42),
      }
      const saturated = { size: entry.size === 0xffffffff, compressed: entry.compressedSize === 0xffffffff, offset: entry.offset === 0xffffffff }
      if (saturated.size || saturated.compressed || saturated.offset)
        zip64Fields(dir.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), entry, saturated)
      if (flags & 0x1) throw new ZipError('zip: encrypted entry')
      entries.set(name.replace(/^\/+/, '').toLowerCase(), entry)
      at += 46 + nameLength + extraLength + commentLength
    }
    return entries
  } finally {
    fs.closeSync(fd)
  }
}

/** Where an entry's data starts: after its local header, whose name and extra lengths may differ from the central record's. */
function dataOffset(file: string, entry: ZipEntry): number {
  const fd = fs.openSync(file, 'r')
  try {
    const head = readAt(fd, entry.offset, 30)
    if (head.readUInt32LE(0) !== LOCAL) throw new ZipError('zip: bad local header')
    return entry.offset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28)
  } finally {
    fs.closeSync(fd)
  }
}

/** Bytes read from disk at a time (and inflated at a time). */
const CHUNK = 256 * 1024
/**
 * Inflated bytes kept ready ahead of the reader: the inflater works on the thread pool while the reader
 * parses, instead of starting only when asked (a sheet read alongside its shared strings waits twice).
 */
const READ_AHEAD = 4 * CHUNK

/** An entry's content, inflated chunk by chunk. */
export async function* entryBytes(file: string, entry: ZipEntry): AsyncGenerator<Buffer> {
  if (entry.method !== 0 && entry.method !== 8) throw new ZipError(`zip: compression method ${entry.method}`)
  const start = dataOffset(file, entry)
  if (!entry.compressedSize) return
  const raw = fs.createReadStream(file, { start, end: start + entry.compressedSize - 1, highWaterMark: CHUNK })
  // highWaterMark is a stream option the inflater takes, missing from ZlibOptions.
  const inflate: zlib.ZlibOptions & { highWaterMark: number } = { chunkSize: CHUNK, highWaterMark: READ_AHEAD }
  const source = entry.method === 8 ? raw.pipe(zlib.createInflateRaw(inflate)) : raw
  // The inflater does not end the reader when it fails: both are destroyed on any way out.
  raw.on('error', (error) => source.destroy(error))
  try {
    yield* source as AsyncIterable<Buffer>
  } finally {
    source.destroy()
    raw.destroy()
  }
}

/** An entry's content as UTF-8 text, chunk by chunk (a chunk never splits a character). */
export async function* entryText(file: string, entry: ZipEntry): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8')
  let first = true
  for await (const chunk of entryBytes(file, entry)) {
    let text = decoder.write(chunk)
    // A byte-order mark some writers put first.
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    first = false
    if (text) yield text
  }
  const rest = decoder.end()
  if (rest) yield rest
}

/** An entry's whole content as text (small parts: workbook, relationships, styles). */
export async function entryString(file: string, entry: ZipEntry, maxChars = 64 * 1024 * 1024): Promise<string> {
  const parts: string[] = []
  let length = 0
  for await (const text of entryText(file, entry)) {
    length += text.length
    if (length > maxChars) throw new ZipError(`zip: ${entry.name} too large`)
    parts.push(text)
  }
  return parts.join('')
}
