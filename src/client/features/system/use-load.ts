import { useEffect, useState } from 'react'
import { ApiError } from '../../api/http.js'

export interface Loaded<T> {
  data?: T
  /** The failure's message (the api layer has already shown it to the user). */
  error?: string
  loading: boolean
}

/**
 * Fetches what a dialog needs once when it opens (and again when `key` changes). Dialogs show the
 * state of the moment they open, so nothing is cached between openings.
 */
export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ loading: true })
  useEffect(() => {
    let live = true
    setState({ loading: true })
    load().then(
      (data) => live && setState({ data, loading: false }),
      (e: unknown) => live && setState({ error: e instanceof ApiError || e instanceof Error ? e.message : String(e), loading: false }),
    )
    return () => {
      live = false
    }
    // `load` is a new closure on every render; `key` names what it loads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])
  return state
}

/** A record's boolean as the list answers it (true, 1, "1", "true"). */
export const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true'

/** A record's display name for dialog titles. */
export const nameOf = (row: Record<string, unknown>) => String(row.name ?? row.title ?? row.code ?? row.id ?? '')
