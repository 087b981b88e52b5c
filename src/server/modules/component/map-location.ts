import type { AppConfig } from '../../config.js'
import { invalid } from '../../platform/errors.js'
import { outboundJson } from '../../platform/outbound-json.js'

export interface MapLocation {
  address: string
  lng: number
  lat: number
  province: string
  city: string
  district: string
}

const text = (v: unknown) => (typeof v === 'string' ? v : '')

/**
 * The location of an address through AMap's geocoding web service (`/v3/geocode/geo`), configured by
 * MAP_KEY. Without a key the answer says so; a key AMap refuses or an address it cannot place is told
 * as such rather than answered with an empty location.
 */
export async function locate(config: AppConfig, address: string): Promise<MapLocation> {
  if (!config.mapKey) throw invalid('未配置地图服务，无法解析地址')
  const url = `${config.mapBaseUrl}/v3/geocode/geo?${new URLSearchParams({ key: config.mapKey, address, output: 'JSON' })}`
  const body = await outboundJson(url, { timeoutMs: config.outboundTimeoutMs }, '地图服务请求失败，请稍后重试')
  if (body.status !== '1') throw invalid('地图服务拒绝了请求，请检查地图服务Key')
  const first = Array.isArray(body.geocodes) ? (body.geocodes[0] as Record<string, unknown> | undefined) : undefined
  const [lng, lat] = text(first?.location).split(',').map(Number)
  if (!first || !Number.isFinite(lng) || !Number.isFinite(lat)) throw invalid('未找到该地址的位置')
  // AMap answers [] instead of a text for a part it does not know (e.g. the city of a municipality).
  return { address: text(first.formatted_address) || address, lng, lat, province: text(first.province), city: text(first.city), district: text(first.district) }
}
