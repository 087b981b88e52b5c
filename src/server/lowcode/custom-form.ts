import type { Services } from '../engine/services.js'
import { invalid } from '../platform/errors.js'
import type { Wire } from '../engine/record-codec.js'
import { CUSTOM_FORM } from './custom-list-config.js'
import { formHandler } from './form-handlers.js'
import { text } from './lowcode-values.js'
import { checkScript, scriptText } from './script-check.js'

/**
 * `formConfig` is the Formily JSON schema of the form, kept as JSON text. It must parse to an object
 * schema (`type: 'object'` with `properties`); the browser renders it as is.
 */
export function checkFormConfig(raw: unknown): string {
  let parsed: unknown = raw
  if (typeof raw === 'string') {
    try {
      parsed = JSON.parse(raw)
    } catch {
      throw invalid('表单配置不是合法的JSON', 'formConfig')
    }
  }
  const schema = parsed as Record<string, unknown> | null
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw invalid('表单配置必须是JSON对象', 'formConfig')
  if (schema.type !== 'object' || !schema.properties || typeof schema.properties !== 'object' || Array.isArray(schema.properties))
    throw invalid('表单配置必须是type为object且包含properties的JSON Schema', 'formConfig')
  return typeof raw === 'string' ? raw : JSON.stringify(parsed)
}

export function registerCustomFormHooks(services: Services): void {
  services.hooks.on(CUSTOM_FORM, {
    async beforeSave({ values, existing }) {
      const merged: Wire = { ...existing, ...values }
      if ('formConfig' in values) values.formConfig = checkFormConfig(values.formConfig)
      if ('prefixSubmit' in values) await checkScript(scriptText(values.prefixSubmit), 'submitHook', '提交前脚本', 'prefixSubmit')
      if ('suffixSubmit' in values) await checkScript(scriptText(values.suffixSubmit), 'submitHook', '提交后脚本', 'suffixSubmit')
      if (text(merged.handleBean)) formHandler(text(merged.handleBean), 'handle')
      if (merged.requireQuery === true || merged.requireQuery === 'true') {
        if (!text(merged.queryBean)) throw invalid('需要查询时请输入查询处理器', 'queryBean')
        formHandler(text(merged.queryBean), 'query')
      }
    },
  })
}

/** `GET /gen/api/custom/form/config?id`. */
export function formConfigWire(form: Wire) {
  return {
    id: form.id,
    name: form.name,
    formConfig: form.formConfig,
    isDialog: form.isDialog,
    dialogWidth: form.dialogWidth ?? null,
    dialogTittle: form.dialogTittle ?? null,
    requireQuery: form.requireQuery,
    handleBean: form.handleBean ?? null,
    prefixSubmit: form.prefixSubmit ?? null,
    suffixSubmit: form.suffixSubmit ?? null,
  }
}
