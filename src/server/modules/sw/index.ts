import type { FastifyInstance } from 'fastify'
import type { Services } from '../../engine/services.js'
import { excelRoutes } from './excel-routes.js'
import { fileboxRoutes } from './filebox-routes.js'

/** 便捷办公 (001 §7 /sw): the online spreadsheet and the file box. */
export function swModule(app: FastifyInstance, services: Services): void {
  excelRoutes(app, services)
  fileboxRoutes(app, services)
}
