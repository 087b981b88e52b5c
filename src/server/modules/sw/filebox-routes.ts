import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../platform/routes.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { swFileBox } from '../../../shared/contracts/smart-work.js'
import { inTransaction } from '../../platform/db-tx.js'
import { notFound } from '../../platform/errors.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { readUpload, storeUpload } from '../../platform/uploads.js'
import type { RequestContext } from '../../platform/request-context.js'
import type { Db } from '../../db/dialect.js'
import type { Wire } from '../../engine/record-codec.js'
import { objectBody } from '../../engine/request-values.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import type { Services } from '../../engine/services.js'
import { notifyReceiver, ownedRows, receiversOf } from '../../domain/smart-work/sharing.js'
import { FILE_BOX } from './file-kinds.js'

const FILE_MISSING = '文件不存在！'

/**
 * 文件收纳箱 (001 §7 /sw/filebox): upload into the caller's box through the upload store (bytes checked
 * against the extension, 20 MB), send and batch send (each receiver gets a record of their own for the
 * same stored file, and a bell notice), and, beyond the spec's three calls, the download of one's own
 * file. The list is the entity family's GET /sw/filebox/query (schemas/entities/sw-file-box.json).
 */
export function fileboxRoutes(app: FastifyInstance, services: Services): void {
  const { registry, store, hooks } = services
  const box = registry.get('swFileBox')
  const permission = box.file.api!.permission
  hooks.on(box.name, ownedRows())

  async function ownFile(db: Db, ctx: RequestContext, id: unknown) {
    if (typeof id !== 'string' || !id.trim()) throw notFound(FILE_MISSING)
    const rows = await store.loadByIds(db, ctx, box, [id.trim()], [])
    if (!rows[0]) throw notFound(FILE_MISSING)
    const stored = await db.selectFrom(box.table).select(['url', 'file_size']).where('id', '=', String(rows[0].id)).executeTakeFirst()
    const row: Wire = rows[0]
    return { id: String(row.id), name: String(row.name ?? ''), description: row.description ?? null, url: String(stored?.url ?? ''), fileSize: Number(stored?.file_size ?? 0) }
  }

  defineCallRoute(app, swFileBox.upload, {
    access: [`${permission}:upload`],
    handler: async ({ ctx, req }) => {
      const file = await storeUpload(req, services.config.dataDir, ctx.tenantId, FILE_BOX)
      return inTransaction(ctx.db, async (trx) => {
        const id = await store.create(trx, ctx, box, { name: file.fileName.slice(0, 200), available: true }, { logged: false })
        await trx.updateTable(box.table).set({ url: file.name, file_size: file.size }).where('id', '=', id).execute()
        await writeOpLog(trx, ctx, '上传文件', OpLogType.OTHER, { id, name: file.fileName })
        return { id, name: file.fileName, fileSize: file.size }
      })
    },
  })

  for (const batch of [false, true]) {
    defineCallRoute(app, batch ? swFileBox.sendBatch : swFileBox.send, {
      access: [`${permission}:send`],
      handler: async ({ ctx, body }) => {
        const input = objectBody(body)
        return inTransaction(ctx.db, async (trx) => {
          const file = await ownFile(trx, ctx, input.id)
          const receivers = await receiversOf(services, trx, ctx, input, batch)
          const copies: string[] = []
          for (const receiver of receivers) {
            const copyId = await store.create(trx, ctx, box, { name: file.name, description: file.description ?? null, available: true }, { logged: false })
            await trx
              .updateTable(box.table)
              .set({ url: file.url, file_size: file.fileSize, owner_id: receiver.id, sender_id: ctx.userId })
              .where('id', '=', copyId)
              .execute()
            await notifyReceiver(services, trx, ctx, receiver.id, copyId, '文件', String(file.name))
            copies.push(copyId)
          }
          await writeOpLog(trx, ctx, '发送文件', OpLogType.OTHER, { id: file.id, userIds: receivers.map((r) => r.id) })
          return copies
        })
      },
    })
  }

  // The file itself is the answer: method and path from the contract, the bytes sent through the reply.
  defineRoute(app, {
    method: swFileBox.download.method,
    url: swFileBox.download.path,
    access: operationKeys(box, 'query'),
    handler: async ({ ctx, query, reply }) => {
      const file = await ownFile(ctx.db, ctx, query.id)
      const bytes = await readUpload(services.config.dataDir, ctx.tenantId, file.url, FILE_BOX)
      const ext = path.extname(file.url).slice(1)
      reply
        .header('Content-Type', FILE_BOX.types[ext] ?? 'application/octet-stream')
        .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(String(file.name))}`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
      reply.send(bytes)
      return reply
    },
  })
}
