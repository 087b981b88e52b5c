import { createHash } from 'node:crypto'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import type { FastifyInstance } from 'fastify'

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> }

interface Checker {
  id: string
  ajv: Ajv2020
  doc: Doc
  validators: Map<string, ValidateFunction | null>
}

/** One ajv per distinct document (apps with extra entity files have their own), kept for the worker's life. */
const checkers = new Map<string, Checker>()
const byApp = new WeakMap<FastifyInstance, Checker>()

function checkerOf(app: FastifyInstance): Checker {
  const known = byApp.get(app)
  if (known) return known
  const doc = app.openApi() as Doc
  const id = createHash('sha1').update(JSON.stringify(doc)).digest('hex')
  let checker = checkers.get(id)
  if (!checker) {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false })
    ajv.addSchema(doc, id)
    checker = { id, ajv, doc, validators: new Map() }
    checkers.set(id, checker)
  }
  byApp.set(app, checker)
  return checker
}

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')

/**
 * Checks an answer of the app against the OpenAPI document it serves (GET /cloud-api/openapi.json): a
 * success against the call's declared answer, a refusal against `{code, msg}`. Answers the problem, or
 * undefined when the answer is as declared (or is a file, or the call is not an API call).
 */
export function answerProblem(app: FastifyInstance, method: string, url: string, status: number, contentType: string, raw: string): string | undefined {
  const checker = checkerOf(app)
  const path = url.replace(/^\/cloud-api/, '').split('?')[0]
  const operation = checker.doc.paths[path]?.[method.toLowerCase()]
  if (!operation || !contentType.includes('json') || !raw) return undefined
  const answered = status >= 200 && status < 300 ? '200' : String(status)
  const key = `${method} ${path} ${answered}`
  let validate = checker.validators.get(key)
  if (validate === undefined) {
    const schemaAt = operation.responses[answered]?.content?.['application/json']
      ? `#/${pointer('paths', path, method.toLowerCase(), 'responses', answered, 'content', 'application/json', 'schema')}`
      : status >= 400
        ? '#/components/schemas/Refusal'
        : undefined
    validate = schemaAt ? checker.ajv.compile({ $ref: `${checker.id}${schemaAt}` }) : null
    checker.validators.set(key, validate)
  }
  if (!validate) return undefined
  const answer: unknown = JSON.parse(raw)
  if (validate(answer)) return undefined
  const [error] = validate.errors ?? []
  return `${method} ${path} answered ${status} not as its OpenAPI document declares: ${error?.instancePath || '(answer)'} ${error?.message ?? ''} (${JSON.stringify(error?.params)}); answer: ${raw.slice(0, 300)}`
}
