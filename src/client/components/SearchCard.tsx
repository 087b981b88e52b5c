import type { ReactNode } from 'react'
import { Card, Col, Form, Row, type FormInstance } from 'antd'
import SearchButtons from './SearchButtons.js'

export interface SearchCardProps {
  form: FormInstance
  /** Reads the form and searches (Enter and 查询 submit; 重置 clears the form, then searches). */
  onSearch: () => void
  /** Columns (out of 24) the 查询/重置 buttons take after the fields. */
  buttonSpan: number
  /** The fields, each in its own `<Col>`. */
  children: ReactNode
}

/** The search form above a hand-written list screen: an inline antd form of fields in columns, then 查询 and 重置. */
export default function SearchCard({ form, onSearch, buttonSpan, children }: SearchCardProps) {
  return (
    <Card size="small" variant="borderless" style={{ marginBottom: 12 }}>
      <Form form={form} layout="inline" onFinish={onSearch}>
        <Row gutter={[16, 8]} style={{ width: '100%' }}>
          {children}
          <Col span={buttonSpan}>
            <SearchButtons
              onReset={() => {
                form.resetFields()
                onSearch()
              }}
            />
          </Col>
        </Row>
      </Form>
    </Card>
  )
}
