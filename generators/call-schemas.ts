import path from 'node:path'
import fs from 'node:fs'
import ts from 'typescript'

/**
 * JSON Schemas of the params and answer of every call of src/shared/contracts whose path is written out
 * (`defineCall<Params, Answer>('GET', '/x/y')`), read from the TypeScript types by the compiler, so the
 * OpenAPI document (server/platform/openapi.ts) states what the contracts state and cannot drift from
 * them. The families whose paths are built from a base (entity, document, picker calls) are described
 * from schemas/ at run time instead. Named interfaces and aliases become shared `$defs`.
 */
export interface CallSchema {
  method: string
  path: string
  paramsIn: 'query' | 'body' | 'both'
  /** Absent when the call takes no params (`void`). */
  params?: JsonSchema
  answer: JsonSchema
}

export type JsonSchema = Record<string, unknown>

export interface CallSchemas {
  calls: Record<string, CallSchema>
  defs: Record<string, JsonSchema>
}

const MAX_DEPTH = 16

export function callSchemas(root: string): CallSchemas {
  const dir = path.join(root, 'src/shared/contracts')
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).sort().map((f) => path.join(dir, f))
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    noEmit: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  })
  const checker = program.getTypeChecker()
  const defs: Record<string, JsonSchema> = {}
  const defOwner = new Map<string, ts.Symbol>()
  const calls: Record<string, CallSchema> = {}
  const inProject = (decl: ts.Declaration | undefined) => !!decl && path.resolve(decl.getSourceFile().fileName).startsWith(path.join(root, 'src'))

  /** The name a type is shared under, when it is a non-generic interface or alias of the project. */
  function defName(type: ts.Type): string | undefined {
    const alias = type.aliasSymbol
    const sym = alias && !type.aliasTypeArguments?.length ? alias : !alias ? type.getSymbol() : undefined
    if (!sym || !(sym.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) return undefined
    const decl = sym.declarations?.[0]
    if (!inProject(decl)) return undefined
    if ((decl as ts.InterfaceDeclaration).typeParameters?.length) return undefined
    let name = sym.getName()
    for (let i = 2; defOwner.has(name) && defOwner.get(name) !== sym; i++) name = `${sym.getName()}${i}`
    defOwner.set(name, sym)
    return name
  }

  function toSchema(type: ts.Type, depth: number, top = false): JsonSchema {
    if (depth > MAX_DEPTH) return {}
    const f = type.flags
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {}
    if (f & ts.TypeFlags.Never) return { not: {} }
    if (f & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return { type: 'null' }
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', const: (type as ts.StringLiteralType).value }
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', const: (type as ts.NumberLiteralType).value }
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: checker.typeToString(type) === 'true' }
    if (f & ts.TypeFlags.StringLike) return { type: 'string' }
    if (f & ts.TypeFlags.NumberLike) return { type: 'number' }
    if (f & ts.TypeFlags.BooleanLike) return { type: 'boolean' }
    if (f & ts.TypeFlags.BigIntLike) return { type: 'string' }
    if (!top) {
      const name = defName(type)
      if (name) {
        if (!(name in defs)) {
          defs[name] = {}
          defs[name] = toSchema(type, depth + 1, true)
        }
        return { $ref: `#/$defs/${name}` }
      }
    }
    if (type.isUnion()) return unionSchema(type.types, depth)
    if (type.isIntersection()) return { allOf: type.types.map((t) => toSchema(t, depth + 1)) }
    const symbolName = type.getSymbol()?.getName()
    if (symbolName === 'Blob' || symbolName === 'Buffer' || symbolName === 'Uint8Array') return { type: 'string', format: 'binary' }
    if (symbolName === 'Date') return { type: 'string', format: 'date-time' }
    if (checker.isTupleType(type)) {
      const target = (type as ts.TypeReference).target as ts.TupleType
      const args = checker.getTypeArguments(type as ts.TypeReference)
      const rest = target.elementFlags.findIndex((f) => f & ts.ElementFlags.Variable)
      const fixed = (rest < 0 ? args : args.slice(0, rest)).map((t) => toSchema(t, depth + 1))
      return { type: 'array', prefixItems: fixed, minItems: target.minLength, items: rest < 0 ? false : toSchema(args[rest], depth + 1) }
    }
    if (checker.isArrayType(type)) return { type: 'array', items: toSchema(checker.getTypeArguments(type as ts.TypeReference)[0], depth + 1) }
    if (f & ts.TypeFlags.Object) {
      if (type.getCallSignatures().length) return {}
      const properties: Record<string, JsonSchema> = {}
      const required: string[] = []
      for (const prop of checker.getPropertiesOfType(type)) {
        const decl = prop.valueDeclaration ?? prop.declarations?.[0]
        const propType = decl ? checker.getTypeOfSymbolAtLocation(prop, decl) : checker.getTypeOfSymbol(prop)
        if (propType.getCallSignatures().length) continue
        const optional = !!(prop.flags & ts.SymbolFlags.Optional)
        // An optional property may be absent or, as JSON has no undefined, null.
        const schema = toSchema(optional ? withoutUndefined(propType) : propType, depth + 1)
        properties[prop.getName()] = optional && Object.keys(schema).length ? { anyOf: [schema, { type: 'null' }] } : schema
        if (!optional) required.push(prop.getName())
      }
      const out: JsonSchema = { type: 'object' }
      if (Object.keys(properties).length) out.properties = properties
      if (required.length) out.required = required
      const index = checker.getIndexInfosOfType(type)[0]
      if (index) out.additionalProperties = toSchema(index.type, depth + 1)
      return out
    }
    return {}
  }

  function withoutUndefined(type: ts.Type): ts.Type {
    if (!type.isUnion()) return type
    const kept = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined))
    return kept.length === 1 ? kept[0] : type
  }

  function unionSchema(types: ts.Type[], depth: number): JsonSchema {
    const kept = types.filter((t) => !(t.flags & ts.TypeFlags.Undefined))
    const literals = kept.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral)
    let rest = kept
    const parts: JsonSchema[] = []
    if (literals.length === 2) {
      parts.push({ type: 'boolean' })
      rest = kept.filter((t) => !literals.includes(t))
    }
    const strings = rest.filter((t) => t.flags & ts.TypeFlags.StringLiteral) as ts.StringLiteralType[]
    if (strings.length > 1) {
      parts.push({ type: 'string', enum: strings.map((s) => s.value) })
      rest = rest.filter((t) => !strings.includes(t as ts.StringLiteralType))
    }
    parts.push(...rest.map((t) => toSchema(t, depth + 1)))
    if (parts.length === 1) return parts[0]
    if (parts.some((p) => Object.keys(p).length === 0)) return {}
    return { anyOf: parts }
  }

  const literal = (node: ts.Expression | undefined): string | undefined =>
    node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined

  for (const file of program.getSourceFiles()) {
    if (!files.includes(path.resolve(file.fileName))) continue
    const visit = (node: ts.Node) => {
      // defineRead(path, paramsIn) is defineCall('POST', path, paramsIn) marked as a read.
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && (node.expression.text === 'defineCall' || node.expression.text === 'defineRead')) {
        const read = node.expression.text === 'defineRead'
        const args = read ? [undefined, ...node.arguments] : [...node.arguments]
        const method = read ? 'POST' : literal(args[0])
        const callPath = literal(args[1])
        if (method && callPath) {
          const [paramsNode, answerNode] = node.typeArguments ?? []
          const paramsType = paramsNode && checker.getTypeFromTypeNode(paramsNode)
          const answerType = answerNode && checker.getTypeFromTypeNode(answerNode)
          const paramsIn = (literal(args[2]) as CallSchema['paramsIn'] | undefined) ?? (method === 'GET' ? 'query' : 'body')
          const key = `${method} ${callPath}`
          if (!(key in calls))
            calls[key] = {
              method,
              path: callPath,
              paramsIn,
              ...(paramsType && !(paramsType.flags & ts.TypeFlags.Void) ? { params: toSchema(paramsType, 0) } : {}),
              answer: answerType ? toSchema(answerType, 0) : { type: 'null' },
            }
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(file)
  }
  const sortedDefs = Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b)))
  const sortedCalls = Object.fromEntries(Object.entries(calls).sort(([a], [b]) => a.localeCompare(b)))
  return { calls: sortedCalls, defs: sortedDefs }
}
