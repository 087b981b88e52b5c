/**
 * Every antd icon, for menu icons named by administrators. MenuIcon imports this module lazily. It
 * re-exports the icons folder rather than the package root: pages import their few icons from the
 * root, and a lazily imported root would make those static imports load the whole set.
 */
export * from '@ant-design/icons/es/icons/index.js'
