import { Grid } from 'antd'

/**
 * A phone-sized window (below antd's md breakpoint, 768 px): the shell turns into the mobile shell and
 * lists show card rows with their search behind a button. Undefined breakpoints (the first render) count as wide.
 */
export function useNarrowScreen(): boolean {
  return Grid.useBreakpoint().md === false
}
