import { createHash } from 'node:crypto'
import fs from 'node:fs'
import readline from 'node:readline'
import { toArchiveValue, type ArchiveValue } from './row-values.js'

export interface WrittenFile {
  rows: number
  sha256: string
  size: number
}

/**
 * Writes one table's NDJSON file: the column names, then one JSON array per row, hashing as it writes.
 * Written in 1 MB chunks with a turn of the event loop between them, so a backup taken inside the serving
 * app (the scheduled job, 备份管理) neither holds a large table in memory nor starves the requests, and
 * is not starved by them (a stream awaiting each drain took 30 s for 150 small tables under a write storm).
 */
export async function writeTableFile(file: string, columns: string[], rows: AsyncIterable<unknown[]> | Iterable<unknown[]>): Promise<WrittenFile> {
  const fd = fs.openSync(file, 'w')
  const hash = createHash('sha256')
  let size = 0
  let count = 0
  let chunk = JSON.stringify(columns) + '\n'
  const flush = () => {
    const bytes = Buffer.from(chunk, 'utf8')
    chunk = ''
    hash.update(bytes)
    size += bytes.length
    fs.writeSync(fd, bytes)
  }
  /** Adds a row; true when a full chunk was written and the caller should give the event loop a turn. */
  const add = (row: unknown[]) => {
    chunk += JSON.stringify(row.map(toArchiveValue)) + '\n'
    count++
    if (chunk.length < 1 << 20) return false
    flush()
    return true
  }
  const turn = () => new Promise((resolve) => setImmediate(resolve))
  try {
    // A synchronous source (a SQLite statement) is read without awaiting each row: only a full chunk yields.
    if (Symbol.asyncIterator in rows) {
      for await (const row of rows) if (add(row)) await turn()
    } else {
      for (const row of rows) if (add(row)) await turn()
    }
    flush()
  } finally {
    fs.closeSync(fd)
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
