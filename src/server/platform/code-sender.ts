import nodemailer from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'

export type Channel = 'mail' | 'sms'

/**
 * Sends verification codes. Mail goes through SMTP when SMTP_URL is set; SMS has no provider
 * configured in this build, so SMS codes (and mail codes without SMTP) are written to the server log,
 * as the README says.
 */
export class CodeSender {
  private readonly transport?: nodemailer.Transporter

  constructor(
    private readonly log: FastifyBaseLogger,
    smtpUrl: string | undefined,
    private readonly from: string,
  ) {
    if (smtpUrl) this.transport = nodemailer.createTransport(smtpUrl)
  }

  /**
   * Sends without making the caller wait: a request that issues a code answers as fast for an
   * account that exists as for one that does not; a failed delivery is logged.
   */
  dispatch(channel: Channel, target: string, code: string, purpose: string): void {
    this.send(channel, target, code, purpose).catch((error: unknown) => this.log.error({ err: error, channel, target }, 'verification code not delivered'))
  }

  async send(channel: Channel, target: string, code: string, purpose: string): Promise<void> {
    const text = `您的验证码是 ${code}，5分钟内有效（${purpose}）。`
    if (channel === 'mail' && this.transport) {
      await this.transport.sendMail({ from: this.from, to: target, subject: '验证码', text })
      return
    }
    this.log.warn({ channel, target, code, purpose }, `verification code for ${target}: ${code}`)
  }
}
