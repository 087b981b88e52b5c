import { defineCall, defineRead, type Page, type PageParams } from './call.js'

/** A row of a picker as the server answers it: the picker view's columns, ref labels beside the ids. */
export type PickerRow = Record<string, unknown> & { id: string }

/**
 * What a picker sends: its filters' conditions that carry a value, the paging params, `available`
 * (enabled unless `all`) and, for a picker with `warehouseStock`, its warehouse param.
 */
export type PickerParams = PageParams & Record<string, unknown>

/**
 * The calls of the picker of `kind` (an entity's `views.picker.kind`): the server registers them for
 * every entity with a picker view (engine/selector-routes.ts) and the picker dialogs call them.
 */
export function pickerCalls(kind: string) {
  return {
    /** A page of rows; a tree entity's picker answers every row in one page. */
    page: defineCall<PickerParams, Page<PickerRow>>('GET', `/selector/${kind}`),
    /** The rows of these ids (labels of saved values). */
    load: defineRead<string[], PickerRow[]>(`/selector/${kind}/load`),
  }
}

/** `GET /selector/{kind}`, the call of a picker dialog. */
export const pickerCall = (kind: string) => pickerCalls(kind).page

/** `GET {path}`: one of a picker view's `types`, the same rows for another user of the picker (e.g. the sale side's purchase orders). */
export const pickerTypeCall = (path: string) => defineCall<PickerParams, Page<PickerRow>>('GET', path)
