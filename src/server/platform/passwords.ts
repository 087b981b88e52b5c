import crypto from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'

/** Argon2id (memory-hard) with the library's defaults: 19 MiB, 2 passes. */
export const hashPassword = (plain: string) => hash(plain)

/**
 * A hash with the same parameters as real ones, of a password nobody knows: checking against it
 * takes as long as checking a real account, so an unknown user (or one without a password) cannot
 * be told apart by the answer's timing.
 */
let dummyHash: Promise<string> | undefined
const dummy = () => (dummyHash ??= hash(crypto.randomUUID()))

/** Computes the dummy hash at start-up, so even the first unknown name costs one verify, not a hash and a verify. */
export function prepareDummyHash(): void {
  dummy().catch(() => {
    dummyHash = undefined
  })
}

export async function verifyPassword(stored: string | null | undefined, plain: string): Promise<boolean> {
  try {
    if (!stored) {
      await verify(await dummy(), plain)
      return false
    }
    return await verify(stored, plain)
  } catch {
    return false
  }
}
