/** MENU_COMPONENT_TYPE: 0 normal view, 1 custom list, 2 custom form, 3 custom page. */
export type ComponentType = 0 | 1 | 2 | 3

/** One node of `GET /auth/menus` (spec 000 §3 "Menu node"), as the server answers and the shell reads it. */
export interface MenuNode {
  id: string
  parentId: string | null
  path: string | null
  name: string
  component: string | null
  componentType: ComponentType
  display: number
  hidden: boolean
  requestParam: string | null
  permission: string | null
  meta: { title: string; icon: string | null; noCache: boolean }
  isCollect: boolean
  children: MenuNode[]
}
