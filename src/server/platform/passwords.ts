import { hash, verify } from '@node-rs/argon2'

/** Argon2id (memory-hard) with the library's defaults: 19 MiB, 2 passes. */
export const hashPassword = (plain: string) => hash(plain)

export async function verifyPassword(stored: string | null | undefined, plain: string): Promise<boolean> {
  if (!stored) return false
  try {
    return await verify(stored, plain)
  } catch {
    return false
  }
}
