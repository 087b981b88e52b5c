import { Alert, Card, Col, Row, Spin, Typography } from 'antd'
import { call } from '../api/call.js'
import { useSessionRead } from '../app/use-call.js'
import { lowcodeRuntime } from '../../shared/contracts/lowcode.js'
import ChartBlockView from './ChartBlockView.js'
import CustomFormHost from './CustomFormHost.js'
import CustomListHost from './CustomListHost.js'
import { MarkdownLite } from './markdown-lite.js'
import { checkPageSchema, type PageBlock, type PageSchema } from './page-schema.js'
import { runScript } from '../sandbox/script-runner.js'
import { tr, useTr } from '../i18n/use-tr.js'

/**
 * Runs a page's componentConfig script in the sandbox and checks what it returns against PageSchema:
 * an error message for the page, or the schema.
 */
export async function pageSchemaOf(script: string): Promise<PageSchema> {
  const value = await runScript(script, [], { params: [] })
  const checked = checkPageSchema(value)
  if (!checked.ok) throw new Error(tr(`页面结构不正确：${checked.errors.slice(0, 5).join('；')}`))
  return checked.schema
}

/** The custom page screen (input pageId): `GET /gen/api/custom/page/config?id`, then its script's page schema. */
export default function CustomPageHost({ pageId }: { pageId: string }) {
  const tr = useTr()
  const { data, error } = useSessionRead(['custom-page', pageId], async () => {
    const config = await call(lowcodeRuntime.pageConfig, { id: pageId })
    return pageSchemaOf(config.componentConfig ?? '')
  }, { revalidateOnFocus: false })
  if (error) return <Alert type="error" showIcon message={tr('自定义页面加载失败')} description={error instanceof Error ? error.message : String(error)} />
  if (!data) return <Spin style={{ display: 'block', padding: 48 }} />
  return <PageView schema={data} />
}

export function PageView({ schema }: { schema: PageSchema }) {
  return (
    <div className="custom-page">
      {schema.title && <Typography.Title level={4}>{schema.title}</Typography.Title>}
      {schema.rows.map((row, ri) => (
        <Row key={ri} gutter={[row.gutter ?? 16, row.gutter ?? 16]} style={{ marginBottom: 16 }}>
          {row.cols.map((col, ci) => (
            <Col key={ci} xs={24} md={col.span ?? 24}>
              {col.blocks.map((block, bi) => (
                <BlockView key={bi} block={block} />
              ))}
            </Col>
          ))}
        </Row>
      ))}
    </div>
  )
}

function BlockView({ block }: { block: PageBlock }) {
  const body = (() => {
    switch (block.kind) {
      case 'list':
        return <CustomListHost listId={block.listId} />
      case 'form':
        return <CustomFormHost formId={block.formId} requestParam={block.requestParam} />
      case 'chart':
        return <ChartBlockView block={block} />
      case 'text':
        return block.format === 'markdown' ? <MarkdownLite source={block.content} /> : <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{block.content}</Typography.Paragraph>
    }
  })()
  return (
    <Card size="small" title={block.title} style={{ marginBottom: 16 }}>
      {body}
    </Card>
  )
}
