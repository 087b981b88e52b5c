import { defineCall, type Page, type PageParams } from './call.js'

/** One 待办 of the signed-in user (spec 000 §3 Todo: title, createTime, jumpUrl, readed). */
export type Todo = {
  id: string
  title: string
  createTime: string
  /** The page that deals with it, a path of the app (`/purchase/order/approve/{id}`). */
  jumpUrl: string
  readed: boolean
}

export interface MyTodoQuery extends PageParams {
  readed?: boolean
}

/**
 * The caller's todos. The spec gives the record but no call (endpoints.md note 5), so these follow the
 * notice bell's calls: a paged list of one's own, newest first, and marking one read when it is opened.
 */
export const todos = {
  my: defineCall<MyTodoQuery, Page<Todo>>('GET', '/system/todo/query/my'),
  read: defineCall<{ id: string }, null>('PATCH', '/system/todo/read', 'query'),
}
