/**
 * Every route the app serves under /cloud-api (HEAD aside), read from Fastify's route tree, so calls
 * outside the catalogue are swept as well.
 */
export function servedRoutes(printed: string): { method: string; url: string }[] {
  const out: { method: string; url: string }[] = []
  let stack: string[] = []
  for (const line of printed.split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?$/.exec(line)
    if (!m) continue
    stack = [...stack.slice(0, m[1].length / 4), m[2]]
    const full = stack.join('')
    for (const method of (m[3] ?? '').split(',').map((x) => x.trim()))
      if (method && method !== 'HEAD' && full.startsWith('/cloud-api/')) out.push({ method, url: full.slice('/cloud-api'.length) })
  }
  return out
}
