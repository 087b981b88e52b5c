import fs from 'node:fs'
import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { defineCallRoute } from '../../platform/call-routes.js'
import { forbidden, invalid } from '../../platform/errors.js'
import type { RequestContext } from '../../platform/request-context.js'
import { backup } from '../../../shared/contracts/backup.js'
import { PERMISSION } from '../../../shared/generated/permission-keys.js'
import { backupFile, listBackups } from '../../backup/backup-folder.js'
import { backupRunning, BACKUP_RUNNING, startBackup } from '../../backup/backup-runs.js'

const KEYS = PERMISSION.system.backup

/**
 * 备份管理 (系统管理, seeded for the platform's tenant only): the archives of the backup folder, newest
 * first; 立即备份 starts one (answered at once, the list shows it when written); 下载 sends one. The
 * backups hold every tenant, so beyond the permission key the caller must be of the platform's tenant.
 * Restore replaces everything and stays a command (`npm run restore`).
 */
export function backupRoutes(app: FastifyInstance, services: Services): void {
  const platformOnly = (ctx: RequestContext) => {
    if (ctx.tenantId !== services.operatorTenantId) throw forbidden()
  }

  defineCallRoute(app, backup.query, {
    access: [KEYS.query],
    handler: async ({ ctx, params }) => {
      platformOnly(ctx)
      const all = await listBackups(services.config.backupDir)
      const pageSize = Math.min(Math.max(Number(params.pageSize) || 20, 1), 200)
      const pageIndex = Math.max(Number(params.pageIndex) || 1, 1)
      return {
        pageIndex,
        pageSize,
        totalCount: all.length,
        datas: all.slice((pageIndex - 1) * pageSize, pageIndex * pageSize),
        running: backupRunning(services.config),
      }
    },
  })

  defineCallRoute(app, backup.start, {
    access: [KEYS.add],
    handler: async ({ ctx, req }) => {
      platformOnly(ctx)
      if (backupRunning(services.config)) throw invalid(BACKUP_RUNNING)
      startBackup(services.config).catch((error: unknown) => req.log.error({ err: error }, 'backup failed'))
      return null
    },
  })

  defineCallRoute(app, backup.download, {
    access: [KEYS.download],
    handler: async ({ ctx, params, reply }) => {
      platformOnly(ctx)
      const file = await backupFile(services.config.backupDir, String(params.name ?? ''))
      if (!file) throw invalid('备份文件不存在', 'name')
      const name = String(params.name)
      reply
        .header('content-type', 'application/gzip')
        .header('content-length', fs.statSync(file).size)
        .header('content-disposition', `attachment; filename="${name}"`)
      return reply.send(fs.createReadStream(file))
    },
  })
}
