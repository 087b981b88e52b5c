import { createHmac, randomBytes } from 'node:crypto'

/** Seconds since the epoch at which the delivery was signed (each attempt signs again). */
export const TIMESTAMP_HEADER = 'x-webhook-timestamp'
/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with the subscription's secret>`. */
export const SIGNATURE_HEADER = 'x-webhook-signature'

/**
 * The signature of one delivery: HMAC-SHA256 with the subscription's secret over the timestamp, a dot
 * and the exact body bytes, so a receiver that checks it and refuses old timestamps is safe from forged
 * and replayed requests.
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

/** A new subscription's secret: 24 random bytes as hex, prefixed so it is recognised when pasted somewhere. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('hex')}`
