/**
 * Marks a fixed text kept in a module-level table (columns, verbs) that is translated where it is
 * shown (`tr(column.title)`): a table is built once, before the user picks a language. No imports, so
 * modules on the login route can use it without loading the catalogues.
 */
export const term = (text: string): string => text
