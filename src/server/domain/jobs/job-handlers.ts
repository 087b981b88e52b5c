import type { Db } from '../../db/dialect.js'
import type { Services } from '../../engine/services.js'
import type { RequestContext } from '../../platform/request-context.js'
import { inTransaction } from '../../platform/db-tx.js'
import { now } from '../../platform/clock.js'
import { cancelOverduePlans, PlanStatus } from '../stock/take-stock-plan.js'
import { runAutomaticReturn } from '../crm/public-sea.js'
import { startBackup } from '../../backup/backup-runs.js'
import { pruneBackups } from '../../backup/backup-folder.js'

/**
 * The built-in jobs (job type 1, 内置任务): what the ancestor's Java job classes did, keyed by a name the
 * job row stores in targetClassName. Each runs for the job's own tenant (a job is a tenant's row), as
 * the system user, and answers a short text kept in the run history.
 */
export interface JobRun {
  services: Services
  tenantId: string
  db: Db
  /** The job's parameter (任务参数), trimmed. */
  params: string
}

export interface JobHandler {
  key: string
  label: string
  /** Platform-wide work: only jobs of the operator tenant may use it. */
  platform?: boolean
  /** Refuses a parameter the handler cannot use (Chinese message), checked when the job is saved. */
  checkParams?(params: string): string | null
  run(run: JobRun): Promise<string>
}

/** The context of a job run: the system user of the job's tenant, with every right. */
export function systemContext(tenantId: string, db: Db): RequestContext {
  return { token: '', tenantId, userId: 'system', username: 'system', name: '系统', db, isAdmin: true, permissions: new Set(), ip: '' }
}

const idList = (params: string) => params.split(/[,，\s]+/).filter(Boolean)

export const JOB_HANDLERS: readonly JobHandler[] = [
  {
    key: 'takeStockPlanAutoCancel',
    label: '盘点任务超时自动取消',
    async run({ services, tenantId, db }) {
      // the plans list also cancels lazily; the job makes it happen on time for nobody looking
      const before = await openPlans(db)
      await inTransaction(db, (trx) => cancelOverduePlans(services, trx, systemContext(tenantId, trx)))
      return `取消盘点任务${before - (await openPlans(db))}个`
    },
  },
  {
    key: 'crmSeaReturn',
    label: '客户自动回收公海',
    async run({ services, db }) {
      const result = await runAutomaticReturn(services, db, { userId: 'system', name: '系统' })
      return `回收客户${result.total}个，提醒负责人${result.reminded}人`
    },
  },
  {
    key: 'noticePublish',
    label: '定时发布通知',
    checkParams: (params) => (idList(params).every((id) => /^[A-Za-z0-9_-]{1,64}$/.test(id)) ? null : '任务参数应为通知ID，多个用逗号分隔'),
    async run({ services, tenantId, db, params }) {
      const notice = services.registry.get('notice')
      const flag = (v: boolean) => services.codec.toColumn(notice.byName.get('available')!, v)
      let query = db.selectFrom(notice.table).select('id').where('published', '=', flag(false)).where('available', '=', flag(true)).where('user_id', 'is', null)
      const ids = idList(params)
      if (ids.length) query = query.where('id', 'in', ids)
      const drafts = (await query.execute()).map((r) => String(r.id))
      // through the store, so publishing keeps the notice's own rules (sanitising, read counters)
      for (const id of drafts)
        await inTransaction(db, (trx) => services.store.modify(trx, systemContext(tenantId, trx), notice, { id, published: true }))
      return `发布通知${drafts.length}条`
    },
  },
  {
    key: 'clearExpiredSessions',
    label: '清理过期会话和验证码',
    platform: true,
    async run({ services }) {
      const n = await services.sessions.purgeExpired()
      const time = now()
      const platform = services.databases.platform
      const captcha = await platform.deleteFrom('sys_captcha').where('expire_time', '<', time).executeTakeFirst()
      const codes = await platform.deleteFrom('sys_verify_code').where('expire_time', '<', time).executeTakeFirst()
      return `清理会话${n}个，图形验证码${Number(captcha.numDeletedRows)}个，验证码${Number(codes.numDeletedRows)}个`
    },
  },
  {
    key: 'systemBackup',
    label: '系统备份',
    platform: true,
    checkParams: (params) => (params === '' || keptBackups(params) !== undefined ? null : '任务参数应为保留的备份份数（1到1000的整数），留空保留7份'),
    async run({ services, params }) {
      const keep = keptBackups(params) ?? DEFAULT_KEPT_BACKUPS
      const { summary } = await startBackup(services.config)
      const removed = await pruneBackups(services.config.backupDir, keep)
      return `备份完成：${summary.name}，租户${summary.tenants}个，${summary.rows}行；保留最近${keep}份，删除${removed.length}份`
    },
  },
]

/** Backups the scheduled backup keeps when its parameter is empty. */
export const DEFAULT_KEPT_BACKUPS = 7

function keptBackups(params: string): number | undefined {
  if (!/^\d{1,4}$/.test(params)) return undefined
  const n = Number(params)
  return n >= 1 && n <= 1000 ? n : undefined
}

async function openPlans(db: Db): Promise<number> {
  const row = await db
    .selectFrom('tbl_take_stock_plan')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('take_status', 'in', [PlanStatus.CREATED, PlanStatus.DIFF_CREATED])
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

export const jobHandler = (key: unknown): JobHandler | undefined => JOB_HANDLERS.find((h) => h.key === key)
