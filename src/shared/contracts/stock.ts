import { defineCall } from './call.js'
import { documentCalls } from './document-calls.js'
import { singletonCalls } from './singleton-calls.js'

/** 盘点参数设置 (schemas/entities/take-stock-config.json), served by the engine's singleton family. */
export interface TakeStockConfig {
  showProduct: boolean
  showStock: boolean
  autoChangeStock: boolean
  allowChangeNum: boolean
  cancelHours?: number | null
  [field: string]: unknown
}

/** One receipt of a warehouse transfer (`GET /stock/transfer/sc/receive/detail`), newest first. */
export interface TransferReceipt {
  id: string
  productCode: string
  productName: string
  skuCode?: string
  receiveNum: number
  createBy: string
  createTime: string
}

/** A receipt of a transfer: the quantities received now, per product. */
export interface TransferReceive {
  id: string
  products: { productId: string; receiveNum: number }[]
}

/**
 * The engine serves these bases from the files named beside them; test/unit/stock-contracts.test.ts
 * holds each to its file's `api.base`.
 */
export const TAKE_STOCK_CONFIG_BASE = '/stock/take/config'
export const PRE_TAKE_STOCK_BASE = '/stock/take/pre'
export const TRANSFER_BASE = '/stock/transfer/sc'

/** A line of a stock-taking plan (`/stock/take/plan`): the snapshot, the moves during the count and the counts. */
export interface PlanLine {
  productId: string
  stockNum: number
  oriTakeNum: number | null
  takeNum: number | null
  totalInNum: number
  totalOutNum: number
}

/** The configuration flags the diff screen reads with the plan and echoes back. */
export interface PlanFlags {
  allowChangeNum: boolean
  autoChangeStock: boolean
}

/** A plan (wire names of schemas/entities/take-stock-plan.json). */
export type PlanRow = Record<string, unknown> & { id: string }
export type PlanDetail = PlanRow & PlanFlags & { details: (PlanLine & Record<string, unknown>)[] }

export type NewPlan = { scId: string; takeType: number; bizIds?: string[]; description: string }
/** 处理差异: the flags as read, and the final count of every line. */
export type PlanHandling = PlanFlags & { id: string; description: string; products: { productId: string; takeNum: number; description: string }[] }

/** Stock-taking: the configuration, the plans, and what a take sheet fills its lines from. */
export const takeStock = {
  config: singletonCalls<TakeStockConfig>(TAKE_STOCK_CONFIG_BASE),
  pre: documentCalls(PRE_TAKE_STOCK_BASE),
  /** A plan with its lines and the configuration flags. */
  planDetail: defineCall<{ id: string }, PlanDetail>('GET', '/stock/take/plan/detail'),
  createPlan: defineCall<NewPlan, string>('POST', '/stock/take/plan'),
  createDiff: defineCall<{ id: string }, null>('PATCH', '/stock/take/plan/diff'),
  handleDiff: defineCall<PlanHandling, null>('PATCH', '/stock/take/plan/handle'),
  cancelPlan: defineCall<{ id: string }, null>('PATCH', '/stock/take/plan/cancel'),
  removePlan: defineCall<{ id: string }, null>('DELETE', '/stock/take/plan'),
  /** The products of a plan for a take sheet, with the snapshot quantity when the config shows it. */
  planProducts: defineCall<{ planId: string }, Record<string, unknown>[]>('GET', '/stock/take/plan/products'),
  /** A pre-take sheet's counts (the number of its take status), only of the plan's products when given. */
  preProducts: defineCall<{ id: string; planId?: string }, { productId: string; takeNum: number | null }[]>('GET', '/stock/take/pre/products'),
}

/** Warehouse transfers: the document family and the receipts (domain-rules §2.5). */
export const transfer = {
  ...documentCalls(TRANSFER_BASE),
  receive: defineCall<TransferReceive, null>('PATCH', `${TRANSFER_BASE}/receive`),
  receiveDetail: defineCall<{ id: string }, TransferReceipt[]>('GET', `${TRANSFER_BASE}/receive/detail`),
}

/** What a line table asks: the products of its lines, in the header's warehouse. */
export interface WarehouseStockParams {
  scId: string
  productIds: string[]
}

/** A product's available stock in the warehouse (a bundle's from its components). */
export interface WarehouseStock {
  productId: string
  stockNum: number
}

/** Most products one call answers: a line table holds at most 5000 lines (a document's `maxLines`). */
export const WAREHOUSE_STOCK_MAX = 5000

/**
 * The stock a document's lines show (documents declaring `lineStock`): one call per line table, a
 * body because a table of thousands of lines would not fit a query string. Products the user may not
 * see (data permission) or that do not exist are left out of the answer.
 */
export const warehouseStock = defineCall<WarehouseStockParams, WarehouseStock[]>('POST', '/stock/product/warehouseStock')
