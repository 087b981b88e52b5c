import { v7 } from 'uuid'

/** Time-ordered string ids (UUIDv7 without dashes): sortable, index-friendly, safe to expose. */
export const newId = () => v7().replaceAll('-', '')
