import {
  AliasNode,
  JoinNode,
  ListNode,
  PostgresDialect,
  PostgresQueryCompiler,
  SchemableIdentifierNode,
  TableNode,
  UsingNode,
  type AggregateFunctionNode,
  type FunctionNode,
  type OperationNode,
  type PostgresDialectConfig,
  type QueryCompiler,
  type ReferencesNode,
  type SelectModifierNode,
  type WithNode,
} from 'kysely'

/**
 * A tenant's statements with their tables qualified by its schema while they are compiled, instead of by
 * Kysely's `withSchema` plugin, which copies every statement's whole tree once more before compiling it: on an
 * approval that copy was 8 % of the process's CPU (issue 33, "tables qualified at compile time"). The text is
 * the plugin's to the character (test/unit/schema-compiler.test.ts compares them), so the prepared statements
 * named by their text (db/prepared-statements.ts) keep their names: a table named in a statement's FROM, INTO,
 * UPDATE, JOIN or USING, or a DDL statement's name, is qualified wherever the statement or a statement inside it
 * names it (a column's table included); a CTE is not; nor is a table given to `json_agg`/`to_json` or named in
 * `FOR UPDATE OF`.
 */
class SchemaQueryCompiler extends PostgresQueryCompiler {
  /** The tables qualified in the statement being compiled (the statements around it included), and its CTEs. */
  private readonly tables = new Set<string>()
  private readonly ctes = new Set<string>()

  constructor(private readonly schema: string) {
    super()
    const visit = this.visitNode
    // visitNode is the base visitor's own property (an arrow function), so it is wrapped rather than overridden.
    ;(this as unknown as { visitNode: (node: OperationNode) => void }).visitNode = (node) => {
      if (!ROOT_NODES.has(node.kind)) return visit(node)
      const ctes = this.collectCtes(node)
      const tables = this.collectTables(node)
      try {
        visit(node)
      } finally {
        for (const t of tables) this.tables.delete(t)
        for (const c of ctes) this.ctes.delete(c)
      }
    }
  }

  protected override visitSchemableIdentifier(node: SchemableIdentifierNode): void {
    if (!node.schema && this.tables.has(node.identifier.name)) {
      this.append(this.getLeftIdentifierWrapper() + this.sanitizeIdentifier(this.schema) + this.getRightIdentifierWrapper())
      this.append('.')
    }
    super.visitSchemableIdentifier(node)
  }

  protected override visitReferences(node: ReferencesNode): void {
    super.visitReferences(node.table.table.schema ? node : { ...node, table: TableNode.createWithSchema(this.schema, node.table.table.identifier.name) })
  }

  protected override visitFunction(node: FunctionNode): void {
    super.visitFunction(SCHEMALESS_FUNCTIONS.has(node.func) ? { ...node, arguments: node.arguments.map(bare) } : node)
  }

  protected override visitAggregateFunction(node: AggregateFunctionNode): void {
    super.visitAggregateFunction(SCHEMALESS_FUNCTIONS.has(node.func) ? { ...node, aggregated: node.aggregated.map(bare) } : node)
  }

  protected override visitSelectModifier(node: SelectModifierNode): void {
    super.visitSelectModifier(node.of ? { ...node, of: node.of.map(bare) } : node)
  }

  private collectCtes(node: OperationNode): string[] {
    const added: string[] = []
    const withNode = (node as { with?: WithNode }).with
    for (const expr of withNode?.expressions ?? []) {
      const name = expr.name.table.table.identifier.name
      if (!this.ctes.has(name)) (this.ctes.add(name), added.push(name))
    }
    return added
  }

  private collectTables(node: OperationNode): string[] {
    const added: string[] = []
    const n = node as {
      name?: OperationNode
      from?: { froms: readonly OperationNode[] }
      into?: OperationNode
      table?: OperationNode
      joins?: readonly JoinNode[]
      using?: OperationNode
    }
    if (n.name && SchemableIdentifierNode.is(n.name)) this.addTable(n.name, added)
    if (n.from) for (const from of n.from.froms) this.addFrom(from, added)
    this.addFrom(n.into, added)
    this.addFrom(n.table, added)
    if (n.joins) for (const join of n.joins) this.addFrom(join.table, added)
    if (n.using) this.addFrom(JoinNode.is(n.using) ? n.using.table : n.using, added)
    return added
  }

  // Methods, not closures: this runs for every statement and subquery compiled.
  private addFrom(expr: OperationNode | undefined, added: string[]): void {
    if (!expr) return
    if (TableNode.is(expr)) this.addTable(expr.table, added)
    else if (AliasNode.is(expr) && TableNode.is(expr.node)) this.addTable(expr.node.table, added)
    else if (ListNode.is(expr)) for (const item of expr.items) this.addFrom(item, added)
    else if (UsingNode.is(expr)) for (const table of expr.tables) this.addFrom(table, added)
  }

  /** A table the statement names, unless a statement around it or a CTE has the name: theirs stays theirs. */
  private addTable(id: SchemableIdentifierNode, added: string[]): void {
    const name = id.identifier.name
    if (this.tables.has(name) || this.ctes.has(name)) return
    this.tables.add(name)
    added.push(name)
  }
}

/** The statements (and DDL) whose tables are qualified: Kysely's own list for its schema plugin. */
const ROOT_NODES = new Set([
  'AlterTableNode',
  'CreateIndexNode',
  'CreateSchemaNode',
  'CreateTableNode',
  'CreateTypeNode',
  'CreateViewNode',
  'RefreshMaterializedViewNode',
  'DeleteQueryNode',
  'DropIndexNode',
  'DropSchemaNode',
  'DropTableNode',
  'DropTypeNode',
  'DropViewNode',
  'InsertQueryNode',
  'RawNode',
  'SelectQueryNode',
  'UpdateQueryNode',
  'MergeQueryNode',
])

const SCHEMALESS_FUNCTIONS = new Set(['json_agg', 'to_json'])

/** A table argument named without its schema (a row of it, not the table). */
const bare = (arg: OperationNode): OperationNode => (TableNode.is(arg) && !arg.table.schema ? arg.table.identifier : arg)

/** PostgreSQL with every statement's tables qualified by `schema` as it compiles (see SchemaQueryCompiler). */
export class SchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config)
  }

  override createQueryCompiler(): QueryCompiler {
    return new SchemaQueryCompiler(this.schema)
  }
}
