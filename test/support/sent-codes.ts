import type { TestApp } from './test-app.js'

export interface SentCode {
  channel: string
  target: string
  code: string
}

/**
 * Records the verification codes the app sends (the sender writes them to the log or mails them;
 * the database keeps only their digest), so a test can type the code a user would have received.
 */
export function captureSentCodes(t: TestApp) {
  const sent: SentCode[] = []
  const sender = t.app.services.sender
  const original = sender.send.bind(sender)
  sender.send = async (channel, target, code, purpose) => {
    sent.push({ channel, target, code })
    return original(channel, target, code, purpose)
  }
  return {
    sent,
    /** The last code sent to the address; throws when none was. */
    last(target: string): string {
      const found = [...sent].reverse().find((s) => s.target === target)
      if (!found) throw new Error(`no code was sent to ${target}`)
      return found.code
    },
    count: (target: string) => sent.filter((s) => s.target === target).length,
  }
}
