import { fillHeaderSlot } from '../../app/header-slots.js'
import { BusBridge } from './BusBridge.js'

/** The bus connection of the signed-in shell lives in a header slot (it shows nothing itself, only notifications). */
fillHeaderSlot('bus', BusBridge)
