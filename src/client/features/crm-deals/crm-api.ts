import { download } from '../../api/http.js'

/** Downloads a contract attachment by the URL its upload answered (read with the token, not a call of its own). */
export const downloadContractFile = (url: string) => download('get', url.replace(/^\/cloud-api/, ''))
