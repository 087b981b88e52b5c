/** Messages between the page and the script worker. */

export type Settled = { ok: true; value: unknown } | { ok: false; error: string }

export interface ScriptRequest {
  id: number
  /** A function body; `params` name its arguments. */
  source: string
  params: readonly string[]
  /** One argument list per call: a page of formatter cells goes in one request. */
  argsList: readonly (readonly unknown[])[]
  timeoutMs: number
}

export type ScriptReply = { id: number; ok: true; results: Settled[] } | { id: number; ok: false; error: string }
