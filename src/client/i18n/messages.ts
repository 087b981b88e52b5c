import { translatorOf } from '../../shared/i18n/catalogue.js'
import type { Locale } from '../../shared/i18n/locales.js'

/**
 * The shell's own words in the three languages of 000 §2 (CN default, HK, US). antd's components
 * translate themselves through their locale (AppRoot); menu titles and server messages stay as the
 * server sends them. One entry per concept; `{name}` marks a parameter. Another language takes the
 * Simplified text through its catalogue (a new language is its catalogue, not a column here).
 */
type Entry = Record<'zh-CN' | 'zh-HK' | 'en-US', string>

const m = (zhCN: string, zhHK: string, enUS: string): Entry => ({ 'zh-CN': zhCN, 'zh-HK': zhHK, 'en-US': enUS })

export const MESSAGES = {
  // header
  'menu.search': m('搜索菜单', '搜尋菜單', 'Search menus'),
  'menu.search.none': m('没有找到相关菜单', '沒有找到相關菜單', 'No matching menu'),
  'menu.nav': m('导航菜单', '導航菜單', 'Navigation'),
  'menu.top': m('顶部菜单', '頂部菜單', 'Top menu'),
  'menu.more': m('更多', '更多', 'More'),
  'menu.open': m('打开菜单', '打開菜單', 'Open menu'),
  'menu.collapse': m('收起菜单', '收起菜單', 'Collapse menu'),
  'menu.expand': m('展开菜单', '展開菜單', 'Expand menu'),
  'menu.collect': m('收藏', '收藏', 'Add to favourites'),
  'menu.uncollect': m('取消收藏', '取消收藏', 'Remove from favourites'),
  'menu.collected': m('收藏成功', '收藏成功', 'Added to favourites'),
  'menu.uncollected': m('已取消收藏', '已取消收藏', 'Removed from favourites'),
  'user.menu': m('用户菜单', '用戶菜單', 'User menu'),
  'user.profile': m('个人中心', '個人中心', 'Personal centre'),
  'user.settings': m('个人设置', '個人設置', 'Personal settings'),
  'user.logout': m('退出登录', '退出登錄', 'Log out'),
  'user.fallback': m('用户', '用戶', 'User'),
  'lang.switch': m('切换语言', '切換語言', 'Language'),
  // tabs
  'tabs.refresh': m('刷新', '刷新', 'Refresh'),
  'tabs.close': m('关闭', '關閉', 'Close'),
  'tabs.closeLeft': m('关闭左侧', '關閉左側', 'Close tabs to the left'),
  'tabs.closeRight': m('关闭右侧', '關閉右側', 'Close tabs to the right'),
  'tabs.closeOthers': m('关闭其他', '關閉其他', 'Close other tabs'),
  'tabs.lock': m('锁定标签栏', '鎖定標籤欄', 'Lock the tab bar'),
  'tabs.unlock': m('解锁标签栏', '解鎖標籤欄', 'Unlock the tab bar'),
  'tabs.lastTab': m('这已经是最后一页，不能再关闭了！', '這已經是最後一頁，不能再關閉了！', 'This is the last page; it cannot be closed!'),
  'tabs.workplaceFixed': m('工作台不能关闭！', '工作台不能關閉！', 'The workplace cannot be closed!'),
  // fixed pages
  'page.workplace': m('工作台', '工作台', 'Workplace'),
  'page.profile': m('个人中心', '個人中心', 'Personal centre'),
  'page.settings': m('个人设置', '個人設置', 'Personal settings'),
  'page.login': m('登录', '登錄', 'Sign in'),
  'page.forget': m('找回密码', '找回密碼', 'Reset password'),
  // error pages
  'error.backHome': m('返回首页', '返回首頁', 'Back to home'),
  'error.403': m('抱歉，您无权访问此页面。', '抱歉，您無權訪問此頁面。', 'Sorry, you are not allowed to open this page.'),
  'error.404': m('抱歉，您访问的页面不存在。', '抱歉，您訪問的頁面不存在。', 'Sorry, this page does not exist.'),
  'error.500': m('抱歉，服务器出错了，请稍后重试。', '抱歉，服務器出錯了，請稍後重試。', 'Sorry, the server failed. Please try again later.'),
  'error.developing': m('页面开发中', '頁面開發中', 'Page in development'),
  'error.developing.detail': m('该页面正在开发中，敬请期待！', '該頁面正在開發中，敬請期待！', 'This page is being developed.'),
  'error.loadFailed': m('页面加载失败，请刷新后重试。', '頁面加載失敗，請刷新後重試。', 'The page failed to load. Please reload and try again.'),
  'error.renderFailed': m('页面出现错误：{message}', '頁面出現錯誤：{message}', 'The page failed: {message}'),
  // settings
  'settings.layout': m('导航布局', '導航佈局', 'Layout'),
  'settings.layout.side': m('侧边菜单', '側邊菜單', 'Side menu'),
  'settings.layout.head': m('顶部菜单', '頂部菜單', 'Top menu'),
  'settings.layout.mixed': m('混合菜单', '混合菜單', 'Mixed menu'),
  'settings.theme': m('主题模式', '主題模式', 'Theme'),
  'settings.theme.light': m('亮色', '亮色', 'Light'),
  'settings.theme.dark': m('暗色', '暗色', 'Dark'),
  'settings.theme.night': m('夜间', '夜間', 'Night'),
  'settings.language': m('语言', '語言', 'Language'),
  'settings.tabsLocked': m('锁定标签栏', '鎖定標籤欄', 'Lock the tab bar'),
  'settings.reset': m('恢复默认', '恢復默認', 'Restore defaults'),
  // login
  'login.welcome': m('欢迎登录', '歡迎登錄', 'Welcome'),
  'login.tab.account': m('账号密码登录', '賬號密碼登錄', 'Username'),
  'login.tab.telephone': m('手机号登录', '手機號登錄', 'Telephone'),
  'login.username': m('用户名', '用戶名', 'Username'),
  'login.password': m('密码', '密碼', 'Password'),
  'login.captcha': m('验证码', '驗證碼', 'Verification code'),
  'login.captcha.refresh': m('看不清？点击刷新', '看不清？點擊刷新', 'Click for a new image'),
  'login.telephone': m('手机号', '手機號', 'Telephone'),
  'login.smsCode': m('短信验证码', '短信驗證碼', 'SMS code'),
  'login.sendCode': m('获取验证码', '獲取驗證碼', 'Send code'),
  'login.resend': m('{seconds}秒后重新获取', '{seconds}秒後重新獲取', 'Resend in {seconds} s'),
  'login.codeSent': m('验证码已发送，请注意查收', '驗證碼已發送，請注意查收', 'The code has been sent'),
  'login.submit': m('登录', '登錄', 'Sign in'),
  'login.forget': m('忘记密码？', '忘記密碼？', 'Forgot password?'),
  'login.register': m('注册账号', '註冊賬號', 'Register'),
  'login.multiTenant': m('多租户系统请按“租户ID@用户名”输入', '多租戶系統請按“租戶ID@用戶名”輸入', 'Multi-tenant: enter "tenantId@username"'),
  'login.offline': m('无法连接服务器，请稍后重试', '無法連接服務器，請稍後重試', 'The server cannot be reached; please try again later'),
  'login.required.username': m('请输入用户名', '請輸入用戶名', 'Please enter the username'),
  'login.required.password': m('请输入密码', '請輸入密碼', 'Please enter the password'),
  'login.required.captcha': m('请输入验证码', '請輸入驗證碼', 'Please enter the code'),
  'login.captchaFailed': m('验证码加载失败', '驗證碼加載失敗', 'The verification image failed to load'),
  'login.tenant': m('租户ID', '租戶ID', 'Tenant ID'),
  'login.required.telephone': m('请输入手机号', '請輸入手機號', 'Please enter the telephone number'),
  'register.title': m('注册账号', '註冊賬號', 'Register'),
  'register.name': m('姓名', '姓名', 'Name'),
  'register.email': m('邮箱', '郵箱', 'E-mail'),
  'register.confirm': m('确认密码', '確認密碼', 'Confirm password'),
  'register.mismatch': m('两次输入的密码不一致', '兩次輸入的密碼不一致', 'The passwords differ'),
  'register.done': m('注册成功，请登录', '註冊成功，請登錄', 'Registered; please sign in'),
  // session and transfers (api-error-bridge, api/http)
  'error.network': m('网络请求错误，请稍后重试！', '網絡請求錯誤，請稍後重試！', 'Network error; please try again later!'),
  'relogin.title': m('确认重新登录', '確認重新登錄', 'Sign in again'),
  'relogin.content': m('您已长时间未操作，已被退出登录，请重新登录！', '您已長時間未操作，已被退出登錄，請重新登錄！', 'You were signed out after a long time without activity. Please sign in again!'),
  'relogin.ok': m('重新登录', '重新登錄', 'Sign in again'),
  'relogin.cancel': m('取消', '取消', 'Cancel'),
  'export.progress': m('正在导出{rows}条数据，已下载{mb} MB…', '正在導出{rows}條數據，已下載{mb} MB…', 'Exporting {rows} rows, {mb} MB downloaded…'),
  // workplace
  'workplace.shortcuts': m('快捷入口', '快捷入口', 'Shortcuts'),
  'workplace.noShortcuts': m('暂无收藏的菜单，可在左侧菜单或页签右键菜单中点击收藏', '暫無收藏的菜單，可在左側菜單或頁籤右鍵菜單中點擊收藏', 'No favourites yet: star a menu or use the tab context menu'),
  'workplace.orderChart': m('近30天订单', '近30天訂單', 'Orders, last 30 days'),
  'workplace.noChartData': m('暂无订单数据', '暫無訂單數據', 'No order data'),
  'workplace.count': m('单据数', '單據數', 'Documents'),
  'workplace.amount': m('金额', '金額', 'Amount'),
  'workplace.welcome': m('{greeting}，{name}，欢迎使用{title}！', '{greeting}，{name}，歡迎使用{title}！', '{greeting}, {name}. Welcome to {title}!'),
  'workplace.dateFormat': m('YYYY年M月D日 dddd', 'YYYY年M月D日 dddd', 'dddd, MMMM D, YYYY'),
  'workplace.today': m('今天是 {date}', '今天是 {date}', 'Today is {date}'),
  'greeting.night': m('凌晨好', '凌晨好', 'Good night'),
  'greeting.morning': m('上午好', '上午好', 'Good morning'),
  'greeting.noon': m('中午好', '中午好', 'Good afternoon'),
  'greeting.afternoon': m('下午好', '下午好', 'Good afternoon'),
  'greeting.evening': m('晚上好', '晚上好', 'Good evening'),
  // low-code hosts (filled by the low-code issue)
} satisfies Record<string, Entry>

export type MessageKey = keyof typeof MESSAGES

/** The text of a key in a locale, with `{name}` parameters filled in. */
export function translate(locale: Locale, key: MessageKey, params?: Record<string, string | number>): string {
  const entry: Readonly<Record<string, string>> = MESSAGES[key]
  const text = entry[locale] ?? translatorOf(locale)(entry['zh-CN'])
  return params ? text.replace(/\{(\w+)\}/g, (all, name: string) => (name in params ? String(params[name]) : all)) : text
}
