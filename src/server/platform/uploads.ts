import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { invalid, notFound } from './errors.js'

/** An accepted kind of upload: extensions, size, and (for images) a signature check of the bytes. */
export interface UploadKind {
  /** Folder under `DATA_DIR/uploads/<tenant>/` and the prefix of stored names. */
  folder: string
  /** Extension → Content-Type served back. */
  types: Record<string, string>
  maxBytes: number
  missingMessage: string
  typeMessage: string
  sizeMessage: string
  /** When set, the bytes must be of the extension's kind (extensions alone are not trusted). */
  verify?: (bytes: Buffer, ext: string) => boolean
}

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', bmp: 'image/bmp', gif: 'image/gif' }

/** What the bytes are, from their signature. */
export function imageKind(bytes: Buffer): 'png' | 'jpeg' | 'bmp' | 'gif' | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'gif'
  if (bytes.length >= 14 && bytes[0] === 0x42 && bytes[1] === 0x4d) return 'bmp'
  return undefined
}

const imageMatches = (bytes: Buffer, ext: string) => {
  const kind = imageKind(bytes)
  return Boolean(kind) && (kind === 'jpeg' ? ['jpg', 'jpeg'].includes(ext) : kind === ext)
}

/** Images of the spec (png, jpeg, bmp, jpg, gif; one only). */
export const imageUpload = (folder: string, maxBytes: number, sizeMessage: string): UploadKind => ({
  folder,
  types: IMAGE_TYPES,
  maxBytes,
  missingMessage: '请选择要上传的图片！',
  typeMessage: '只能上传png、jpeg、bmp、jpg、gif格式的图片！',
  sizeMessage,
  verify: imageMatches,
})

const TENANT = /^[A-Za-z0-9_-]{1,64}$/
const storedName = (kind: UploadKind) => new RegExp(`^${kind.folder}-[0-9a-f]{32}\\.(${Object.keys(kind.types).join('|')})$`)
const dirOf = (dataDir: string, tenantId: string, kind: UploadKind) => path.join(dataDir, 'uploads', tenantId, kind.folder)

/**
 * Stores the request's one multipart `file` under `DATA_DIR/uploads/<tenant>/<folder>/` with a random
 * name (128 bits: the URL is public, as an `<img>` sends no token, but unguessable) and answers the
 * stored name.
 */
export async function saveUpload(req: FastifyRequest, dataDir: string, tenantId: string, kind: UploadKind): Promise<string> {
  return (await storeUpload(req, dataDir, tenantId, kind)).name
}

/** A stored upload: its stored name, the name the client gave the file, and its size in bytes. */
export interface StoredUpload {
  name: string
  fileName: string
  size: number
}

/** saveUpload that also answers the client's file name and the size (the file box lists both). */
export async function storeUpload(req: FastifyRequest, dataDir: string, tenantId: string, kind: UploadKind): Promise<StoredUpload> {
  if (!req.isMultipart()) throw invalid(kind.missingMessage, 'file')
  let part
  try {
    part = await req.file({ limits: { fileSize: kind.maxBytes, files: 1 } })
  } catch {
    throw invalid(kind.missingMessage, 'file')
  }
  if (!part) throw invalid(kind.missingMessage, 'file')
  const ext = path.extname(part.filename ?? '').slice(1).toLowerCase()
  if (!kind.types[ext]) {
    part.file.resume()
    throw invalid(kind.typeMessage, 'file')
  }
  let bytes: Buffer
  try {
    bytes = await part.toBuffer()
  } catch {
    throw invalid(kind.sizeMessage, 'file')
  }
  if (part.file.truncated || bytes.length > kind.maxBytes) throw invalid(kind.sizeMessage, 'file')
  if (!bytes.length) throw invalid(kind.missingMessage, 'file')
  if (kind.verify && !kind.verify(bytes, ext)) throw invalid(kind.typeMessage, 'file')
  const name = `${kind.folder}-${randomBytes(16).toString('hex')}.${ext}`
  const dir = dirOf(dataDir, tenantId, kind)
  await fs.mkdir(dir, { recursive: true })
  await fs.writeFile(path.join(dir, name), bytes, { flag: 'wx' })
  return { name, fileName: path.basename(part.filename ?? name), size: bytes.length }
}

/** The bytes of a stored upload; names and tenants are checked against their patterns (no path tricks). */
export async function readUpload(dataDir: string, tenantId: string, name: string, kind: UploadKind): Promise<Buffer> {
  if (!TENANT.test(tenantId) || !storedName(kind).test(name)) throw notFound('文件不存在！')
  try {
    return await fs.readFile(path.join(dirOf(dataDir, tenantId, kind), name))
  } catch {
    throw notFound('文件不存在！')
  }
}

/** Sends a stored upload (public, cacheable: images and videos shown by URL). */
export async function sendUpload(reply: FastifyReply, dataDir: string, tenantId: string, name: string, kind: UploadKind) {
  const bytes = await readUpload(dataDir, tenantId, name, kind)
  reply
    .header('Content-Type', kind.types[path.extname(name).slice(1)])
    .header('Cache-Control', 'public, max-age=31536000, immutable')
    .header('X-Content-Type-Options', 'nosniff')
  reply.send(bytes)
  return reply
}
