/** A backup or restore that cannot go on, said in Chinese to the person running it (command or screen). */
export class BackupError extends Error {}
