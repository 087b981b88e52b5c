/**
 * Plain JavaScript evaluated in every fresh QuickJS context, before the user script of that run.
 *
 * Every run gets its own runtime and context (script-engine.ts), so nothing a script does (a planted
 * global, a patched prototype, a closure's counter) can reach a later run: isolation comes from that,
 * not from freezing. The prelude (1) defines the whole "host API" as ordinary JS inside the sandbox:
 * `formatDate`, `dayjs` (a small subset), `formatNumber` and a silent `console`; (2) disables code
 * generation from strings: `eval`, `Function` and the constructors reachable through
 * `(async) function (*) {}.constructor` throw; (3) removes what is GC-observable or shared-memory
 * (`WeakRef`, `FinalizationRegistry`, `SharedArrayBuffer`); (4) refuses `join` and the other
 * length-driven array natives over absurd lengths (`new Array(2 ** 32 - 1).join('')` loops inside one
 * native call, where neither the interrupt nor the memory limit can stop it); (5) evaluates to a
 * private object `{compile, invoke, invokeMany}` that only the host holds: it is never reachable from
 * globalThis.
 *
 * User scripts are compiled in strict mode. Values enter as JSON text (JSON.parse inside) and leave as
 * JSON text, checked strictly: functions, symbols, BigInt, Promises, class instances and cycles are
 * refused with a Chinese message instead of being silently dropped as JSON.stringify would.
 */
import { scriptErrorMessage } from './script-error.js'

/** `join` and the other length-driven array natives refuse arrays longer than this. */
export const MAX_NATIVE_LENGTH = 1 << 22

