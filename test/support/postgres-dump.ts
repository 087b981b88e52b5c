import pg from 'pg'

/**
 * A plain-SQL dump of some schemas of a PostgreSQL database, read from the catalog (no pg_dump on this
 * machine): extensions, schemas, functions, sequences, tables (generated columns kept as such), data,
 * sequence values, constraints, indexes, triggers — triggers last, so loading the rows fires none of
 * them (the row counters are in the data already). For test fixtures only (test/fixtures/upgrade);
 * it knows what this app creates, not every object PostgreSQL has (no views, rules, policies, grants).
 */
export async function dumpPostgres(url: string, schemas: string[]): Promise<string> {
  // Every value as the server's text, so a literal in the dump is exactly what was stored.
  const client = new pg.Client({ connectionString: url, types: { getTypeParser: () => (value: string) => value } })
  await client.connect()
  try {
    const q = async (text: string, values: unknown[] = []) => (await client.query(text, values)).rows as Record<string, string>[]
    const id = (...names: string[]) => names.map((n) => client.escapeIdentifier(n)).join('.')
    const literal = (v: string | null) => (v === null ? 'NULL' : client.escapeLiteral(v))
    const out: string[] = ['-- plain SQL dump (test/support/postgres-dump.ts)', 'SET check_function_bodies = false;']
    const inSchemas = 'n.nspname = any($1)'

    for (const e of await q(`select e.extname, n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname <> 'plpgsql' order by 1`))
      out.push(`CREATE EXTENSION IF NOT EXISTS ${id(e.extname)} WITH SCHEMA ${id(e.nspname)};`)
    for (const s of schemas) out.push(`CREATE SCHEMA IF NOT EXISTS ${id(s)};`)
    const notFromExtension = `not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`
    for (const f of await q(`select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where ${inSchemas} and p.prokind = 'f' and ${notFromExtension} order by n.nspname, p.proname, p.oid`, [schemas]))
      out.push(`${f.def};`)
    const sequences = await q(`select n.nspname, c.relname, s.seqtypid::regtype as type, s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle
        from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace where ${inSchemas} order by 1, 2`, [schemas])
    for (const s of sequences)
      out.push(`CREATE SEQUENCE ${id(s.nspname, s.relname)} AS ${s.type} START ${s.seqstart} INCREMENT ${s.seqincrement} MINVALUE ${s.seqmin} MAXVALUE ${s.seqmax} CACHE ${s.seqcache}${s.seqcycle === 't' ? ' CYCLE' : ''};`)

    const tables = await q(`select c.oid, n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where ${inSchemas} and c.relkind in ('r', 'p') order by 2, 3`, [schemas])
    const stored = new Map<string, string[]>()
    for (const t of tables) {
      const columns = await q(`select a.attname, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull, a.attgenerated, a.attidentity,
          pg_get_expr(d.adbin, d.adrelid) as expr, co.collname
        from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
          left join pg_collation co on co.oid = a.attcollation and a.attcollation <> (select typcollation from pg_type where oid = a.atttypid)
        where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped order by a.attnum`, [t.oid])
      const lines = columns.map((c) => {
        let line = `  ${id(c.attname)} ${c.type}${c.collname ? ` COLLATE ${id(c.collname)}` : ''}`
        if (c.attgenerated === 's') line += ` GENERATED ALWAYS AS (${c.expr}) STORED`
        else if (c.attidentity) line += ` GENERATED ${c.attidentity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`
        else if (c.expr !== null) line += ` DEFAULT ${c.expr}`
        return c.attnotnull === 't' ? `${line} NOT NULL` : line
      })
      out.push(`CREATE TABLE ${id(t.nspname, t.relname)} (\n${lines.join(',\n')}\n);`)
      stored.set(t.oid, columns.filter((c) => c.attgenerated !== 's').map((c) => c.attname))
    }
    for (const s of await q(`select n.nspname, c.relname, tn.nspname as tschema, t.relname as tname, a.attname
        from pg_depend d join pg_class c on c.oid = d.objid and c.relkind = 'S' join pg_namespace n on n.oid = c.relnamespace
        join pg_class t on t.oid = d.refobjid join pg_namespace tn on tn.oid = t.relnamespace
        join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
        where ${inSchemas} and d.deptype = 'a' order by 1, 2`, [schemas]))
      out.push(`ALTER SEQUENCE ${id(s.nspname, s.relname)} OWNED BY ${id(s.tschema, s.tname, s.attname)};`)

    for (const t of tables) {
      const columns = stored.get(t.oid)!
      const rows = await q(`select ${columns.map((c) => `${id(c)}::text`).join(', ')} from ${id(t.nspname, t.relname)} order by ${columns.map((_, i) => i + 1).join(', ')}`)
      for (let i = 0; i < rows.length; i += 200) {
        const values = rows.slice(i, i + 200).map((r) => `(${columns.map((c) => literal(r[c])).join(', ')})`)
        out.push(`INSERT INTO ${id(t.nspname, t.relname)} (${columns.map((c) => id(c)).join(', ')}) VALUES\n${values.join(',\n')};`)
      }
    }
    for (const s of sequences) {
      const [v] = await q(`select last_value, is_called from ${id(s.nspname, s.relname)}`)
      out.push(`SELECT pg_catalog.setval(${literal(id(s.nspname, s.relname))}, ${v.last_value}, ${v.is_called === 't'});`)
    }
    for (const c of await q(`select n.nspname, t.relname, c.conname, pg_get_constraintdef(c.oid) as def from pg_constraint c
        join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
        where ${inSchemas} and c.contype in ('p', 'u', 'c', 'x', 'f') order by (c.contype = 'f'), 1, 2, 3`, [schemas]))
      out.push(`ALTER TABLE ${id(c.nspname, c.relname)} ADD CONSTRAINT ${id(c.conname)} ${c.def};`)
    for (const i of await q(`select pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class c on c.oid = i.indexrelid
        join pg_namespace n on n.oid = c.relnamespace
        where ${inSchemas} and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid and k.contype in ('p', 'u', 'x'))
        order by n.nspname, c.relname`, [schemas]))
      out.push(`${i.def};`)
    for (const g of await q(`select pg_get_triggerdef(g.oid) as def from pg_trigger g join pg_class c on c.oid = g.tgrelid
        join pg_namespace n on n.oid = c.relnamespace where ${inSchemas} and not g.tgisinternal order by n.nspname, c.relname, g.tgname`, [schemas]))
      out.push(`${g.def};`)
    return `${out.join('\n')}\n`
  } finally {
    await client.end()
  }
}

/** Runs a dump made by `dumpPostgres` against the (empty) database at `url`, in one transaction. */
export async function loadPostgresDump(url: string, dump: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`BEGIN;\n${dump}\nCOMMIT;`)
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    await client.end()
  }
}
