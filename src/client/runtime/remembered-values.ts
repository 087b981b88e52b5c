/**
 * Values a user chose last for fields declared `defaultFrom: "last"` (a document's 仓库): kept in
 * this browser per user and field name, so every new document of any kind starts with the warehouse
 * the clerk works in. Only ids and codes are kept, never document content.
 */
const keyOf = (userId: string, field: string) => `erp.last.${userId}.${field}`

export function rememberedValue(userId: string | undefined, field: string): string | undefined {
  if (!userId) return undefined
  try {
    return localStorage.getItem(keyOf(userId, field)) ?? undefined
  } catch {
    return undefined
  }
}

export function rememberValue(userId: string | undefined, field: string, value: unknown): void {
  if (!userId || typeof value !== 'string' || !value) return
  try {
    localStorage.setItem(keyOf(userId, field), value)
  } catch {
    // A browser that keeps nothing (private mode, full storage) just starts empty next time.
  }
}
