import { sql, type RawBuilder } from 'kysely'
import { invalid } from '../platform/errors.js'

/**
 * Custom SQL columns of a data object (admin-authored, e.g. `p.retail_price - p.purchase_price`).
 * They are never pasted into a query as text. The expression is tokenised and every token checked
 * against allow-lists: `alias.column` only for the data object's own aliases and columns, a fixed set
 * of scalar functions and expression keywords, numbers, single-quoted strings and operators. So no
 * `;`, no comments, no sub-query (`select`/`from` are refused), no DML/DDL, no other table: the column
 * can only combine values of the row it sits in. Identifiers are rendered quoted through `sql.ref`;
 * the query wraps the expression in parentheses as one scalar sub-expression.
 * Residual risk (documented): an admin can still write an expression that is slow or fails at run time
 * (e.g. division by zero on PostgreSQL); it can not read or change anything outside the row.
 */

const FORBIDDEN = new Set([
  'select', 'from', 'union', 'insert', 'update', 'delete', 'drop', 'alter', 'create', 'truncate', 'merge', 'grant',
  'revoke', 'attach', 'detach', 'pragma', 'vacuum', 'exec', 'execute', 'call', 'copy', 'into', 'where', 'join',
  'returning', 'with', 'load_extension', 'set', 'begin', 'commit', 'rollback', 'reindex', 'analyze',
])
const FUNCTIONS = new Set(['coalesce', 'nullif', 'abs', 'round', 'upper', 'lower', 'length', 'trim', 'ltrim', 'rtrim', 'substr', 'substring', 'replace', 'cast'])
const KEYWORDS = new Set([
  'case', 'when', 'then', 'else', 'end', 'and', 'or', 'not', 'null', 'is', 'in', 'like', 'between', 'true', 'false', 'as',
  'integer', 'int', 'bigint', 'real', 'numeric', 'decimal', 'text', 'varchar', 'char', 'date', 'timestamp',
])
const OPERATORS = ['||', '<=', '>=', '<>', '!=', '+', '-', '*', '/', '%', '(', ')', ',', '<', '>', '=']
const MAX_LENGTH = 2000

export type SqlToken =
  | { kind: 'ref'; alias: string; column: string }
  | { kind: 'raw'; text: string }

/** Which columns each alias of the data object offers. */
export type ColumnScope = ReadonlyMap<string, ReadonlySet<string>>

export function parseCustomSql(source: unknown, scope: ColumnScope, where = '自定义SQL'): SqlToken[] {
  if (typeof source !== 'string' || !source.trim()) throw invalid(`${where}：请输入自定义SQL`)
  const text = source.trim()
  if (text.length > MAX_LENGTH) throw invalid(`${where}：长度不能超过${MAX_LENGTH}个字符`)
  if (text.includes(';')) throw invalid(`${where}：不允许包含分号`)
  if (text.includes('--') || text.includes('/*') || text.includes('*/') || text.includes('#')) throw invalid(`${where}：不允许包含注释`)
  const tokens: SqlToken[] = []
  let depth = 0
  let i = 0
  while (i < text.length) {
    const rest = text.slice(i)
    const space = /^\s+/.exec(rest)
    if (space) {
      i += space[0].length
      continue
    }
    const str = /^'(?:[^'\\]|'')*'/.exec(rest)
    if (str) {
      tokens.push({ kind: 'raw', text: str[0] })
      i += str[0].length
      continue
    }
    if (rest[0] === "'") throw invalid(`${where}：字符串未结束或包含反斜杠`)
    const num = /^\d+(\.\d+)?(?![A-Za-z_])/.exec(rest)
    if (num) {
      tokens.push({ kind: 'raw', text: num[0] })
      i += num[0].length
      continue
    }
    const ident = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?/.exec(rest)
    if (ident) {
      i += ident[0].length
      const [, first, second] = ident
      const lower = first.toLowerCase()
      if (second !== undefined) {
        if (!scope.get(first)?.has(second)) throw invalid(`${where}：字段【${first}.${second}】不存在`)
        tokens.push({ kind: 'ref', alias: first, column: second })
        continue
      }
      if (FORBIDDEN.has(lower)) throw invalid(`${where}：不允许包含关键字【${first}】`)
      const call = /^\s*\(/.test(text.slice(i))
      if (call ? !FUNCTIONS.has(lower) : !KEYWORDS.has(lower)) {
        throw invalid(call ? `${where}：不允许使用函数【${first}】` : `${where}：字段【${first}】必须写成“别名.字段名”`)
      }
      tokens.push({ kind: 'raw', text: lower })
      continue
    }
    const op = OPERATORS.find((o) => rest.startsWith(o))
    if (!op) throw invalid(`${where}：不允许包含字符【${rest[0]}】`)
    if (op === '(') depth++
    if (op === ')' && --depth < 0) throw invalid(`${where}：括号不匹配`)
    tokens.push({ kind: 'raw', text: op })
    i += op.length
  }
  if (depth !== 0) throw invalid(`${where}：括号不匹配`)
  if (!tokens.length) throw invalid(`${where}：请输入自定义SQL`)
  return tokens
}

/** The checked expression as one parenthesised scalar sub-expression. */
export function renderCustomSql(tokens: readonly SqlToken[]): RawBuilder<unknown> {
  const parts = tokens.map((t) => (t.kind === 'ref' ? sql.ref(`${t.alias}.${t.column}`) : sql.raw(t.text)))
  return sql`(${sql.join(parts, sql.raw(' '))})`
}
