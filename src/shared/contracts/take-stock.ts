import { defineCall } from './call.js'

/** Stock-taking plans (`/stock/take/plan`, 001 §7; server: modules/stock-docs/take-stock.ts). */

/** A plan line: the snapshot, the moves during the count and the counts. */
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

export const takeStock = {
  detail: defineCall<{ id: string }, PlanDetail>('GET', '/stock/take/plan/detail'),
  create: defineCall<NewPlan, string>('POST', '/stock/take/plan'),
  createDiff: defineCall<{ id: string }, null>('PATCH', '/stock/take/plan/diff'),
  handle: defineCall<PlanHandling, null>('PATCH', '/stock/take/plan/handle'),
  cancel: defineCall<{ id: string }, null>('PATCH', '/stock/take/plan/cancel'),
  remove: defineCall<{ id: string }, null>('DELETE', '/stock/take/plan'),
}
