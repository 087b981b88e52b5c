import dayjs from 'dayjs'

/** Timestamps as stored and answered: local time `YYYY-MM-DD HH:mm:ss` (the spec's wire format). */
export const now = () => dayjs().format('YYYY-MM-DD HH:mm:ss')
export const later = (minutes: number) => dayjs().add(minutes, 'minute').format('YYYY-MM-DD HH:mm:ss')
export const today = () => dayjs().format('YYYY-MM-DD')
