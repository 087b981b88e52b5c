import { Input, Select, Tag, Typography } from 'antd'
import DateInput from '../../components/DateInput.js'
import dayjs from 'dayjs'
import type { EnumCatalog } from '../../../shared/metadata/enum-catalog.js'
import { useTr } from '../../i18n/use-tr.js'
import { DATE_FORMAT, DATETIME_FORMAT, valueWidget, type DesignerNode } from './tree-rules.js'

interface Props {
  node: DesignerNode
  enums?: EnumCatalog
  invalid: boolean
  onValue: (value: string) => void
  onValues: (values: string[]) => void
}

const WIDTH = 260

/**
 * The value input of a condition node by its input type (000 §5): free text (tags for in/not-in),
 * enum select (multiple for in/not-in), datetime, date; SQL nodes have no value.
 */
export function ConditionValue({ node, enums, invalid, onValue, onValues }: Props) {
  const tr = useTr()
  const status = invalid ? 'error' : undefined
  const label = tr(`${node.name}的值`)
  const enumOptions = () =>
    node.enumName && enums ? enums.items(node.enumName).map((i) => ({ value: String(i.code), label: enums.text(i) })) : []
  switch (valueWidget(node)) {
    case 'sql':
      return (
        <Typography.Text type="secondary" className="dp-sql-text">
          <Tag color="purple" style={{ marginInlineEnd: 6 }}>
            SQL
          </Tag>
          {tr('系统条件，无需输入值')}
        </Typography.Text>
      )
    case 'tags':
      return (
        <Select
          mode="tags"
          aria-label={label}
          status={status}
          style={{ width: WIDTH }}
          placeholder={tr('输入后回车，可输入多个值')}
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', '，']}
          value={node.values ?? []}
          onChange={(v: string[]) => onValues(v.map((x) => x.trim()).filter(Boolean))}
        />
      )
    case 'select':
      return (
        <Select
          aria-label={label}
          status={status}
          style={{ width: WIDTH }}
          placeholder={tr('请选择')}
          allowClear
          options={enumOptions()}
          value={node.value ? node.value : undefined}
          onChange={(v?: string) => onValue(v ?? '')}
        />
      )
    case 'multiSelect':
      return (
        <Select
          mode="multiple"
          aria-label={label}
          status={status}
          style={{ width: WIDTH }}
          placeholder={tr('请选择')}
          allowClear
          options={enumOptions()}
          value={node.values ?? []}
          onChange={(v: string[]) => onValues(v)}
        />
      )
    case 'datetime':
    case 'date': {
      const format = valueWidget(node) === 'datetime' ? DATETIME_FORMAT : DATE_FORMAT
      // Both formats are ones dayjs reads without a parse plugin.
      const parsed = node.value ? dayjs(node.value) : null
      return (
        <DateInput
          aria-label={label}
          status={status}
          style={{ width: WIDTH }}
          showTime={format === DATETIME_FORMAT}
          format={format}
          placeholder={format === DATETIME_FORMAT ? tr('请选择日期时间') : tr('请选择日期')}
          value={parsed && parsed.isValid() ? parsed : null}
          onChange={(d) => onValue(d ? d.format(format) : '')}
        />
      )
    }
    default:
      return (
        <Input
          aria-label={label}
          status={status}
          style={{ width: WIDTH }}
          placeholder={tr('请输入值')}
          maxLength={200}
          allowClear
          value={node.value ?? ''}
          onChange={(e) => onValue(e.target.value)}
        />
      )
  }
}
