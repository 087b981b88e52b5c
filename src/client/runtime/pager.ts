/** Grid paging of the spec (000 §9): 20 rows, sizes 5, 15, 20, 50, 100, total shown. */
export const DEFAULT_PAGE_SIZE = 20
export const PAGE_SIZE_OPTIONS = [5, 15, 20, 50, 100]
export const showTotal = (total: number) => `共 ${total} 条`
