import { useState } from 'react'
import { Button, Drawer, theme } from 'antd'
import { AppstoreOutlined } from '@ant-design/icons'
import { useSWRConfig } from 'swr'
import { useMeta } from '../../api/meta.js'
import { usePermission } from '../../app/session.js'
import EntityPage from '../../runtime/EntityPage.js'
import { operationKeys } from '../../../shared/metadata/operation-keys.js'
import { useTr } from '../../i18n/use-tr.js'

const CATEGORY = 'dicCategory'

/**
 * 数据字典 (menu component `/system/dic/index`): the dictionary screen of the `dic` entity, with 分类管理
 * opening the dictionary categories (`dicCategory`) in a drawer. Closing the drawer fetches the
 * dictionaries again, so renamed categories show at once. 字典值 is a row action (index.tsx).
 */
export default function DictionaryPage() {
  const tr = useTr()
  const can = usePermission()
  const meta = useMeta()
  const canCategories = (() => {
    try {
      return meta ? can(operationKeys(meta.entity(CATEGORY), 'query')) : false
    } catch {
      return false
    }
  })()
  const { token } = theme.useToken()
  const { mutate } = useSWRConfig()
  const [categoriesOpen, setCategoriesOpen] = useState(false)
  const [categoriesUsed, setCategoriesUsed] = useState(false)

  return (
    <div className="dictionary-page">
      {canCategories && (
        <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
          <Button
            icon={<AppstoreOutlined aria-hidden />}
            onClick={() => {
              setCategoriesUsed(true)
              setCategoriesOpen(true)
            }}
          >
            {tr('分类管理')}
          </Button>
        </div>
      )}
      <EntityPage entityName="dic" />
      <Drawer
        title={tr('字典分类')}
        width="min(960px, 90vw)"
        open={categoriesOpen}
        onClose={() => setCategoriesOpen(false)}
        afterOpenChange={(opened) => {
          if (!opened) void mutate((key) => Array.isArray(key) && key[0] === 'entity-list' && key[1] === 'dic')
        }}
        styles={{ body: { padding: 12, background: token.colorBgLayout } }}
      >
        {categoriesUsed && <EntityPage entityName={CATEGORY} />}
      </Drawer>
    </div>
  )
}
