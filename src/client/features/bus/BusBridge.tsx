import { useEffect } from 'react'
import { App } from 'antd'
import { useSWRConfig } from 'swr'
import { useSession } from '../../app/session.js'
import { BusEvent, type BusMessage, type PresenceEvent } from '../../../shared/contracts/bus.js'
import { refreshMyNotices } from '../notice/notice-api.js'
import { BUS_RECONNECTED, onBus, startBus, stopBus } from './bus-socket.js'
import { refreshBusMessages } from './bus-api.js'
import { tr } from '../../i18n/use-tr.js'

/** 000 §2: the online/offline notification, bottom right, for 2 seconds. */
export const PRESENCE_SECONDS = 2

const isMessage = (payload: unknown): payload is BusMessage =>
  !!payload && typeof payload === 'object' && 'bizType' in payload && 'createTime' in payload

/**
 * Holds the bus connection of the signed-in shell (connects with the token, closes on logout) and
 * turns its events into what the user sees: a published notice refreshes the bell at once, a message
 * for the user refreshes the bell's messages (both are read again after a lost connection is back), and
 * colleagues coming online or going offline show a short notification with name, IP and time.
 */
export function BusBridge() {
  const { token } = useSession()
  const { notification } = App.useApp()
  const { mutate } = useSWRConfig()

  useEffect(() => {
    if (!token) {
      stopBus()
      return
    }
    startBus(token)
    return () => stopBus()
  }, [token])

  useEffect(
    () =>
      onBus((event, payload) => {
        if (event === BusEvent.userOnline || event === BusEvent.userOffline) {
          const p = payload as PresenceEvent
          notification.info({
            key: `presence-${p.userId}`,
            className: 'bus-presence',
            message: tr(event === BusEvent.userOnline ? `${p.name} 上线了` : `${p.name} 下线了`),
            description: tr(`IP：${p.ip}　时间：${p.time}`),
            placement: 'bottomRight',
            duration: PRESENCE_SECONDS,
            // 2 seconds, also under the pointer: it pops up over the bottom right of the page (a table's 操作
            // column), where a clerk's pointer often rests, and a notice held by it hid the buttons beneath
            // for as long as the pointer stayed. × still closes it sooner.
            pauseOnHover: false,
          })
          return
        }
        if (event === BUS_RECONNECTED) {
          refreshMyNotices(mutate)
          refreshBusMessages(mutate)
          return
        }
        if (event === BusEvent.sysNotice) refreshMyNotices(mutate)
        if (isMessage(payload) && payload.userId) refreshBusMessages(mutate)
      }),
    [notification, mutate],
  )
  return null
}
