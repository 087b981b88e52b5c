import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppRoot } from './app/AppRoot.js'
import './features/system/index.js'
import './features/notice/index.js'
import './features/dictionary/index.js'
import './features/product/index.js'
import './features/data-permission/index.js'
import './runtime/document/index.js'
import './runtime/singleton/index.js'
import './features/take-stock/index.js'
import './styles.css'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppRoot />
  </StrictMode>,
)
