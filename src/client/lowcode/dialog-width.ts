/**
 * A designer's dialog width as antd takes it: a bare number ("600") is pixels, anything else a CSS
 * width ("60%", "40rem"); none, the default.
 */
export function dialogWidth(value: string | null | undefined, fallback = '60%'): string | number {
  const text = value?.trim()
  if (!text) return fallback
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : text
}
