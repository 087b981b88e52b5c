import { ScriptError } from './script-error.js'

/** The only values that cross into or out of the sandbox. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue }

const describe = (value: object): string => {
  const tag = Object.prototype.toString.call(value).slice(8, -1)
  return tag === 'Object' ? (value.constructor?.name ?? '非普通对象') : tag
}

const refuse = (what: string) => new ScriptError('argument', `脚本参数必须是 JSON，不能包含${what}`)

function replacer(this: unknown, _key: string, value: unknown): unknown {
  switch (typeof value) {
    case 'function':
      throw refuse('函数')
    case 'symbol':
      throw refuse('Symbol')
    case 'bigint':
      throw refuse('BigInt')
    case 'object': {
      if (value === null || Array.isArray(value)) return value
      const proto: unknown = Object.getPrototypeOf(value)
      if (proto !== Object.prototype && proto !== null) throw refuse(` ${describe(value)} 对象`)
      return value
    }
    default:
      return value
  }
}

/**
 * Host-side serialisation of arguments: exactly JSON, or a ScriptError('argument').
 * Accepted: null, booleans, numbers (non-finite ones become null, as in JSON), strings, arrays, plain
 * objects, and anything with a `toJSON` (Date becomes its ISO text, as JSON.stringify does); `undefined`
 * properties are dropped. Refused: functions, symbols, BigInt, class instances (Map, Set, Buffer-less
 * objects with a prototype), cycles.
 */
export function toJSONText(value: unknown): string {
  let text: string | undefined
  try {
    text = JSON.stringify(value, replacer)
  } catch (e) {
    if (e instanceof ScriptError) throw e
    const message = e instanceof Error ? e.message : String(e)
    throw /circular/i.test(message) ? refuse('循环引用') : refuse(`无法序列化的值（${message}）`)
  }
  return text ?? 'null'
}
