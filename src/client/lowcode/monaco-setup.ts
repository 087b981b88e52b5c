import * as monaco from 'monaco-editor/editor/editor.api'
import 'monaco-editor/languages/definitions/javascript/register'
import 'monaco-editor/languages/definitions/typescript/register'
import { jsonDefaults } from 'monaco-editor/languages/features/json/register'
// The JSON mode (which register.ts would load lazily on the first JSON model) brings Monaco 0.57's
// editor contributions (internal/common/workers): loaded after the first editor had created the standalone
// services, their singletons were missing ("depends on UNKNOWN service ICodeLensCache", microsoft/monaco-editor#4229).
// Loading it here, before any editor exists, registers them in time.
import 'monaco-editor/languages/features/json/jsonMode'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker'
import { loader } from '@monaco-editor/react'
import { formSchemaJsonSchema } from './formily-schema.js'

/**
 * The slim Monaco of the low-code editors (STACK-NOTES 8): the editor API, JavaScript colouring and
 * the JSON language service (for the form schema), the local package and never a CDN. Every worker
 * label gets a worker. Loaded only with the editors' lazy chunk.
 */
;(self as unknown as { MonacoEnvironment: unknown }).MonacoEnvironment = {
  getWorker: (_: string, label: string) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
}

export const FORM_SCHEMA_MODEL = 'lowcode://form-config.json'

jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  enableSchemaRequest: false,
  schemas: [{ uri: 'lowcode://formily-schema.json', fileMatch: [FORM_SCHEMA_MODEL], schema: formSchemaJsonSchema() }],
})

loader.config({ monaco })

export { monaco }
