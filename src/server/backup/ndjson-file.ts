import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { once } from 'node:events'
import readline from 'node:readline'
import { toArchiveValue, type ArchiveValue } from './row-values.js'

export interface WrittenFile {
  rows: number
  sha256: string
  size: number
}

/**
 * Writes one table's NDJSON file: the column names, then one JSON array per row, hashing as it writes
 * (backpressure respected, so a large table never sits in memory).
 */
export async function writeTableFile(file: string, columns: string[], rows: AsyncIterable<unknown[]> | Iterable<unknown[]>): Promise<WrittenFile> {
  const out = fs.createWriteStream(file)
  const hash = createHash('sha256')
  let size = 0
  let count = 0
  let chunk = ''
  const flush = async () => {
    if (!chunk) return
    const bytes = Buffer.from(chunk, 'utf8')
    chunk = ''
    hash.update(bytes)
    size += bytes.length
    if (!out.write(bytes)) await once(out, 'drain')
  }
  try {
    chunk = JSON.stringify(columns) + '\n'
    for await (const row of rows) {
      chunk += JSON.stringify(row.map(toArchiveValue)) + '\n'
      count++
      if (chunk.length > 1 << 16) await flush()
    }
    await flush()
  } finally {
    out.end()
    await once(out, 'close')
  }
  return { rows: count, sha256: hash.digest('hex'), size }
}

/** The rows of a table file, as written (the header line is checked against the manifest's columns). */
export async function* readTableFile(file: string, columns: string[]): AsyncGenerator<ArchiveValue[]> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity })
  let header = true
  for await (const line of lines) {
    if (!line) continue
    const values = JSON.parse(line) as ArchiveValue[]
    if (header) {
      header = false
      if (JSON.stringify(values) !== JSON.stringify(columns)) throw new Error(`${file}: columns differ from the manifest`)
      continue
    }
    yield values
  }
}

export async function sha256Of(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256')
  let size = 0
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer)
    size += (chunk as Buffer).length
  }
  return { sha256: hash.digest('hex'), size }
}
