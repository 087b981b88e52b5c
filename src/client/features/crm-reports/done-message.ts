import { App } from 'antd'
import { mutate } from 'swr'
import { useFeedback } from '../../components/feedback.js'
import { crmReports } from '../../../shared/contracts/crm-reports.js'

/**
 * The success message of a page that closes its own tab when done: shown by the shell's holder, which
 * outlives the page (the page's own holder unmounts with it).
 */
export function useDoneMessage(): (text: string) => void {
  const { message } = useFeedback()
  const app = App.useApp()
  return (text) => void (typeof app.message?.success === 'function' ? app.message : message).success(text)
}

/** Lists and statistics of this feature whose SWR keys start with one of these: refreshed after a write (their tabs stay mounted). */
const FEATURE_KEYS = [
  'crm-work-reports',
  'crm-claims',
  ...[crmReports.workReports, crmReports.weekStatis, crmReports.monthStatis, crmReports.claimDetail, crmReports.approveClaims].map((c) => c.path),
]

export function refreshReports(): void {
  void mutate((key) => Array.isArray(key) && FEATURE_KEYS.includes(String(key[0])))
}
