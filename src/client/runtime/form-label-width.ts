import { textWidth } from './text-width.js'

/**
 * The label column of a form, from its labels as shown: never narrower than declared, wide enough that
 * the longest label takes at most two lines (a label squeezed into a narrow column wraps letter by
 * letter), and no wider than a share of the row an input needs.
 */

/** Beyond this a label wraps onto a second line rather than take the input's room. */
export const MAX_LABEL_WIDTH = 160
/** The required mark, the colon and the label's padding beside the text. */
const LABEL_CHROME = 26

export function formLabelWidth(labels: readonly string[], declared: number, measure: (text: string) => number = textWidth): number {
  const longest = Math.ceil(Math.max(0, ...labels.map(measure))) + LABEL_CHROME
  if (longest <= declared) return declared
  if (longest <= MAX_LABEL_WIDTH) return longest
  // Two lines of the longest label, or the cap when that is wider.
  return Math.max(declared, Math.min(MAX_LABEL_WIDTH, Math.ceil((longest - LABEL_CHROME) / 2) + LABEL_CHROME))
}
