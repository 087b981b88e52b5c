import type { ReactNode } from 'react'

/**
 * Toolbar buttons a feature adds to one document list (a logistics sheet's imports): rendered after the
 * list's own buttons, with `reload` to fetch the list again. Features register at import time.
 */
export type DocumentTool = (reload: () => void) => ReactNode

const tools = new Map<string, DocumentTool[]>()

export function registerDocumentTool(entityName: string, tool: DocumentTool): void {
  tools.set(entityName, [...(tools.get(entityName) ?? []), tool])
}

export const documentTools = (entityName: string): readonly DocumentTool[] => tools.get(entityName) ?? []
