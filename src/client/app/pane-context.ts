import { createContext, useContext } from 'react'

/** The tab pane a component sits in: its tab's key and whether it is the tab shown. Outside the panes: shown, no key. */
export interface Pane {
  key?: string
  shown: boolean
}

export const PaneContext = createContext<Pane>({ shown: true })

export const usePane = (): Pane => useContext(PaneContext)
