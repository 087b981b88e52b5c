/**
 * The 主表别名 proposed for a table: the initials of its words (base_data_product → bdp), as the server
 * accepts an alias (lower-case letters and digits, a letter first, not `custom`).
 */
export function proposedAlias(tableName: string): string {
  const words = tableName.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)
  const initials = words.map((w) => w[0]).join('').replace(/^[0-9]+/, '')
  const alias = initials || 't'
  return alias === 'custom' ? 't' : alias
}
