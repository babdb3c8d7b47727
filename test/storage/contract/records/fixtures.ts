/** What every part of the RecordStore contract is given, and records to store. */
import { newId } from '../../../../src/domain/kernel/ids.js';
import type { ApiToken, ImageRecord, User } from '../../../../src/domain/kernel/records.js';
import type { RecordStore } from '../../../../src/domain/kernel/ports.js';
import type { StorageConfig } from '../../../../src/adapters/storage/index.js';

export interface ContractContext {
  /** Opens the adapter in this process. */
  open: () => Promise<RecordStore>;
  /** The store `open` opened last, as configuration, for other processes to open it too. */
  storage: () => StorageConfig;
  /** A fresh email address. */
  email: () => string;
}

export const user = (email: string): User => ({
  id: newId('usr'),
  email,
  displayName: 'Contract',
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  passwordHash: null,
  emailVerifiedAt: null,
});
export const token = (userId: string, at: string, workspaceId = userId): ApiToken => ({
  id: newId('tok'),
  workspaceId,
  userId,
  scopes: null,
  name: 'n',
  tokenHash: newId('tok'),
  createdAt: new Date(at),
  lastUsedAt: null,
  revokedAt: null,
});
export const image = (userId: string, title: string, at: string): ImageRecord => ({
  id: newId('img'),
  userId,
  title,
  subtitle: null,
  width: 1200,
  height: 630,
  format: 'png',
  imageKey: `${newId('img').slice(4)}.png`,
  thumbnailKey: `${newId('img').slice(4)}_thumb.png`,
  createdAt: new Date(at),
});
