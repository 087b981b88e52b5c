import net from 'node:net'

/**
 * A setting's list of addresses and CIDR ranges (IPv4 and IPv6) as a test of one address; a wrong
 * entry stops the start with the setting's name (METRICS_ALLOW, WEBHOOK_ALLOW_PRIVATE).
 */
export function addressList(setting: string, entries: string[]): (address: string) => boolean {
  const list = new net.BlockList()
  for (const entry of entries) {
    const [address, prefix] = entry.split('/')
    const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : undefined
    const bits = prefix === undefined ? undefined : Number(prefix)
    if (!family || (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= (family === 'ipv4' ? 32 : 128)))) {
      throw new Error(`${setting}: "${entry}" is not an address or a range like 10.0.0.0/8`)
    }
    if (bits === undefined) list.addAddress(address, family)
    else list.addSubnet(address, bits, family)
  }
  return (address) => {
    const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : undefined
    return family !== undefined && list.check(address, family)
  }
}