export const SANDBOX_PRELUDE = String.raw`(function () {
'use strict';
var G = globalThis;
var FunctionCtor = Function;
var jsonParse = JSON.parse, jsonStringify = JSON.stringify;
var apply = Reflect.apply, ownKeys = Reflect.ownKeys;
var getProto = Object.getPrototypeOf, freeze = Object.freeze, defineProperty = Object.defineProperty;
var getOwnDescriptor = Object.getOwnPropertyDescriptor, isArray = Array.isArray;
var ObjectProto = Object.prototype, objectToString = Object.prototype.toString;
var InternalErrorCtor = typeof InternalError === 'function' ? InternalError : null;
var nativeJoin = Array.prototype.join;
var StringCtor = String, NumberCtor = Number, DateCtor = Date, MathFloor = Math.floor, MathAbs = Math.abs;

/* ---------- the host API, implemented inside the sandbox ---------- */

function pad(n, width) {
  var s = StringCtor(MathAbs(n));
  while (s.length < width) s = '0' + s;
  return (n < 0 ? '-' : '') + s;
}

var DATE_TEXT = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,3}))?)?)?$/;

function toDate(value) {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof DateCtor) return new DateCtor(value.getTime());
  if (typeof value === 'number') return new DateCtor(value);
  if (typeof value === 'string') {
    var m = DATE_TEXT.exec(value.trim());
    if (m) {
      return new DateCtor(+m[1], +m[2] - 1, +m[3], +(m[4] || 0), +(m[5] || 0), +(m[6] || 0), +((m[7] || '0') + '00').slice(0, 3));
    }
    var t = DateCtor.parse(value);
    return t === t ? new DateCtor(t) : new DateCtor(NaN);
  }
  return new DateCtor(NaN);
}

var TOKENS = /\[([^\]]*)]|YYYY|YY|MM|M|DD|D|HH|H|hh|h|mm|m|ss|s|SSS|A|a|d/g;

function formatValidDate(d, pattern) {
  return pattern.replace(TOKENS, function (token, literal) {
    if (literal !== undefined) return literal;
    var h = d.getHours();
    switch (token) {
      case 'YYYY': return pad(d.getFullYear(), 4);
      case 'YY': return pad(d.getFullYear() % 100, 2);
      case 'MM': return pad(d.getMonth() + 1, 2);
      case 'M': return StringCtor(d.getMonth() + 1);
      case 'DD': return pad(d.getDate(), 2);
      case 'D': return StringCtor(d.getDate());
      case 'HH': return pad(h, 2);
      case 'H': return StringCtor(h);
      case 'hh': return pad(h % 12 || 12, 2);
      case 'h': return StringCtor(h % 12 || 12);
      case 'mm': return pad(d.getMinutes(), 2);
      case 'm': return StringCtor(d.getMinutes());
      case 'ss': return pad(d.getSeconds(), 2);
      case 's': return StringCtor(d.getSeconds());
      case 'SSS': return pad(d.getMilliseconds(), 3);
      case 'A': return h < 12 ? '上午' : '下午';
      case 'a': return h < 12 ? '上午' : '下午';
      case 'd': return StringCtor(d.getDay());
    }
    return token;
  });
}

/** formatDate(value, pattern = 'YYYY-MM-DD HH:mm:ss'): '' for empty values, 'Invalid Date' for bad ones. */
function formatDate(value, pattern) {
  var d = toDate(value);
  if (d === null) return '';
  if (d.getTime() !== d.getTime()) return 'Invalid Date';
  return formatValidDate(d, typeof pattern === 'string' ? pattern : 'YYYY-MM-DD HH:mm:ss');
}

var UNIT_MS = { millisecond: 1, second: 1000, minute: 60000, hour: 3600000, day: 86400000, week: 604800000 };

/** dayjs(value): the read-only subset of dayjs a formatter needs. */
function dayjs(value) {
  var d = value === undefined ? new DateCtor() : toDate(value) || new DateCtor(NaN);
  var time = d.getTime();
  return freeze({
    isValid: function () { return time === time; },
    valueOf: function () { return time; },
    unix: function () { return MathFloor(time / 1000); },
    toISOString: function () { return new DateCtor(time).toISOString(); },
    format: function (pattern) { return time === time ? formatValidDate(new DateCtor(time), typeof pattern === 'string' ? pattern : 'YYYY-MM-DDTHH:mm:ss') : 'Invalid Date'; },
    add: function (n, unit) {
      var x = new DateCtor(time);
      if (unit === 'month' || unit === 'M') { x.setMonth(x.getMonth() + n); return dayjs(x); }
      if (unit === 'year' || unit === 'y') { x.setFullYear(x.getFullYear() + n); return dayjs(x); }
      var ms = UNIT_MS[unit] || UNIT_MS[({ ms: 'millisecond', s: 'second', m: 'minute', h: 'hour', d: 'day', w: 'week' })[unit]] || 0;
      return dayjs(time + n * ms);
    },
    diff: function (other, unit) {
      var ms = time - dayjs(other).valueOf();
      var size = UNIT_MS[unit] || 1;
      return ms / size < 0 ? -MathFloor(-ms / size) : MathFloor(ms / size);
    },
  });
}

/** formatNumber(value, decimals = 2, grouping = true): '1,234.50'; '' for empty, the input for non-numbers. */
function formatNumber(value, decimals, grouping) {
  if (value === null || value === undefined || value === '') return '';
  var n = NumberCtor(value);
  if (n !== n) return StringCtor(value);
  var text = n.toFixed(typeof decimals === 'number' ? decimals : 2);
  if (grouping === false) return text;
  var parts = text.split('.');
  parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return parts.join('.');
}

function noop() {}

/* ---------- no code from strings ---------- */

/* our own messages are shown without an error-class prefix */
function sandboxError(message) {
  var e = new TypeError(message);
  defineProperty(e, 'name', { value: '', writable: false, enumerable: false, configurable: false });
  return e;
}

function blocked() { throw sandboxError('脚本中不能动态生成代码（eval 与 Function 构造器已禁用）'); }
blocked.prototype = FunctionCtor.prototype;
var functionProtos = [
  FunctionCtor.prototype,
  getProto(async function () {}),
  getProto(function* () {}),
  getProto(async function* () {}),
];
for (var i = 0; i < functionProtos.length; i++) {
  defineProperty(functionProtos[i], 'constructor', { value: blocked, writable: false, enumerable: false, configurable: false });
}

/* ---------- the global object: remove, add ---------- */

var removed = ['WeakRef', 'FinalizationRegistry', 'SharedArrayBuffer', 'Atomics', 'setTimeout', 'setInterval',
  'clearTimeout', 'clearInterval', 'queueMicrotask', 'fetch', 'XMLHttpRequest', 'WebSocket', 'importScripts',
  'require', 'process', 'Deno', 'Bun', 'os', 'std'];
for (var r = 0; r < removed.length; r++) delete G[removed[r]];

var api = {
  eval: blocked,
  Function: blocked,
  formatDate: formatDate,
  formatNumber: formatNumber,
  dayjs: dayjs,
  console: { log: noop, info: noop, warn: noop, error: noop, debug: noop },
};
var apiKeys = ownKeys(api);
for (var k = 0; k < apiKeys.length; k++) {
  defineProperty(G, apiKeys[k], { value: api[apiKeys[k]], writable: false, enumerable: false, configurable: false });
}

/* ---------- no native loop over absurd lengths ---------- */

/*
 * These natives walk \`length\` elements inside one native call: the interrupt is not consulted there,
 * and over holes nothing is allocated, so the memory limit does not stop them either.
 */
var MAX_NATIVE_LENGTH = ${MAX_NATIVE_LENGTH};
var ArrayProto = Array.prototype, RangeErrorCtor = RangeError, ObjectCtor = Object;
function guardLength(name) {
  var native = ArrayProto[name];
  var guarded = {
    [name]: function () {
      if (this !== null && this !== undefined && ObjectCtor(this).length > MAX_NATIVE_LENGTH) {
        throw new RangeErrorCtor('数组过长（超过 ' + MAX_NATIVE_LENGTH + ' 项），无法执行 ' + name);
      }
      return apply(native, this, arguments);
    },
  }[name];
  defineProperty(guarded, 'length', { value: native.length });
  defineProperty(ArrayProto, name, { value: guarded, writable: true, enumerable: false, configurable: true });
}
var guardedNames = ['join', 'fill', 'indexOf', 'lastIndexOf', 'includes', 'toLocaleString'];
for (var gi = 0; gi < guardedNames.length; gi++) guardLength(guardedNames[gi]);

/* ---------- compile and invoke (reachable only by the host) ---------- */

function isFatal(e) {
  return InternalErrorCtor !== null && e instanceof InternalErrorCtor && (e.message === 'interrupted' || e.message === 'out of memory');
}

function describe(value) {
  if (typeof Promise === 'function' && value instanceof Promise) return 'Promise（脚本须同步返回结果）';
  return objectToString.call(value).slice(8, -1) + ' 对象';
}

function notJSON(what) { return sandboxError('返回值必须是 JSON，不能包含' + what); }

function replacer(key, value) {
  switch (typeof value) {
    case 'function': throw notJSON('函数');
    case 'symbol': throw notJSON('Symbol');
    case 'bigint': throw notJSON('BigInt');
    case 'object':
      if (value !== null && !isArray(value)) {
        var p = getProto(value);
        if (p !== ObjectProto && p !== null) throw notJSON(describe(value));
      }
  }
  return value;
}

function toJSONText(value) {
  switch (typeof value) {
    case 'undefined': return 'null';
    case 'string': case 'boolean': return jsonStringify(value);
    case 'number': return value === value && value !== 1 / 0 && value !== -1 / 0 ? '' + value : 'null';
  }
  var text;
  try {
    text = jsonStringify(value, replacer);
  } catch (e) {
    if (isFatal(e)) throw e;
    if (e instanceof TypeError && /circular/i.test(e.message)) throw notJSON('循环引用');
    throw e;
  }
  return text === undefined ? 'null' : text;
}

function errorText(e) {
  try {
    if (e !== null && typeof e === 'object' && typeof e.message === 'string') {
      var name = typeof e.name === 'string' ? e.name : '';
      if (e.message === 'stack overflow') return '调用栈溢出（递归过深）';
      return name && name !== 'Error' ? name + ': ' + e.message : e.message;
    }
    return StringCtor(e);
  } catch (ignored) {
    return '未知错误';
  }
}

function compile(source, paramsText) {
  var params = jsonParse(paramsText);
  var expr = null;
  try {
    expr = FunctionCtor('"use strict"; return (' + source + '\n);');
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
  }
  if (expr !== null) {
    var value;
    try { value = expr(); } catch (e) { if (isFatal(e)) throw e; }
    if (typeof value === 'function') return value;
  }
  return apply(FunctionCtor, undefined, params.concat(['"use strict";\n' + source]));
}

/*
 * Replies are tagged text, so the host never re-parses a result just to unwrap it:
 *   'R' + JSON                   a result (invoke), or the JSON array of results (invokeMany)
 *   'E' + message                invoke: the script threw
 *   'F' + index + ':' + message  invokeMany without settle: item \`index\` threw
 * With settle, invokeMany answers 'R' + [{ok:true,value}|{ok:false,error}, …], the error already in
 * its final Chinese form (script-error.ts scriptErrorMessage), so the host passes the text through.
 */
var SCRIPT_ERROR_PREFIX = ${JSON.stringify(scriptErrorMessage(''))};

/*
 * The script runs in this same context, so it could tamper with the reply's array (an index setter on
 * Array.prototype); it can only garble its own reply, which the host then refuses as not JSON.
 */
function invokeMany(fn, listText, settle) {
  var list = jsonParse(listText);
  var n = list.length, out = [];
  for (var i = 0; i < n; i++) {
    if (!settle) {
      try {
        out[i] = toJSONText(apply(fn, undefined, list[i]));
      } catch (e) {
        if (isFatal(e)) throw e;
        return 'F' + i + ':' + errorText(e);
      }
    } else {
      try {
        out[i] = '{"ok":true,"value":' + toJSONText(apply(fn, undefined, list[i])) + '}';
      } catch (e) {
        if (isFatal(e)) throw e;
        out[i] = '{"ok":false,"error":' + jsonStringify(SCRIPT_ERROR_PREFIX + errorText(e)) + '}';
      }
    }
  }
  return 'R[' + apply(nativeJoin, out, [',']) + ']';
}

function invokeOne(fn, argsText) {
  try {
    return 'R' + toJSONText(apply(fn, undefined, jsonParse(argsText)));
  } catch (e) {
    if (isFatal(e)) throw e;
    return 'E' + errorText(e);
  }
}

/*
 * Where a syntax error is in the user's source. The body form is compiled as
 * "(function anonymous(params\n) {\n" + '"use strict";\n' + source + "\n})", so the source starts on
 * QuickJS's line 4; an error at the closing wrapper (unexpected end) points past the last line.
 */
var WRAPPER_LINES = 3;
function syntaxPosition(e, source) {
  if (!(e instanceof SyntaxError) || typeof e.lineNumber !== 'number') return '';
  var lines = source.split('\n');
  var line = e.lineNumber - WRAPPER_LINES;
  var column = typeof e.columnNumber === 'number' ? e.columnNumber : 1;
  if (line < 1) { line = 1; column = 1; }
  if (line > lines.length) { line = lines.length; column = lines[line - 1].length + 1; }
  return '（第 ' + line + ' 行第 ' + column + ' 列）';
}

function compileChecked(source, paramsText) {
  try {
    return compile(source, paramsText);
  } catch (e) {
    if (isFatal(e)) throw e;
    return errorText(e) + syntaxPosition(e, source);
  }
}

return { compile: compileChecked, invoke: invokeOne, invokeMany: invokeMany };
})()`
