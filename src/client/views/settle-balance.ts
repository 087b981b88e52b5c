import type { BalanceSide } from './settle-balance-sides.js'
import type { ListSource } from '../runtime/list-source.js'
import { term } from '../i18n/term.js'

/**
 * 供应商往来余额 / 客户往来余额 (`{side.base}`): every party with settlement ledger rows, its balance (应付 /
 * 应收) and how many documents are still open, searchable by code and name, 仅显示余额不为0.
 */
export function balanceView(side: BalanceSide): ListSource {
  return {
    name: 'settle-balance',
    path: side.base,
    fields: {
      code: { type: 'string', label: term(`${side.partyLabel}编号`) },
      name: { type: 'string', label: term(`${side.partyLabel}名称`) },
      onlyNonZero: { type: 'boolean', label: term('仅显示余额不为0') },
    },
    query: [{ field: 'code' }, { field: 'name' }, { field: 'onlyNonZero', check: true }],
    rowKey: 'partyId',
    export: { path: `${side.base}/export`, method: 'post', permission: side.exportKey },
    columns: [
      { key: 'partyCode', title: term(`${side.partyLabel}编号`), width: 140, ellipsis: false },
      { key: 'partyName', title: term(`${side.partyLabel}名称`), width: 200 },
      { key: 'balance', title: side.balanceLabel, width: 150, numeric: true },
      { key: 'documents', title: term('未结清单据数'), width: 120, numeric: true },
    ],
  }
}

/** The documents behind one party's balance (`{side.base}/documents`), by default only those still open. */
export function balanceDocumentsView(side: BalanceSide): ListSource {
  return {
    name: 'settle-balance-documents',
    path: `${side.base}/documents`,
    fields: { onlyOpen: { type: 'boolean', label: term('仅显示未结清单据') } },
    query: [{ field: 'onlyOpen', check: true, default: true }],
    rowKey: ['againstType', 'againstId'],
    size: 'small',
    export: { path: `${side.base}/documents/export`, method: 'post', permission: side.exportKey },
    columns: [
      { key: 'againstTypeName', title: term('单据类型'), width: 140 },
      { key: 'againstCode', title: term('单据号'), width: 200 },
      { key: 'totalAmount', title: term('单据金额'), width: 140, numeric: true },
      { key: 'outstanding', title: term('未结金额'), width: 140, numeric: true },
      { key: 'firstTime', title: term('记账时间'), width: 170 },
    ],
  }
}
