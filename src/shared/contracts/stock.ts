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

/** Stock-taking: the configuration, and what a take sheet fills its lines from. */
export const takeStock = {
  config: singletonCalls<TakeStockConfig>(TAKE_STOCK_CONFIG_BASE),
  pre: documentCalls(PRE_TAKE_STOCK_BASE),
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
