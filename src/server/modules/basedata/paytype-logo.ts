import type { FastifyInstance } from 'fastify'
import { API_PREFIX, defineRoute } from '../../platform/routes.js'
import { writeOpLog, OpLogType } from '../../platform/op-log.js'
import { imageUpload, saveUpload, sendUpload } from '../../platform/uploads.js'
import type { Services } from '../../engine/services.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'

const LOGO = imageUpload('logo', 1024 * 1024, '图片大小不能超过1MB！')

/**
 * `POST /basedata/paytype/upload/logo` (multipart `file`): png, jpeg, bmp, jpg or gif (extension and
 * signature must agree), at most 1 MB, stored under `DATA_DIR/uploads/<tenant>/logo/`; the answer is
 * its URL (`/cloud-api/basedata/paytype/logo/<tenant>/<file>`), which the pay type form saves in `logo`.
 */
export function registerPayTypeLogo(app: FastifyInstance, services: Services): void {
  const payType = services.registry.get('payType')
  defineRoute(app, {
    method: 'POST',
    url: '/basedata/paytype/upload/logo',
    access: [...operationKeys(payType, 'create'), ...operationKeys(payType, 'modify')],
    handler: async ({ ctx, req }) => {
      const name = await saveUpload(req, services.config.dataDir, ctx.tenantId, LOGO)
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
      return sendUpload(reply, services.config.dataDir, tenantId, name, LOGO)
    },
  })
}
