let measured: number | undefined

/** The width of the page's scrollbars (0 with overlay scrollbars): a table whose rows scroll under its header gives it up on the right. */
export function scrollbarWidth(): number {
  if (measured !== undefined) return measured
  const probe = document.createElement('div')
  probe.style.cssText = 'position:absolute;top:-9999px;width:100px;height:100px;overflow:scroll'
  document.body.appendChild(probe)
  measured = probe.offsetWidth - probe.clientWidth
  probe.remove()
  return measured
}
