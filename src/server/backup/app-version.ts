import packageJson from '../../../package.json'

/** The release an archive was made by (package.json), shown in the list of backups and kept in the manifest. */
export const APP_VERSION: string = packageJson.version
