import type { AppConfig } from '../../config.js'
import type { Services } from '../../engine/services.js'
import type { RequestContext } from '../../platform/request-context.js'
import { invalid } from '../../platform/errors.js'
import { inTransaction } from '../../platform/db-tx.js'
import { outboundJson } from '../../platform/outbound-json.js'

interface DingTalkDept {
  id: number
  name: string
  parentId: number
}

export interface DingTalkSyncResult {
  created: number
  updated: number
}

/** DingTalk's root department is the company itself: its children become top-level departments here. */
const ROOT = 1
const FAILED = '钉钉服务请求失败，请稍后重试'
/** A synced department's code: letters and digits within the code rule (20 characters). */
export const deptCode = (id: number) => `DD${id}`

async function accessToken(config: AppConfig): Promise<string> {
  const query = new URLSearchParams({ appkey: config.dingTalkAppKey!, appsecret: config.dingTalkAppSecret! })
  const body = await outboundJson(`${config.dingTalkBaseUrl}/gettoken?${query}`, { timeoutMs: config.outboundTimeoutMs }, FAILED)
  if (body.errcode !== 0 || typeof body.access_token !== 'string') throw invalid('钉钉应用拒绝了请求，请检查AppKey和AppSecret')
  return body.access_token
}

/** Every department under the root, parents before children (`topapi/v2/department/listsub`, breadth first). */
async function departments(config: AppConfig, token: string): Promise<DingTalkDept[]> {
  const found: DingTalkDept[] = []
  const queue = [ROOT]
  while (queue.length) {
    const parent = queue.shift()!
    const body = await outboundJson(
      `${config.dingTalkBaseUrl}/topapi/v2/department/listsub?${new URLSearchParams({ access_token: token })}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ dept_id: parent }), timeoutMs: config.outboundTimeoutMs },
      FAILED,
    )
    if (body.errcode !== 0 || !Array.isArray(body.result)) throw invalid(FAILED)
    for (const item of body.result as Record<string, unknown>[]) {
      const id = Number(item.dept_id)
      if (!Number.isInteger(id) || typeof item.name !== 'string' || found.some((d) => d.id === id)) continue
      found.push({ id, name: item.name, parentId: parent })
      queue.push(id)
    }
  }
  return found
}

/**
 * 钉钉同步: the departments of the DingTalk application of DINGTALK_APP_KEY / DINGTALK_APP_SECRET into
 * 部门管理, matched by the code `DD<dept_id>`: new ones are created, existing ones get DingTalk's name
 * and parent. Everything is fetched before anything is written, and written in one transaction
 * through the store (its rules and op log), so a failed sync changes nothing.
 */
export async function syncDingTalk(services: Services, ctx: RequestContext): Promise<DingTalkSyncResult> {
  const { config, store, registry } = services
  if (!config.dingTalkAppKey || !config.dingTalkAppSecret) throw invalid('未配置钉钉应用，无法同步')
  const remote = await departments(config, await accessToken(config))
  const dept = registry.get('dept')
  return inTransaction(ctx.db, async (trx) => {
    const existing = await store.list(trx, ctx, dept, { params: [], values: {}, paged: false })
    const idByCode = new Map(existing.datas.map((d) => [String(d.code), String(d.id)]))
    const result: DingTalkSyncResult = { created: 0, updated: 0 }
    for (const d of remote) {
      const values = {
        code: deptCode(d.id),
        name: d.name,
        shortName: [...d.name].slice(0, 20).join(''),
        parentId: d.parentId === ROOT ? null : (idByCode.get(deptCode(d.parentId)) ?? null),
        available: true,
      }
      const id = idByCode.get(values.code)
      if (id) {
        await store.modify(trx, ctx, dept, { ...values, id })
        result.updated++
      } else {
        idByCode.set(values.code, await store.create(trx, ctx, dept, values))
        result.created++
      }
    }
    return result
  })
}
