import type { EnumCatalog } from '../../../shared/metadata/enum-catalog.js'

const BIZ_TYPES = 'ORDER_TIME_LINE_BIZ_TYPE'

/**
 * The dot colour of a timeline entry (000 §4): its biz type's colour in the enumeration (approve pass
 * green, refuse and cancel red), blue for the types that name none.
 */
export const timelineColour = (enums: EnumCatalog, bizType: number): string => enums.items(BIZ_TYPES).find((i) => i.code === bizType)?.color ?? 'blue'
