// The ES build of @ant-design/icons ships no declarations beside its icons folder; they match lib's.
declare module '@ant-design/icons/es/icons/index.js' {
  export * from '@ant-design/icons/lib/icons/index'
}
