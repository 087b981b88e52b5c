import { lookup } from 'node:dns/promises'
import net from 'node:net'
import { addressList } from '../platform/address-list.js'
import { invalid } from '../platform/errors.js'

/**
 * Where no webhook may go unless WEBHOOK_ALLOW_PRIVATE allows it: this host, private networks, link-local
 * (169.254.169.254, the cloud metadata service, is one), carrier-grade NAT, multicast and every reserved
 * or documentation range; IPv6 alike. An IPv4 address written as IPv6 (::ffff:a.b.c.d, ::a.b.c.d) is
 * judged as the IPv4 address it is.
 */
const RESERVED = addressList('reserved ranges', [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  '::1/128',
  '64:ff9b::/96',
  '100::/64',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
])

export const TARGET_SCHEME = '回调地址必须是以http://或https://开头的完整网址'
export const targetRefused = (address: string) => `回调地址不允许指向本机、内网或保留地址（${address}）`
export const targetUnresolved = (host: string) => `回调地址的域名无法解析（${host}）`

/** An IPv4 address carried in an IPv6 one (mapped or compatible), else the address itself. */
export function plainAddress(address: string): string {
  if (!net.isIPv6(address)) return address
  const groups = expandIPv6(address)
  const embedsV4 = groups.slice(0, 5).every((g) => g === 0) && (groups[5] === 0xffff || (groups[5] === 0 && groups[6] !== 0))
  if (!embedsV4) return address
  return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.')
}

function expandIPv6(address: string): number[] {
  let text = address.toLowerCase().split('%')[0]
  // A trailing dotted IPv4 part becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number)
    text = text.slice(0, -v4[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::')
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const front = part(head)
  const back = part(tail)
  const gap = tail === undefined ? 0 : 8 - front.length - back.length
  return [...front, ...Array<number>(gap).fill(0), ...back]
}

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: addresses and ranges let through although reserved; `*` lets every address through. */
  allowPrivate: string[]
}

/** Whether `address` may be reached under `policy`. */
export function addressAllowed(address: string, policy: TargetPolicy): boolean {
  if (policy.allowPrivate.includes('*')) return true
  const plain = plainAddress(address)
  if (!RESERVED(plain)) return true
  const allowed = allowListOf(policy)
  return allowed(plain) || allowed(address)
}

/** WEBHOOK_ALLOW_PRIVATE as a test (a wrong entry throws, so the start checks it once). */
export const allowListOf = (policy: TargetPolicy) => addressList('WEBHOOK_ALLOW_PRIVATE', policy.allowPrivate.filter((a) => a !== '*'))

/** A checked target: the URL and the addresses a delivery may connect to (no second DNS answer is used). */
export interface CheckedTarget {
  url: URL
  addresses: { address: string; family: number }[]
}

/**
 * Checks a webhook URL: http or https, a host, and every address its name resolves to allowed by
 * `policy`. Throws the BizError a user is answered (subscribe) or a delivery records (send). The
 * delivery connects only to the addresses checked here, so a name that resolves differently a moment
 * later (DNS rebinding) cannot lead it elsewhere.
 */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<CheckedTarget> {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw invalid(TARGET_SCHEME, 'url')
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw invalid(TARGET_SCHEME, 'url')
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: CheckedTarget['addresses']
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIPv6(host) ? 6 : 4 }]
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true })
    } catch {
      throw invalid(targetUnresolved(host), 'url')
    }
    if (!addresses.length) throw invalid(targetUnresolved(host), 'url')
  }
  const refused = addresses.find((a) => !addressAllowed(a.address, policy))
  if (refused) throw invalid(targetRefused(refused.address), 'url')
  return { url, addresses }
}
