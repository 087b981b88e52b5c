/**
 * How many writes this browser has had answered: every request but a GET (or a POST its contract declares a
 * read) that succeeds counts one.
 * Screens kept open in hidden tabs compare it to know that what they read may be stale
 * (app/pane-freshness.ts).
 */
let generation = 0

export function noteWrite(): void {
  generation += 1
}

export function writeGeneration(): number {
  return generation
}
