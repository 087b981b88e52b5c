import { useEffect, useState } from 'react'

/** Seconds before a verification code may be asked for again. */
export const CODE_RESEND_SECONDS = 60

/** A one-second countdown: `start()` sets it, it ticks down to 0. */
export function useCountdown(): [number, () => void] {
  const [left, setLeft] = useState(0)
  useEffect(() => {
    if (left <= 0) return
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000)
    return () => clearTimeout(timer)
  }, [left])
  return [left, () => setLeft(CODE_RESEND_SECONDS)]
}
