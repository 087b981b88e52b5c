import { registerCatalogues } from './catalogue.js'
import messagesEnUS from './messages.en-US.json'
import messagesZhHK from './messages.zh-HK.json'
import termsEnUS from './terms.en-US.json'
import termsZhHK from './terms.zh-HK.json'

/** Every language's catalogues, registered on import: what the server (and the tests) translate with. */
export const CATALOGUES = {
  'en-US': { terms: termsEnUS, messages: messagesEnUS },
  'zh-HK': { terms: termsZhHK, messages: messagesZhHK },
} as const

registerCatalogues('en-US', CATALOGUES['en-US'])
registerCatalogues('zh-HK', CATALOGUES['zh-HK'])

export { catalogueOf, translatorOf } from './catalogue.js'
