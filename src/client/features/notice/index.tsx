import { lazy } from 'react'
import { registerFormControl } from '../../components/form-controls.js'
import { registerMenuPage } from '../../app/menu-pages.js'
import { fillHeaderSlot } from '../../app/header-slots.js'
import { NoticeBell } from './NoticeBell.js'
import NoticeContentControl from './NoticeContentControl.js'
import './todo-bell.js'

/**
 * System notices: the rich-text 内容 of the publish screen (menu 发布系统通知, `entity:notice`) and
 * the 系统通知 page (its menu component is system/notice/index). The header bell is NoticeBell, in
 * the shell's header slot. Editor, viewer and page load on first use.
 */

const MyNoticesPage = lazy(() => import('./MyNoticesPage.js'))

registerFormControl('notice', 'content', NoticeContentControl)
registerMenuPage('/system/notice/index', () => <MyNoticesPage />)
fillHeaderSlot('notice', NoticeBell)
