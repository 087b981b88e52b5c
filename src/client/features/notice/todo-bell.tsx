import { List, Typography } from 'antd'
import { useNavigate } from 'react-router-dom'
import { useSWRConfig } from 'swr'
import { registerBellTodo } from './bell-todos.js'
import { BELL_POLL } from './notice-api.js'
import { call } from '../../api/call.js'
import { isCallKey, useCall } from '../../app/use-call.js'
import { todos, type MyTodoQuery, type Todo } from '../../../shared/contracts/todos.js'
import { useTr } from '../../i18n/use-tr.js'

/** The bell's 待办 from the server (000 §3 Todo): the first 20 unread, pulled with the notices. */
const TODO_QUERY: MyTodoQuery = { pageIndex: 1, pageSize: 20, readed: false }

function useTodos() {
  const { data } = useCall(todos.my, TODO_QUERY, {
    hideError: true,
    swr: BELL_POLL,
  })
  return data
}

function TodoList({ close }: { close: () => void }) {
  const tr = useTr()
  const navigate = useNavigate()
  const { mutate } = useSWRConfig()
  const rows = useTodos()?.datas ?? []
  // Opening a todo goes to its page and marks it read (it leaves the unread list at the next read).
  const open = async (todo: Todo) => {
    close()
    navigate(todo.jumpUrl)
    await call(todos.read, { id: todo.id }, { hideError: true }).catch(() => undefined)
    void mutate((key) => isCallKey(key, todos.my.path))
  }
  return (
    <List<Todo>
      className="notice-bell-list"
      size="small"
      dataSource={rows}
      renderItem={(todo) => (
        <List.Item key={todo.id} className="notice-bell-item">
          <button type="button" className="notice-bell-item-button" data-todo={todo.jumpUrl} onClick={() => void open(todo)}>
            <Typography.Text className="notice-bell-item-title" ellipsis={{ tooltip: tr(todo.title) }}>
              {tr(todo.title)}
            </Typography.Text>
            <Typography.Text type="secondary" className="notice-bell-item-time">
              {todo.createTime}
            </Typography.Text>
          </button>
        </List.Item>
      )}
    />
  )
}

registerBellTodo({ key: 'todos', useCount: () => useTodos()?.totalCount ?? 0, render: (close) => <TodoList close={close} /> })
