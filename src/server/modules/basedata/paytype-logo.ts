import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { invalid, notFound } from '../../platform/errors.js'
import { API_PREFIX, defineRoute } from '../../platform/routes.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import type { Services } from '../../services.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'

export const LOGO_MAX_BYTES = 1024 * 1024
export const LOGO_TYPE_MESSAGE = '只能上传png、jpeg、bmp、jpg、gif格式的图片！'
export const LOGO_SIZE_MESSAGE = '图片大小不能超过1MB！'

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  bmp: 'image/bmp',
  gif: 'image/gif',
}

/** What the bytes are, from their signature; the extension alone is not trusted. */
export function imageKind(bytes: Buffer): 'png' | 'jpeg' | 'bmp' | 'gif' | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'gif'
  if (bytes.length >= 14 && bytes[0] === 0x42 && bytes[1] === 0x4d) return 'bmp'
  return undefined
}

const TENANT = /^[A-Za-z0-9_-]{1,64}$/
const FILE = /^logo-[0-9a-f]{32}\.(png|jpg|jpeg|bmp|gif)$/

/**
 * `POST /basedata/paytype/upload/logo` (multipart `file`): png, jpeg, bmp, jpg or gif (extension and
 * signature must agree), at most 1 MB. The image is stored as a file under
 * `DATA_DIR/uploads/<tenant>/paytype/` with a random name, and the answer is its URL
 * (`/cloud-api/basedata/paytype/logo/<tenant>/<file>`), which the pay type form saves in `logo`.
 * The URL is public (an `<img>` sends no token) but unguessable (128 random bits).
 */
export function registerPayTypeLogo(app: FastifyInstance, services: Services): void {
  const payType = services.registry.get('payType')
  const dirOf = (tenantId: string) => path.join(services.config.dataDir, 'uploads', tenantId, 'paytype')

  defineRoute(app, {
    method: 'POST',
    url: '/basedata/paytype/upload/logo',
    access: [...operationKeys(payType, 'create'), ...operationKeys(payType, 'modify')],
    handler: async ({ ctx, req }) => {
      if (!req.isMultipart()) throw invalid('请选择要上传的图片！', 'file')
      let part
      try {
        part = await req.file({ limits: { fileSize: LOGO_MAX_BYTES, files: 1 } })
      } catch {
        throw invalid('请选择要上传的图片！', 'file')
      }
      if (!part) throw invalid('请选择要上传的图片！', 'file')
      const ext = path.extname(part.filename ?? '').slice(1).toLowerCase()
      if (!CONTENT_TYPES[ext]) {
        part.file.resume()
        throw invalid(LOGO_TYPE_MESSAGE, 'file')
      }
      let bytes: Buffer
      try {
        bytes = await part.toBuffer()
      } catch {
        throw invalid(LOGO_SIZE_MESSAGE, 'file')
      }
      if (part.file.truncated || bytes.length > LOGO_MAX_BYTES) throw invalid(LOGO_SIZE_MESSAGE, 'file')
      const kind = imageKind(bytes)
      if (!kind || (kind === 'jpeg' ? !['jpg', 'jpeg'].includes(ext) : kind !== ext)) throw invalid(LOGO_TYPE_MESSAGE, 'file')
      const name = `logo-${randomBytes(16).toString('hex')}.${ext}`
      const dir = dirOf(ctx.tenantId)
      await fs.mkdir(dir, { recursive: true })
      await fs.writeFile(path.join(dir, name), bytes, { flag: 'wx' })
      await writeOpLog(ctx.db, ctx, '上传支付方式图标', OpLogType.OTHER, { name })
      return `${API_PREFIX}/basedata/paytype/logo/${ctx.tenantId}/${name}`
    },
  })

  defineRoute(app, {
    method: 'GET',
    url: '/basedata/paytype/logo/:tenantId/:name',
    access: 'public',
    handler: async ({ req, reply }) => {
      const { tenantId, name } = req.params as { tenantId: string; name: string }
      if (!TENANT.test(tenantId) || !FILE.test(name)) throw notFound('文件不存在！')
      let bytes: Buffer
      try {
        bytes = await fs.readFile(path.join(dirOf(tenantId), name))
      } catch {
        throw notFound('文件不存在！')
      }
      reply
        .header('Content-Type', CONTENT_TYPES[path.extname(name).slice(1)])
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
      reply.send(bytes)
      return reply
    },
  })
}
