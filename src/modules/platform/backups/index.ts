/**
 * Backups (docs/operations.md "Backups", "Restore"): the route the running server hands its
 * embedded database out through, and the `caretaker backup`, `restore` and `verify-backup`
 * commands. The only door other modules and the CLI use.
 */
export { backupRoutes } from './backups.routes.ts';
export { backupCommand, type BackupOptions } from './backup.ts';
export { restoreCommand } from './restore.ts';
export { verifyBackupCommand } from './verify.ts';
export type { BackupManifest } from './snapshot.ts';
