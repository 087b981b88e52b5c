/** The role permission that passes every check (spec 000 §6: role admin passes everything). */
export const ADMIN_PERMISSION = 'admin'
