import { useEffect, useRef } from 'react'
import { unstable_serialize, type Key, type Middleware, type SWRResponse } from 'swr'
import { writeGeneration } from '../api/write-generation.js'
import { usePane } from './pane-context.js'

/** What a read was when its tab was hidden: the writes counted then and its key. */
interface Left {
  generation: number
  key: string
}

/**
 * Every read of a tab pane (shell/TabPanes.tsx), so a hidden tab does no work: while its tab is hidden a
 * read is unhooked from swr (no fetch on a write elsewhere, a focus or a poll, and no render when a shared
 * key changes) and answers what it last showed. Shown again, it reads afresh only if what it read may be
 * stale: this browser wrote meanwhile (api/write-generation.ts: another tab approved, settled or saved) or
 * its key changed while hidden; otherwise it shows the cache as it is, without a call.
 *
 * Unhooking (a null key) rather than swr's `isPaused` also keeps a hidden read from being the one swr asks
 * to reload a key shared with the shown tab (swr asks only the first read of a key, and a paused one
 * declines), and lets a read first keyed while hidden load when shown.
 */
export const paneFreshness: Middleware = (useSWRNext) => (key, fetcher, config) => {
  const { shown } = usePane()
  const left = useRef<Left | null>(null)
  const lastKey = useRef<string>('')
  const lastAnswer = useRef<SWRResponse | null>(null)
  const serialized = unstable_serialize(key as Key)
  const stale = left.current !== null && (left.current.generation !== writeGeneration() || left.current.key !== serialized)
  // Back from hidden: swr would revalidate a key it hooks again as on a mount, but deduplicated: within its
  // dedupingInterval (2 s) of the last read it answers that read again, so a write made meanwhile (an approval
  // in another tab a second after the list was read) stayed unseen. A stale read with a cache is read afresh
  // below instead. A read that keeps its cache even on a mount (revalidateIfStale: false, the metadata's) keeps it here too.
  const returning = left.current !== null && shown
  const answer = useSWRNext(shown ? key : null, fetcher, returning ? { ...config, revalidateIfStale: false } : config)
  const refresh = returning && stale && config.revalidateIfStale !== false && answer.data !== undefined
  useEffect(() => {
    if (refresh) void answer.mutate()
  }, [refresh, answer])
  useEffect(() => {
    if (shown) {
      left.current = null
      lastKey.current = serialized
    } else if (left.current === null) left.current = { generation: writeGeneration(), key: lastKey.current }
  }, [shown, serialized])
  if (shown) lastAnswer.current = answer
  return !shown && lastAnswer.current ? lastAnswer.current : answer
}
