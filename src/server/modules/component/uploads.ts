import type { FastifyInstance } from 'fastify'
import { API_PREFIX, defineRoute } from '../../platform/routes.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { imageUpload, saveUpload, sendUpload, type UploadKind } from '../../platform/uploads.js'
import type { Services } from '../../engine/services.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { component } from '../../../shared/contracts/component.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { VIDEO_EXTENSIONS } from '../../../shared/look/ui-constants.js'

const IMAGE = imageUpload('image', 5 * 1024 * 1024, '图片大小不能超过5MB！')

// The video formats of the spec (000 §5). Their containers have no single reliable signature, so the
// extension decides; the file is only ever served back as a download-safe video type with nosniff.
const VIDEO: UploadKind = {
  folder: 'video',
  types: Object.fromEntries(VIDEO_EXTENSIONS.map((e) => [e, e === 'mp4' || e === 'm4v' ? 'video/mp4' : 'application/octet-stream'])),
  // The request body limit of the app (20 MB) bounds it too.
  maxBytes: 20 * 1024 * 1024,
  missingMessage: '请选择要上传的视频！',
  typeMessage: `只能上传${VIDEO_EXTENSIONS.join('、')}格式的视频！`,
  sizeMessage: '视频大小不能超过20MB！',
}

/**
 * Who may store a file of a kind: whoever may add or modify a record of an entity with a field of that
 * control (`image`; no schema has a video field yet, so video is the admin's), derived from schemas/.
 */
function uploadKeys(services: Services, control: string): string[] {
  const keys = new Set<string>()
  for (const entity of services.registry.all())
    if (entity.fields.some((f) => (f.control as string | undefined) === control && !f.readOnly))
      for (const k of [...operationKeys(entity, 'create'), ...operationKeys(entity, 'modify')]) keys.add(k)
  return [...keys]
}

/**
 * The shared uploaders (000 §7 Components): `POST /component/upload/image` and `/video` (multipart
 * `file`) answer the URL of the stored file, served at `GET /component/upload/{kind}/{tenant}/{name}`.
 */
export function registerUploads(app: FastifyInstance, services: Services): void {
  for (const [kind, store] of [[IMAGE, component.uploadImage], [VIDEO, component.uploadVideo]] as const) {
    defineCallRoute(app, store, {
      access: uploadKeys(services, kind.folder),
      handler: async ({ ctx, req }) => {
        const name = await saveUpload(req, services.config.dataDir, ctx.tenantId, kind)
        await writeOpLog(ctx.db, ctx, kind === IMAGE ? '上传图片' : '上传视频', OpLogType.OTHER, { name })
        return `${API_PREFIX}/component/upload/${kind.folder}/${ctx.tenantId}/${name}`
      },
    })
    defineRoute(app, {
      method: 'GET',
      url: `/component/upload/${kind.folder}/:tenantId/:name`,
      access: 'public',
      handler: async ({ req, reply }) => {
        const { tenantId, name } = req.params as { tenantId: string; name: string }
        return sendUpload(reply, services.config.dataDir, tenantId, name, kind)
      },
    })
  }
}
