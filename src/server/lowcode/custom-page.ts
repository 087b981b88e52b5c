import type { Services } from '../engine/services.js'
import { CUSTOM_PAGE } from './runtime-access.js'
import { checkScript, scriptText } from './script-check.js'

/** A custom page's `componentConfig` is a script body returning the page's configuration: compiled on save. */
export function registerCustomPageHooks(services: Services): void {
  services.hooks.on(CUSTOM_PAGE, {
    async beforeSave({ values }) {
      if ('componentConfig' in values) await checkScript(scriptText(values.componentConfig), 'pageConfig', '组件配置', 'componentConfig')
    },
  })
}
