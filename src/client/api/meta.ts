import useSWR from 'swr'
import type { EntityFile } from '../../shared/generated/entity.js'
import { meta as metaCalls, type MetaBundle } from '../../shared/contracts/meta.js'
import { buildEntityModel, type EntityModel } from '../../shared/metadata/entity-model.js'
import { EnumCatalog } from '../../shared/metadata/enum-catalog.js'
import { call } from './call.js'
import { useLocale } from '../i18n/current-locale.js'
import { localizeEntityFile } from '../i18n/localize-entity.js'
import { translatorOf } from '../../shared/i18n/catalogue.js'
import type { Locale } from '../../shared/i18n/locales.js'

export type { MetaBundle }

export interface Meta {
  entity(name: string): EntityModel
  /** The entity, or undefined when no file describes it. */
  entityOrUndefined(name: string): EntityModel | undefined
  /** The entity whose picker view has this kind (`/selector/{kind}`). */
  pickerEntity(kind: string): EntityModel | undefined
  enums: EnumCatalog
  /** Every entity model (document headers and their line entities included). */
  all(): EntityModel[]
}

/** The metadata as a language shows it: labels, titles and enumeration texts in that language. */
function toMeta(bundle: MetaBundle, locale: Locale): Meta {
  const t = translatorOf(locale)
  const shown = (f: EntityFile) => (locale === 'zh-CN' ? f : localizeEntityFile(f, t))
  const models = new Map(Object.values(bundle.entities).map((f) => [f.name, buildEntityModel(shown(f), locale)]))
  const byKind = new Map([...models.values()].filter((m) => m.file.views?.picker).map((m) => [m.file.views!.picker!.kind, m]))
  return {
    entity(name) {
      const m = models.get(name)
      if (!m) throw new Error(t(`未知的实体：${name}`))
      return m
    },
    entityOrUndefined: (name) => models.get(name),
    pickerEntity: (kind) => byKind.get(kind),
    enums: new EnumCatalog(bundle.enums, locale),
    all: () => [...models.values()],
  }
}

let lastLoaded: Meta | undefined

/**
 * The metadata once some component has loaded it, for synchronous callers such as the page registry's
 * resolvers (the shell resolves its pages again when the metadata arrives).
 */
export const loadedMeta = (): Meta | undefined => lastLoaded

const byLocale = new WeakMap<MetaBundle, Map<Locale, Meta>>()

/** The swr key of the metadata: the files are the server's, the same for every session, so the path alone. */
export const META_KEY = metaCalls.bundle.path
export const readMetaBundle = () => call(metaCalls.bundle)

/** Entity files and enumerations from the server (`GET /meta/bundle`), fetched once per session, shown in the chosen language. */
export function useMeta(): Meta | undefined {
  const locale = useLocale()
  const { data } = useSWR(META_KEY, readMetaBundle, { revalidateOnFocus: false, revalidateIfStale: false })
  if (!data) return undefined
  let metas = byLocale.get(data)
  if (!metas) byLocale.set(data, (metas = new Map()))
  let meta = metas.get(locale)
  if (!meta) metas.set(locale, (meta = toMeta(data, locale)))
  lastLoaded = meta
  return meta
}
