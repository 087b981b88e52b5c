import dayjs from 'dayjs'
import { sql } from 'kysely'
import type { Db } from '../db/dialect.js'
import type { EntityModel, FieldModel } from '../../shared/metadata/entity-model.js'
import type { Field } from '../../shared/generated/entity.js'
import { CODE_RULE_DATE } from '../../shared/generated/enum-codes.js'
import { operationKeys } from '../../shared/metadata/operation-keys.js'
import { auditColumns, type Actor } from '../platform/audit-columns.js'
import { invalid } from '../platform/errors.js'
import { newId } from '../platform/ids.js'
import type { EntityRegistry } from './entity-registry.js'
import type { Wire } from './record-codec.js'

/**
 * Numbering rules (schemas/entities/code-rule.json): a field that declares `numbering` takes its codes
 * from the tenant's rule for it, prefix + date part + a sequence that restarts with each period.
 */

type Numbering = NonNullable<Field['numbering']>

export interface NumberedField {
  /** `entity.field`, the rule's key. */
  target: string
  entity: EntityModel
  field: FieldModel & { numbering: Numbering }
}

const RULE_TABLE = 'sys_code_rule'
const DATE_CODE: Record<Numbering['date'], number> = {
  none: CODE_RULE_DATE.NONE,
  year: CODE_RULE_DATE.YEAR,
  month: CODE_RULE_DATE.MONTH,
  day: CODE_RULE_DATE.DAY,
}
/** The date part each `dateFormat` writes (and the period its sequence counts in). */
const DATE_PATTERN: Record<number, string> = {
  [CODE_RULE_DATE.NONE]: '',
  [CODE_RULE_DATE.YEAR]: 'YYYY',
  [CODE_RULE_DATE.MONTH]: 'YYYYMM',
  [CODE_RULE_DATE.DAY]: 'YYYYMMDD',
}

/** Every field of the app that declares a numbering rule. */
export function numberedFields(registry: EntityRegistry): NumberedField[] {
  const out: NumberedField[] = []
  for (const entity of registry.all())
    for (const field of entity.fields)
      if (field.numbering) out.push({ target: `${entity.name}.${field.name}`, entity, field: field as NumberedField['field'] })
  return out
}

export function numberedField(registry: EntityRegistry, target: unknown): NumberedField {
  const found = typeof target === 'string' ? numberedFields(registry).find((n) => n.target === target) : undefined
  if (!found) throw invalid('编号规则不存在', 'target')
  return found
}

/** Keys that may take a code of `numbered`: whoever may create such a record. */
export const codeKeys = (numbered: NumberedField): string[] => [...operationKeys(numbered.entity, 'create'), ...(numbered.field.numbering.keys ?? [])]

const ruleName = (n: NumberedField) => `${n.entity.label} · ${n.field.label}`

/**
 * The tenant's rule of each numbered field, made from the field's declaration when missing (a tenant
 * provisioned or migrated): run at start-up, never by a read. An existing rule keeps the admin's
 * prefix, date part and width; only its name follows the files.
 */
export async function ensureCodeRules(db: Db, registry: EntityRegistry, actor: Actor): Promise<void> {
  const rows = await db.selectFrom(RULE_TABLE).select(['target', 'name']).execute()
  const existing = new Map(rows.map((r) => [String(r.target), r.name]))
  for (const n of numberedFields(registry)) {
    if (existing.has(n.target)) {
      if (existing.get(n.target) !== ruleName(n)) await db.updateTable(RULE_TABLE).set({ name: ruleName(n) }).where('target', '=', n.target).execute()
      continue
    }
    const { prefix, date, digits } = n.field.numbering
    await db
      .insertInto(RULE_TABLE)
      .values({ id: newId(), target: n.target, name: ruleName(n), prefix, date_format: DATE_CODE[date], digits, period: null, last_value: 0, ...auditColumns(actor) })
      .onConflict((oc) => oc.column('target').doNothing())
      .execute()
  }
}

/** Length of the codes a rule makes: prefix, date part and the sequence's width. */
const codeLength = (rule: Wire) => String(rule.prefix ?? '').length + (DATE_PATTERN[Number(rule.dateFormat)] ?? '').length + Number(rule.digits)

/** A rule as modified (`merged`) must make codes its field accepts. */
export function checkCodeRule(registry: EntityRegistry, merged: Wire): void {
  const numbered = numberedField(registry, merged.target)
  const max = numbered.field.maxLength ?? 20
  if (codeLength(merged) > max) throw invalid(`前缀、日期部分与流水号位数合计不能超过${max}位（${numbered.field.label}的长度）`, 'digits')
}

/**
 * The next code of a rule, counted in one guarded statement: the rule's row lock (PostgreSQL) or the
 * single writer (SQLite) gives every caller of every process its own number; a new period restarts at 1.
 * A code someone typed by hand is skipped. Runs in the caller's transaction: a rollback gives it back.
 */
export async function nextCode(trx: Db, numbered: NumberedField, today = dayjs()): Promise<string> {
  const period = sql<string>`case date_format when ${CODE_RULE_DATE.NONE} then '' when ${CODE_RULE_DATE.YEAR} then ${today.format('YYYY')} when ${CODE_RULE_DATE.MONTH} then ${today.format('YYYYMM')} else ${today.format('YYYYMMDD')} end`
  const { entity, field } = numbered
  const max = field.maxLength ?? 20
  for (;;) {
    const rule = await trx
      .updateTable(RULE_TABLE)
      .set({
        last_value: sql`case when coalesce(period, '-') = ${period} then last_value + 1 else 1 end`,
        period,
      })
      .where('target', '=', numbered.target)
      .returning(['prefix', 'date_format', 'digits', 'last_value'])
      .executeTakeFirst()
    if (!rule) throw invalid('编号规则不存在', 'target')
    const pattern = DATE_PATTERN[Number(rule.date_format)]
    // dayjs formats an empty pattern as a whole ISO date.
    const date = pattern ? today.format(pattern) : ''
    const code = `${rule.prefix ?? ''}${date}${String(rule.last_value).padStart(Number(rule.digits), '0')}`
    if (code.length > max) throw invalid(`${field.label}的流水号已用完，请修改编号规则`, 'target')
    const taken = await trx.selectFrom(entity.table).select('id').where(field.column, '=', code).executeTakeFirst()
    if (!taken) return code
  }
}
