import type { ReactNode } from 'react'

/**
 * A source of 待办 in the header bell (memorial reminders, customers about to return to the sea…),
 * registered by a feature at import time. `useCount` is a hook: the bell calls every registered one
 * on each render, always in registration order.
 */
export interface BellTodo {
  key: string
  useCount: () => number
  render: (close: () => void) => ReactNode
}

const todos: BellTodo[] = []

export function registerBellTodo(todo: BellTodo): void {
  if (!todos.some((t) => t.key === todo.key)) todos.push(todo)
}

export function bellTodos(): readonly BellTodo[] {
  return todos
}
